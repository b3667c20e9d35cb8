package framework

// The customer pool: the fixtures spread cards over customers (a cap on the
// cards of one customer is a business rule the document leaves open), wait
// for a new customer's approval within customers.approvalWait ("After
// successful verification the returned customerId is used to issue cards";
// how long verification takes is not shown), and send a customerId back in
// the JSON type the registration answered it in (its type is not shown).
//
// A customer that received a card is approved for sure (proven); a spec
// provoking a refusal of issuance gets a proven customer, so that "not yet
// approved" never comes first. Waiting for an approval is learnt once per
// process: when a wait ran out without the customer being served and no
// wait ever helped, refusals are not waited out again (a target refusing
// every issuance for another reason costs the bound once, not per card).

import (
	"context"
	"encoding/json"
	"math/big"
	"strings"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
)

type customerPool struct {
	mu    sync.Mutex // the pool's current customer
	cur   string
	cards int

	regMu  sync.Mutex // what registration answered, by customer id
	wires  map[string]any
	since  map[string]time.Time
	proven map[string]bool // customers a card was issued to
	waited map[string]bool // customers whose refused issuance was waited out
	futile bool            // a wait ran out with the customer still refused
	helped bool            // a waited-out customer was then served
	atOnce bool            // a new customer's first issuance was served at once
}

var pool = &customerPool{wires: map[string]any{}, since: map[string]time.Time{}, proven: map[string]bool{}, waited: map[string]bool{}}

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
// cannot take n more cards within testData.cardsPerCustomer (or none is
// registered yet; an interrupted run registers no one: its specs are
// abandoned).
func (p *customerPool) current(ctx context.Context, n int) string {
	GinkgoHelper()
	p.mu.Lock()
	defer p.mu.Unlock()
	limit := Profile().TestData.CardsPerCustomer
	n = min(max(n, 1), max(limit, 1))
	if p.cur == "" || p.cards+n > limit && !interrupting.Load() {
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
// every issuance, whoever sends it): the customer is proven approved.
func (p *customerPool) noteIssued(id string) {
	if id == "" {
		return
	}
	p.regMu.Lock()
	if p.waited[id] {
		p.helped = true
	} else if since, known := p.since[id]; known && !p.proven[id] && time.Since(since) < Timeouts().CustomerApproval {
		p.atOnce = true
	}
	p.proven[id] = true
	p.regMu.Unlock()
	p.mu.Lock()
	defer p.mu.Unlock()
	if id == p.cur {
		p.cards++
	}
}

// awaitApproval waits a moment and reports true while a refused issuance to
// the customer may be its verification still running: it was never served,
// it was registered less than customers.approvalWait ago, and waiting has
// not proven futile in this process.
func (p *customerPool) awaitApproval(ctx context.Context, id string) bool {
	GinkgoHelper()
	p.regMu.Lock()
	since, known := p.since[id]
	skip := !known || p.proven[id] || p.futile && !p.helped
	left := time.Until(since.Add(Timeouts().CustomerApproval))
	if !skip && left <= 0 && p.waited[id] {
		p.futile = true // waited the whole bound: it was no approval
	}
	if !skip && left > 0 {
		p.waited[id] = true
	}
	p.regMu.Unlock()
	if skip || left <= 0 {
		return false
	}
	select {
	case <-ctx.Done():
		HarnessError("interrupted while waiting for customer approval")
	case <-time.After(min(left, time.Second)):
	}
	return true
}

// AwaitingApproval reports true, after a pause, while a refused issuance to
// the customer may be its verification still running (never served,
// registered less than customers.approvalWait ago, waiting not found
// futile): the caller sends the issuance again.
func AwaitingApproval(ctx context.Context, customerID string) bool {
	GinkgoHelper()
	return pool.awaitApproval(ctx, customerID)
}

// withRoom returns a customer of the pool that can take n more cards: the
// current one, or the next one. Unless this process has seen a new
// customer served at once (and no approval that took a while), a customer
// never served is issued a small card first (waiting for its approval), so
// that a spec provoking a refusal of issuance meets no "not yet approved"
// first. Call it before reading what that card would change (the vault).
func (p *customerPool) withRoom(ctx context.Context, n int) string {
	GinkgoHelper()
	cur := p.current(ctx, n)
	p.regMu.Lock()
	prove := !p.proven[cur] && (p.helped || !p.atOnce)
	p.regMu.Unlock()
	if prove {
		NewCard(ctx, WithCustomer(cur), WithAmount(M("1.00")))
	}
	return cur
}

// lookalike returns an id no customer has in the form of id: a number (a
// database key, in whatever JSON form it came: 10234, 10234.0, 1.0234e4)
// with digits appended, sent as a number; any other id with its last four
// letters or digits changed, its length and alphabet kept.
func (p *customerPool) lookalike(id string) string {
	p.regMu.Lock()
	defer p.regMu.Unlock()
	if _, isNum := p.wires[id].(json.Number); isNum {
		if r, ok := new(big.Rat).SetString(id); ok && r.IsInt() {
			out := r.Num().String() + "9999"
			p.wires[out] = json.Number(out)
			return out
		}
	}
	if strings.Trim(id, "0123456789") == "" && id != "" {
		return id + "9999"
	}
	return rotateTail(id)
}

// rotateTail changes the last four letters or digits of id, keeping its
// length and each character's class (a hex digit stays a hex digit when
// the id after its prefix is hex, as a UUID or a hex key is): an
// identifier no resource has, in a real one's form.
func rotateTail(id string) string {
	out := []byte(id)
	tail := id[strings.LastIndexByte(id, '_')+1:]
	hex := strings.Trim(strings.ToLower(tail), "0123456789abcdef-") == ""
	for i, n := len(out)-1, 0; i >= 0 && n < 4; i-- {
		switch c := out[i]; {
		case c >= '0' && c <= '9':
			out[i], n = '0'+(c-'0'+5)%10, n+1
		case hex && c >= 'a' && c <= 'f':
			out[i], n = 'a'+(c-'a'+3)%6, n+1
		case hex && c >= 'A' && c <= 'F':
			out[i], n = 'A'+(c-'A'+3)%6, n+1
		case c >= 'a' && c <= 'z':
			out[i], n = 'a'+(c-'a'+13)%26, n+1
		case c >= 'A' && c <= 'Z':
			out[i], n = 'A'+(c-'A'+13)%26, n+1
		}
	}
	return string(out)
}
