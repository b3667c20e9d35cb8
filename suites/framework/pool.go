package framework

// The customer pool: the fixtures spread cards over customers (a cap on the
// cards of one customer is a business rule the document leaves open), wait
// for a new customer's approval within customers.approvalWait ("After
// successful verification the returned customerId is used to issue cards";
// how long verification takes is not shown), and send a customerId back in
// the JSON type the registration answered it in (its type is not shown).

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
)

type customerPool struct {
	mu    sync.Mutex // the pool's current customer
	cur   string
	cards int

	regMu sync.Mutex // what registration answered, by customer id
	wires map[string]any
	since map[string]time.Time
}

var pool = &customerPool{wires: map[string]any{}, since: map[string]time.Time{}}

// registered records a customer the registration answered, with the JSON
// value of its id and the time.
func (p *customerPool) registered(id string, wire any) {
	p.regMu.Lock()
	defer p.regMu.Unlock()
	p.wires[id] = wire
	if _, seen := p.since[id]; !seen {
		p.since[id] = time.Now()
	}
}

// wire is the customer id as the registration answered it: a json.Number
// stays a number in the issuance body; anything else is sent as a string.
func (p *customerPool) wire(id string) any {
	p.regMu.Lock()
	defer p.regMu.Unlock()
	if n, ok := p.wires[id].(json.Number); ok {
		return n
	}
	return id
}

// current returns the pool's customer, registering the next one when it
// holds testData.cardsPerCustomer cards (or none is registered yet; an
// interrupted run registers no one: its specs are abandoned).
func (p *customerPool) current(ctx context.Context) string {
	GinkgoHelper()
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cur == "" || p.cards >= Profile().TestData.CardsPerCustomer && !interrupting.Load() {
		p.cur, p.cards = NewCustomer(ctx), 0
	}
	return p.cur
}

// rotate registers the next customer of the pool at once (the current one
// was refused a card for a reason that is not the spec's subject).
func (p *customerPool) rotate(ctx context.Context) {
	GinkgoHelper()
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cur, p.cards = NewCustomer(ctx), 0
}

// noteIssued counts a card issued to a customer (the money transport sees
// every issuance, whoever sends it).
func (p *customerPool) noteIssued(id string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if id != "" && id == p.cur {
		p.cards++
	}
}

// awaitApproval waits a moment and reports true while the customer was
// registered less than customers.approvalWait ago: a refused issuance to it
// is then tried again.
func (p *customerPool) awaitApproval(ctx context.Context, id string) bool {
	GinkgoHelper()
	p.regMu.Lock()
	since, known := p.since[id]
	p.regMu.Unlock()
	left := time.Until(since.Add(Timeouts().CustomerApproval))
	if !known || left <= 0 {
		return false
	}
	select {
	case <-ctx.Done():
		HarnessError("interrupted while waiting for customer approval")
	case <-time.After(min(left, time.Second)):
	}
	return true
}
