package cross

// The rules about answers on every endpoint that gives one of their kind:
// the error envelope, the secure answer kept out of shared caches, the
// gift order's voucher and success flag, and listings returning everything.

import (
	"net/http"
	"net/url"
	"slices"
	"strconv"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/merchant-harness/mph/api"
	"github.com/merchant-harness/mph/client"
	"github.com/merchant-harness/mph/internal/httpcache"
	"github.com/merchant-harness/mph/schemas"
	. "github.com/merchant-harness/mph/suites/expect"
	"github.com/merchant-harness/mph/suites/fixtures"
	. "github.com/merchant-harness/mph/suites/framework"
	. "github.com/merchant-harness/mph/suites/specsupport"
)

func answerRules() []crossRule {
	return []crossRule{
		{id: "errors.envelope", title: "answers a refusal (401) in the error envelope, as JSON: statusCode, message and the reason phrase, and status error, an ISO 8601 timestamp and the request path where given (all six under strict.errorEnvelopeComplete)",
			reqs: []string{"ERR-01", "ERR-02", "ERR-03", "ENV-08"}, cite: "Error envelope:", applies: every, check: envelopeCheck},
		{id: "notfound.unknown", title: "answers a path parameter naming nothing with 404 in the endpoint's 404 form, never 5xx",
			reqs: []string{"ERR-10"}, cite: "404 | card, customer or transaction does not exist (or belongs to another merchant); gift order not found",
			applies: func(e api.Endpoint) bool { return e.NotFound != api.NotFoundNone }, check: notFoundCheck,
			reqsFor: func(e api.Endpoint) []string {
				switch e.Params[0].Of {
				case api.ResGiftOrder:
					return []string{"GIFT-14"}
				case api.ResGiftTransaction:
					return []string{"GIFT-18"}
				}
				return []string{"ERR-10"}
			}},
		{id: "pci.shared-cache", title: "does not mark the secure card details storable by a shared cache (RFC 9111 §3 and §3.5)",
			reqs: []string{"SECURE-11"}, cite: "This data is PCI-sensitive; it must never reach public clients or unauthenticated browsers.",
			applies: carries(api.CarriesSecure), check: sharedCacheCheck},
		{id: "gift.voucher", title: "answers a successful purchase with the voucher details",
			reqs: []string{"GIFT-01"}, cite: "Successful outcome is status 200 with voucher details.",
			applies: only("gift-purchase"), check: voucherCheck},
		{id: "gift.success-flag", title: "gives isSuccessful true with orderStatus SUCCESS and false with PROCESSING wherever an answer carries both",
			reqs: []string{"GIFT-09", "GIFT-11"}, cite: "| isSuccessful | boolean | true when the order is fulfilled |",
			applies: carries(api.CarriesGiftOrder), check: successFlagCheck},
		{id: "listing.complete", title: "lists every resource the run created (within the largest limit), after a bounded wait",
			reqs: []string{"CUST-07", "LIST-04"}, cite: "Returns all cardholder customers registered under the merchant.",
			applies: func(e api.Endpoint) bool { return e.Has(api.ListsCards) || e.Has(api.ListsCustomers) },
			parts:   func(api.Endpoint) []any { return []any{Destructive} }, check: listingCheck,
			reqsFor: func(e api.Endpoint) []string {
				if e.Has(api.ListsCustomers) {
					return []string{"CUST-07"}
				}
				return []string{"LIST-04"}
			}},
	}
}

// envelopeCheck provokes the 401 every endpoint has (no bearer header; at
// the token exchange, a merchant that does not exist) and reads the
// envelope, the path echo included.
func envelopeCheck(ctx SpecContext, e api.Endpoint) {
	p := newProbe(ctx, e)
	cl := Anonymous()
	if e.Token() {
		cl = Anonymous().RawAuth()
		p.req.Body = map[string]any{"merchantId": Cfg().RunID + "_no_such_merchant", "secretKey": "sk_test_" + Cfg().RunID + "_wrong"}
	}
	resp := p.do(ctx, cl)
	body := p.judge(resp, "a refused call", false, http.StatusUnauthorized)
	ExpectErrorComplete(body)
	if v, given := body["status"]; given {
		Expect(v).To(Equal("error"), "the error envelope's status is error")
	}
	ExpectErrorPath(resp, body)
}

