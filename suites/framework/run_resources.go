package framework

import "github.com/merchant-harness/mph/config"

// The resources this process created on the target, as the transport saw
// them (spend.go): the specs of "listings return everything" look for each.

// noteCustomer books the customer a successful registration answered; the
// caller holds the ledger's lock.
func (l *ledger) noteCustomer(who config.Credentials, doc any) {
	v, _ := AtPointerOrNamed(doc, Profile().Customers.CustomerIDPointer, "customerId")
	if id, _ := IDString(v); id != "" {
		l.custIDs = append(l.custIDs, createdCard{ID: id, Who: who})
	}
}

// RunCards returns the ids of the cards this process issued as who.
func RunCards(who config.Credentials) []string {
	books.mu.Lock()
	defer books.mu.Unlock()
	return idsBy(books.cards, who)
}

// RunCustomers returns the ids of the customers this process registered as who.
func RunCustomers(who config.Credentials) []string {
	books.mu.Lock()
	defer books.mu.Unlock()
	return idsBy(books.custIDs, who)
}

func idsBy(list []createdCard, who config.Credentials) []string {
	var out []string
	for _, c := range list {
		if c.Who == who && c.ID != "" {
			out = append(out, c.ID)
		}
	}
	return out
}
