package suites

import (
	"context"
	"net/http"
	"net/url"

	. "github.com/onsi/ginkgo/v2"

	"github.com/merchant-harness/mph/client"
	. "github.com/merchant-harness/mph/suites/framework"
)

// protectedEndpoint is one endpoint that requires a bearer token: how to
// build a request to it that would otherwise succeed.
type protectedEndpoint struct {
	method string
	path   func(card Card) string        // nil: card issuance (path and body from the profile)
	query  func() url.Values             // nil: none
	body   func(ctx context.Context) any // nil: none
}

func cardPath(suffix string) func(Card) string {
	return func(c Card) string { return "/cards/" + client.Seg(c.ID) + suffix }
}

func fixed(p string) func(Card) string { return func(Card) string { return p } }

func jsonBody(b JSON) func(context.Context) any { return func(context.Context) any { return b } }

func (e protectedEndpoint) request(ctx context.Context, card Card) client.Request {
	r := client.Request{Method: e.method}
	if e.query != nil {
		r.Query = e.query()
	}
	if e.path == nil { // issuance
		cus := "cus_" + Cfg().RunID + "nosuchcustomer"
		if !LiveRefused() {
			cus = SharedCustomer(ctx)
		}
		r.Path = Profile().Issuance.Path
		r.Body = IssuanceBody(cus, "Ada Harness", M("1.00"), Ref("card"))
		return r
	}
	r.Path = e.path(card)
	if e.body != nil {
		r.Body = e.body(ctx)
	}
	return r
}

// refuseWithoutBearer sends a request to e without an Authorization header.
// A real card, so that a server checking existence before auth cannot hide
// a bypass; with LIVE credentials (and no --allow-live) nothing is issued:
// an unknown id is used.
func refuseWithoutBearer(ctx SpecContext, e protectedEndpoint) {
	card := Card{ID: "crd_" + Cfg().RunID + "nosuchcard"}
	if !LiveRefused() {
		card = SharedCard(ctx)
	}
	ExpectError(Must(Anonymous().Do(ctx, e.request(ctx, card))), http.StatusUnauthorized)
}

func giftPurchaseProbe(context.Context) any {
	return JSON{"amount": M(Profile().GiftCards.FaceValue).JSON(), "recipientEmail": "nobody@example.com", "recipientName": "Nobody"}
}

// noBearerTable: endpoints 2-17 of the document and card issuance each
// refuse a request without a bearer token with 401 in the error envelope.
func noBearerTable() {
	get, post, put, patch := http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch
	ConformanceTable("Authorization header",
		refuseWithoutBearer,
		ConformanceEntry("refuses GET /cards/config without an Authorization header with 401", SpecID("auth.refuses-get-cards-config"),
			protectedEndpoint{method: get, path: fixed("/cards/config")}, Reqs("AUTH-09")),
		ConformanceEntry("refuses POST /cards/customers without an Authorization header with 401", SpecID("auth.refuses-post-cards-customers"),
			protectedEndpoint{method: post, path: fixed("/cards/customers"), body: func(context.Context) any { return CustomerBody() }}, Reqs("AUTH-09")),
		ConformanceEntry("refuses GET /cards/customers without an Authorization header with 401", SpecID("auth.refuses-get-cards-customers"),
			protectedEndpoint{method: get, path: fixed("/cards/customers")}, Reqs("AUTH-09")),
		ConformanceEntry("refuses GET /cards without an Authorization header with 401", SpecID("auth.refuses-get-cards-without"),
			protectedEndpoint{method: get, path: fixed("/cards")}, Reqs("AUTH-09")),
		ConformanceEntry("refuses POST /cards (issuance) without an Authorization header with 401", SpecID("auth.refuses-post-cards-issuance"),
			protectedEndpoint{method: post}, Reqs("AUTH-09")),
		ConformanceEntry("refuses GET /cards/{id} without an Authorization header with 401", SpecID("auth.refuses-get-cards-id"),
			protectedEndpoint{method: get, path: cardPath("")}, Reqs("AUTH-09")),
		ConformanceEntry("refuses GET /cards/{id}/secure without an Authorization header with 401", SpecID("auth.refuses-get-cards-id-2"),
			protectedEndpoint{method: get, path: cardPath("/secure")}, Reqs("AUTH-09")),
		ConformanceEntry("refuses POST /cards/{id}/withdraw without an Authorization header with 401", SpecID("auth.refuses-post-cards-id"),
			protectedEndpoint{method: post, path: cardPath("/withdraw"), body: jsonBody(JSON{"amount": M("0.10").JSON()})}, Reqs("AUTH-09")),
		ConformanceEntry("refuses PUT /cards/{id}/spend-limits without an Authorization header with 401", SpecID("auth.refuses-put-cards-id"),
			protectedEndpoint{method: put, path: cardPath("/spend-limits"), body: jsonBody(JSON{"transactionLimit": M("10.00").JSON()})}, Reqs("AUTH-09")),
		ConformanceEntry("refuses PATCH /cards/{id}/status without an Authorization header with 401", SpecID("auth.refuses-patch-cards-id"),
			protectedEndpoint{method: patch, path: cardPath("/status"), body: jsonBody(JSON{"status": "FROZEN"})}, Reqs("AUTH-09")),
		ConformanceEntry("refuses PATCH /cards/{id}/contact without an Authorization header with 401", SpecID("auth.refuses-patch-cards-id-2"),
			protectedEndpoint{method: patch, path: cardPath("/contact"), body: jsonBody(JSON{"email": "nobody@example.com"})}, Reqs("AUTH-09")),
		ConformanceEntry("refuses POST /cards/{id}/simulate-webhook without an Authorization header with 401", SpecID("auth.refuses-post-cards-id-2"),
			protectedEndpoint{method: post, path: cardPath("/simulate-webhook"), body: jsonBody(JSON{"event_type": "authorization"})}, Reqs("AUTH-09")),
		ConformanceEntry("refuses GET /gift-cards/quote without an Authorization header with 401", SpecID("auth.refuses-get-gift-cards"),
			protectedEndpoint{method: get, path: fixed("/gift-cards/quote"), query: giftQuoteQuery}, Reqs("AUTH-09")),
		ConformanceEntry("refuses POST /gift-cards/purchase without an Authorization header with 401", SpecID("auth.refuses-post-gift-cards"),
			protectedEndpoint{method: post, path: fixed("/gift-cards/purchase"), body: giftPurchaseProbe}, Reqs("AUTH-09")),
		ConformanceEntry("refuses GET /gift-cards/verify/{reference} without an Authorization header with 401", SpecID("auth.refuses-get-gift-cards-2"),
			protectedEndpoint{method: get, path: func(Card) string { return "/gift-cards/verify/" + client.Seg(Cfg().RunID+"-no-such-order") }}, Reqs("AUTH-09")),
		ConformanceEntry("refuses GET /gift-cards/transactions/{ref} without an Authorization header with 401", SpecID("auth.refuses-get-gift-cards-3"),
			protectedEndpoint{method: get, path: fixed("/gift-cards/transactions/GCT_mph_no_such")}, Reqs("AUTH-09")),
		ConformanceEntry("refuses GET /betting/quote without an Authorization header with 401", SpecID("auth.refuses-get-betting-quote"),
			protectedEndpoint{method: get, path: fixed("/betting/quote"), query: bettingQuery}, Reqs("AUTH-09")),
	)
}