// notFoundCheck addresses what does not exist (a card by an unknown id and
// an unknown reference; an unknown gift reference) with the endpoint's
// valid body: 404 in the error envelope, or for a gift order in the form
// the document shows ("only statusCode, message and error"; the full
// envelope is an envelope too). A card id the target finds malformed may
// be refused with 400 first ("404 (or 400)" for a path naming no card).
func notFoundCheck(ctx SpecContext, e api.Endpoint) {
	p := newProbe(ctx, e)
	unknown := []string{fixtures.Ref("nosuch")}
	if e.Params[0].Of == api.ResCard {
		unknown = []string{"crd_" + fixtures.Ref("nosuch"), fixtures.Ref("nosuchref")}
		p.others = append(p.others, http.StatusBadRequest)
	}
	for _, id := range unknown {
		By(e.Key() + " for " + id)
		resp := p.do(ctx, API(), func(r *client.Request) { r.Path = e.Path(id) })
		if e.NotFound == api.NotFoundGift && resp.Status == http.StatusNotFound {
			ExpectGiftNotFound(resp)
			continue
		}
		ExpectErrorPath(resp, p.judge(resp, "a parameter naming nothing", false, http.StatusNotFound))
	}
}

// sharedCacheCheck: the secure details reach only the authenticated caller
// when no shared cache may keep them; the request carries Authorization,
// so a shared cache may store the answer only if a directive allows it.
func sharedCacheCheck(ctx SpecContext, e api.Endpoint) {
	p := newProbe(ctx, e)
	resp := p.do(ctx, API())
	ExpectEnvelopeA(resp, schemas.SecureResponse)
	storable, why := httpcache.SharedStorable(resp.Header.Values("Cache-Control"))
	Expect(storable).To(BeFalse(), "PCI: the secure card details answer Cache-Control %q, whose %s lets a shared cache store them for other clients",
		resp.Header.Values("Cache-Control"), why)
}

// orderIn is the gift order an answer of e carries: at the endpoint's
// pointer, or the top level when the pointer names no object.
func orderIn(e api.Endpoint, doc any) JSON {
	if v, ok := Ptr(doc, e.OrderAt(Profile())); ok {
		if o, ok := v.(JSON); ok {
			return o
		}
	}
	o, _ := doc.(JSON)
	return o
}

// orderState is what an order says of its fulfilment: done (SUCCESS or
// isSuccessful true), pending (PROCESSING or isSuccessful false), or
// neither when it says nothing.
func orderState(o JSON) (done, pending bool) {
	st, _ := o["orderStatus"].(string)
	flag, isBool := o["isSuccessful"].(bool)
	return st == "SUCCESS" || (isBool && flag), st == "PROCESSING" || (isBool && !flag)
}

// voucherCheck: the purchase's 200 carries the voucher details; a voucher
// not yet unlocked (the order still PROCESSING) may wait for verification,
// whose answer "carries the unlocked voucher.code and voucher.pin".
func voucherCheck(ctx SpecContext, e api.Endpoint) {
	o := crossOrder(ctx)
	doc := Decode(o.Purchase)
	order := orderIn(e, doc)
	done, pending := orderState(order)
	if v, ok := order["voucher"].(JSON); ok {
		if done {
			for _, k := range []string{"code", "pin"} {
				s, _ := v[k].(string)
				Expect(s).NotTo(BeEmpty(), "a fulfilled purchase carries the voucher's %s", k)
			}
		}
		return
	}
	if pending {
		notApplicable("the purchase answered an order still being fulfilled without a voucher; the document unlocks the voucher on verification")
	}
	// The purchase response fields are not shown: the voucher may sit
	// under another name. Its values, as verification gives them, must
	// appear in the answer.
	v, _ := VerifySettled(ctx, API(), o.Reference)["voucher"].(JSON)
	found := false
	for _, k := range []string{"code", "pin", "serialNumber"} {
		if s, _ := v[k].(string); s != "" && ContainsValue(doc, s) {
			found = true
		}
	}
	Expect(found).To(BeTrue(), "a successful purchase (200) carries the voucher details: the answer has no voucher and none of the order's voucher values (code, pin, serial number)")
}

