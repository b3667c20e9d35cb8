package sandbox

import "sort"

// Faults proving the specs that check what a plain TEST server shows about
// cards addressed by reference, card-not-found messages, createdStatus,
// spend limits read back from the PUT answer and PCI data outside the secure
// details.

// strengthFaults is embedded in faultSet: one plain bool per fault.
type strengthFaults struct {
	createdStatusPending bool
	refWritesBroken      bool
	notFoundMsgGeneric   bool
	cardLeaksCredentials bool
	limitsResetOnUpdate  bool
}

var strengthCatalogue = []faultDef{
	fault("card-created-status-pending", "Cards carry createdStatus PENDING instead of COMPLETED.", reqs("GET-13"),
		func(f *faultSet) { f.createdStatusPending = true }),
	fault("card-writes-by-reference-404", "Withdraw, status and spend limits find cards by id only: a reference gives 404 (reads by reference still work).", reqs("GET-02", "WITHDRAW-01", "STATUS-01"),
		func(f *faultSet) { f.refWritesBroken = true }),
	fault("card-not-found-message-generic", "The 404 of an unknown card on every endpoint but GET /cards/{id} says only \"Request could not be completed\".", reqs("ERR-18"),
		func(f *faultSet) { f.notFoundMsgGeneric = true }),
	fault("card-get-leaks-credentials", "GET /cards/{id} also carries the full card number and the CVV.", reqs("SECURE-11"),
		func(f *faultSet) { f.cardLeaksCredentials = true }),
	fault("limits-reset-on-update", "PUT spend-limits sets the limits not supplied to 1000.00 instead of keeping (or unsetting) them.", reqs("LIMITS-03"),
		func(f *faultSet) { f.limitsResetOnUpdate = true }),
}

func init() {
	catalogue = append(catalogue, strengthCatalogue...)
	sort.Slice(catalogue, func(i, j int) bool { return catalogue[i].Name < catalogue[j].Name })
}

// rewritesForFaults reports whether a fault changes answers after the handler.
func (f *faultSet) rewrites() bool { return f.createdStatusPending || f.notFoundMsgGeneric }
