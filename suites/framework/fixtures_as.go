package framework

// Fixtures of another merchant's client (a second TEST merchant, a LIVE
// one): customers and cards made the way the pool's are, customer ids as
// strings or numbers, a new customer's approval waited out, a new card made
// ACTIVE.

import (
	"context"
	"net/http"

	. "github.com/onsi/ginkgo/v2"

	"github.com/merchant-harness/mph/client"
	"github.com/merchant-harness/mph/schemas"
)

// NewCustomerAs registers a customer with an identity of its own through c
// and returns its customerId (a harness error when it cannot).
func NewCustomerAs(ctx context.Context, c *client.Client) string {
	GinkgoHelper()
	resp := Must(c.Post(ctx, "/cards/customers", CustomerBody()))
	skipIfStillRateLimited(resp, nil)
	if resp.Status != http.StatusOK && resp.Status != http.StatusCreated {
		HarnessError("fixture: registering a customer answered HTTP %d (%s)", resp.Status, firstMessage(resp))
	}
	id, ok := CustomerIDFrom(resp)
	if !ok {
		HarnessError("fixture: the registration answer has no customer id at %s (profile customers.customerIdPointer) nor a member named customerId", Profile().Customers.CustomerIDPointer)
	}
	return id
}

// NewCardAs issues a card of 1.00 USD named name to the customer through c,
// waiting out the customer's approval (customers.approvalWait), reads it
// with GET and makes it ACTIVE when it is not (a harness error when it
// cannot).
func NewCardAs(ctx context.Context, c *client.Client, customerID, name string) Card {
	GinkgoHelper()
	body := IssuanceBody(customerID, name, M("1.00"), Ref("card"))
	for {
		resp := Must(c.Post(ctx, Profile().Issuance.Path, body))
		skipIfStillRateLimited(resp, nil)
		if resp.Status == http.StatusOK || resp.Status == http.StatusCreated {
			return readIssuedAs(ctx, c, resp, body)
		}
		if resp.Status < 400 || resp.Status > 499 || !pool.awaitApproval(ctx, customerID) {
			HarnessError("fixture: issuing a card answered HTTP %d (%s)", resp.Status, firstMessage(resp))
		}
	}
}

// readIssuedAs reads through c the card an issuance answered and makes it
// ACTIVE when it is not.
func readIssuedAs(ctx context.Context, c *client.Client, resp *client.Response, sent JSON) Card {
	GinkgoHelper()
	id, _ := IDString(IssuedCard(resp)["id"])
	if id == "" {
		HarnessError("fixture: the issuance answer has no card id at %s (profile issuance.cardPointer) nor a member named id", Profile().Issuance.CardPointer)
	}
	read := func() Card {
		r := Must(c.Get(ctx, "/cards/"+client.Seg(id), nil))
		return CardFrom(Data(ExpectEnvelopeA(r, schemas.CardResponse)))
	}
	card := read()
	if card.Status != "ACTIVE" {
		r := Must(c.Patch(ctx, "/cards/"+client.Seg(id)+"/status", JSON{"status": "ACTIVE"}))
		if r.Status != http.StatusOK {
			HarnessError("fixture: making the new card %s ACTIVE answered HTTP %d (%s)", id, r.Status, firstMessage(r))
		}
		card = read()
	}
	card.Sent, card.Answer = sent, resp
	if ref, _ := sent[Profile().Issuance.ReferenceField].(string); card.Reference == "" && ref != "" {
		card.Reference = ref
	}
	return card
}