// successFlagCheck reads the order an answer of e carries and holds
// isSuccessful to orderStatus, when the answer carries both: SUCCESS is
// fulfilled, PROCESSING is not (other values are open).
func successFlagCheck(ctx SpecContext, e api.Endpoint) {
	o := crossOrder(ctx)
	var resp *client.Response
	switch e.Slug {
	case "gift-purchase":
		resp = o.Purchase
	default:
		resp = newProbe(ctx, e).do(ctx, API())
		ExpectStatus(resp, http.StatusOK)
	}
	order := orderIn(e, Decode(resp))
	st, okS := order["orderStatus"].(string)
	flag, okF := order["isSuccessful"].(bool)
	switch {
	case !okS || !okF:
		notApplicable("the answer does not carry both orderStatus and a boolean isSuccessful (the %s answer's fields are the target's)", e.Key())
	case st == "SUCCESS":
		Expect(flag).To(BeTrue(), "orderStatus SUCCESS is a fulfilled order: isSuccessful must be true")
	case st == "PROCESSING":
		Expect(flag).To(BeFalse(), "orderStatus PROCESSING is not fulfilled yet: isSuccessful must be false")
	default:
		notApplicable("orderStatus %q is neither SUCCESS nor PROCESSING; the document says nothing of its isSuccessful", st)
	}
}

// completenessFloor is how many resources the run makes sure exist before
// it looks for each in a listing: more than the page sizes (10, 20) a
// listing that drops the rest commonly stops at.
const completenessFloor = 21

func listingCheck(ctx SpecContext, e api.Endpoint) {
	if e.Has(api.ListsCustomers) {
		customersListed(ctx)
		return
	}
	cardsListed(ctx)
}

// customersListed: "Returns all cardholder customers registered under the
// merchant": every customer this process registered is listed, within
// cards.listingFreshness (only GET /cards/{id} is documented as real-time).
func customersListed(ctx SpecContext) {
	known := fixtures.RunCustomers(Cfg().Primary)
	for n := len(known); n < completenessFloor; n++ {
		known = append(known, fixtures.NewCustomer(ctx))
	}
	known = slices.Compact(slices.Sorted(slices.Values(known)))
	EventuallyFresh(ctx, "the customer listing", func(g Gomega) {
		resp := Must(API().Get(ctx, "/cards/customers", nil))
		g.Expect(resp.Status).To(BeElementOf(http.StatusOK, http.StatusCreated), "the customer listing answered HTTP %d", resp.Status)
		ids := ListedCustomerIDs(Decode(resp))
		g.Expect(ids).To(ContainElements(known), "the listing of %d customers lacks some of the %d this run registered", len(ids), len(known))
	})
}

// cardsListed: GET /cards?status=ALL&limit=L returns up to L of the
// merchant's cards; returning fewer, it returned them all, so every card
// this process issued is among them (within cards.listingFreshness).
func cardsListed(ctx SpecContext) {
	limit := Profile().Cards.ListMaxLimit
	known := fixtures.RunCards(Cfg().Primary)
	for n := len(known); n < min(completenessFloor, limit); n++ {
		known = append(known, fixtures.NewCard(ctx, fixtures.WithAmount(M("1.00"))).ID)
	}
	known = slices.Compact(slices.Sorted(slices.Values(known)))
	q := url.Values{"status": {"ALL"}, "limit": {strconv.Itoa(limit)}}
	EventuallyFresh(ctx, "the card listing", func(g Gomega) {
		resp := Must(API().Get(ctx, "/cards", q))
		g.Expect(resp.Status).To(Equal(http.StatusOK), "the card listing answered HTTP %d", resp.Status)
		var ids []string
		for _, v := range DataList(resp.Map()) {
			if m, ok := v.(JSON); ok {
				ids = append(ids, fixtures.CardFrom(m).ID)
			}
		}
		if len(ids) >= limit {
			return // as many as asked: which of the merchant's cards is not shown
		}
		g.Expect(ids).To(ContainElements(known), "GET /cards?status=ALL&limit=%d answered %d cards, fewer than the limit, without some of the %d this run issued", limit, len(ids), len(known))
	})
}
