package specsupport

// Helpers of the gift card specs: purchases with test data no open purchase
// rule refuses, verification until the order is fulfilled, and the order's
// internal transaction reference, whose member the document does not name.

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/merchant-harness/mph/api"
	"github.com/merchant-harness/mph/client"
	"github.com/merchant-harness/mph/schemas"
	. "github.com/merchant-harness/mph/suites/expect"
	"github.com/merchant-harness/mph/suites/fixtures"
	. "github.com/merchant-harness/mph/suites/framework"
)

// GiftOrder is a purchased gift order as the suites track it.
type GiftOrder struct {
	Reference     string // client order reference
	TransactionID string // internal transaction id of the purchase answer ("" when it gives none)
	FaceValue     Money
	Email, Name   string
	Body          JSON // the purchase body sent: a duplicate resends it as it was
	Purchase      *client.Response
}

// GiftPurchaseBody is a purchase body per the profile, with a run-id
// reference. Each purchase has a recipient of its own (a name unique in the
// run, an address at the profile's testData.emailDomain): purchase rules
// per recipient are "other failure conditions: not shown".
func GiftPurchaseBody(reference string) JSON {
	g := Profile().GiftCards
	first, last := fixtures.UniqueName()
	body := JSON{
		"amount":         M(g.FaceValue).JSON(),
		"recipientEmail": strings.ToLower(fixtures.Ref("gift")) + "@" + Profile().TestData.EmailDomain,
		"recipientName":  first + " " + last,
	}
	if f := g.Purchase.Fields["productCode"]; f != "" && g.ProductCode != "" {
		body[f] = g.ProductCode
	}
	if f := g.Purchase.Fields["reference"]; f != "" && reference != "" {
		body[f] = reference
	}
	return body
}

// PurchaseGiftAs buys the profile's gift card as c and returns the order; a
// purchase that does not answer 200 is reported through the returned
// response (check it) unless must is set, then it is a harness error.
func PurchaseGiftAs(ctx context.Context, c *client.Client, must bool) GiftOrder {
	GinkgoHelper()
	g := Profile().GiftCards
	ref := ""
	if g.Purchase.Fields["reference"] != "" {
		ref = fixtures.Ref("gift")
	}
	body := GiftPurchaseBody(ref)
	resp := Must(c.Post(ctx, "/gift-cards/purchase", body))
	o := GiftOrder{Reference: ref, FaceValue: M(g.FaceValue), Body: body, Purchase: resp}
	o.Email, _ = body["recipientEmail"].(string)
	o.Name, _ = body["recipientName"].(string)
	if resp.Status != http.StatusOK {
		if must {
			HarnessError("fixture: gift card purchase answered HTTP %d", resp.Status)
		}
		return o
	}
	doc := Decode(resp)
	if v, ok := Ptr(doc, g.Purchase.ReferencePointer); ok {
		if s, _ := v.(string); s != "" {
			o.Reference = s
		}
	}
	if v, ok := Ptr(doc, g.Purchase.TransactionIDPointer); ok {
		o.TransactionID, _ = IDString(v)
	}
	if must && o.Reference == "" {
		HarnessError("fixture: the purchase answer has no order reference at %s (profile giftCards.purchase.referencePointer)", g.Purchase.ReferencePointer)
	}
	return o
}

// PurchaseGift buys as the primary merchant (harness error on failure).
func PurchaseGift(ctx context.Context) GiftOrder {
	GinkgoHelper()
	return PurchaseGiftAs(ctx, API(), true)
}

// VerifyGift calls GET /gift-cards/verify/{reference}.
func VerifyGift(ctx context.Context, c *client.Client, reference string) *client.Response {
	GinkgoHelper()
	return Must(c.Get(ctx, "/gift-cards/verify/"+client.Seg(reference), nil))
}

// ExpectVerifiedOrder asserts a 200 flat gift order (schema-checked) and returns it.
func ExpectVerifiedOrder(resp *client.Response) JSON {
	GinkgoHelper()
	ExpectStatus(resp, http.StatusOK)
	v := ExpectSchema(resp, schemas.GiftOrderResponse)
	body, _ := v.(JSON)
	Expect(body).NotTo(BeNil())
	Expect(body).NotTo(HaveKey("data"), "gift order verification answers flat: no data member")
	return body
}

// GiftFulfilled reports whether an order says it is fulfilled: isSuccessful
// true ("true when the order is fulfilled") or orderStatus SUCCESS (the
// state reconciliation leads to). Any other orderStatus is not fulfilled
// yet: PROCESSING is one example of it ("e.g. SUCCESS, PROCESSING"; other
// values "not shown").
func GiftFulfilled(order JSON) bool {
	return order["isSuccessful"] == true || order["orderStatus"] == "SUCCESS"
}

// VerifySettled verifies an order until it is fulfilled, at most the
// profile's giftCards.verifyAttempts times, verifyInterval apart: the
// document lets reconciliation complete on a later call, and names no state
// an order passes through on its way. It returns the last answer,
// schema-checked; an order still not fulfilled then is no verdict.
func VerifySettled(ctx context.Context, c *client.Client, reference string) JSON {
	GinkgoHelper()
	g := Profile().GiftCards
	var body JSON
	for i := 0; i < max(1, g.VerifyAttempts); i++ {
		if i > 0 {
			PauseGiftVerify(ctx)
		}
		body = ExpectVerifiedOrder(VerifyGift(ctx, c, reference))
		if GiftFulfilled(body) {
			return body
		}
	}
	GiftNotSettled(body)
	return body
}

// GiftNotSettled ends a spec whose order did not reach fulfilment within
// the profile's bound: how long upstream reconciliation takes is not shown,
// so no verdict, unless the profile says it settles within the bound
// (strict.giftReconciliation): then a failure.
func GiftNotSettled(order JSON) {
	GinkgoHelper()
	why := fmt.Sprintf("the gift order is still not fulfilled (orderStatus %v, isSuccessful %v) after %d verifies %s apart (giftCards.verifyAttempts, verifyInterval)",
		order["orderStatus"], order["isSuccessful"], Profile().GiftCards.VerifyAttempts, Timeouts().GiftVerifyInterval)
	if Profile().Strict.GiftReconciliation {
		Fail(why + ", which the profile says is enough (strict.giftReconciliation)")
	}
	NoVerdict(why)
}

// PauseGiftVerify waits the profile's giftCards.verifyInterval.
func PauseGiftVerify(ctx context.Context) {
	GinkgoHelper()
	select {
	case <-ctx.Done():
		HarnessError("interrupted while re-verifying a gift order not yet fulfilled")
	case <-time.After(Timeouts().GiftVerifyInterval):
	}
}

// ExpectGiftNotFound asserts the gift 404 variant and returns the body.
func ExpectGiftNotFound(resp *client.Response) JSON {
	GinkgoHelper()
	ExpectStatus(resp, http.StatusNotFound)
	v := ExpectSchema(resp, schemas.GiftNotFound)
	body, _ := v.(JSON)
	ExpectStatusCodeField(body, http.StatusNotFound)
	ExpectReasonPhrase(body, http.StatusNotFound)
	return body
}

// GiftQuoteQuery is the gift quote query for the profile's product and face value.
func GiftQuoteQuery() url.Values { return api.GiftQuoteQuery(Profile()) }

// BettingQuery is the betting quote query of the profile.
func BettingQuery() url.Values { return api.BettingQuoteQuery(Profile()) }

// NGNBalance reads the primary merchant's test NGN balance via the controls.
func NGNBalance(ctx context.Context) Money {
	GinkgoHelper()
	b, err := Controls().Balances(ctx, Cfg().Primary.MerchantID, Environment())
	if err != nil {
		HarnessError("sandbox control balances: %v", err)
	}
	m, ok := MoneyOf(b.NgnBalance)
	if !ok {
		HarnessError("sandbox control balances: ngnBalance %q is not a number", b.NgnBalance)
	}
	return m
}

// ------------------------------------------- the internal transaction reference

// The verify path takes "the client order reference or the internal
// transaction reference", the lookup a "transaction reference", and the
// order carries "transactionId | internal transaction id": that the
// reference is the transactionId is the natural reading, not a stated rule
// (a provider may keep a reference of its own beside an upstream id). The
// reference is therefore found, not assumed: transactionId first, then each
// other string member of the verified order, the first one the endpoint
// resolves to the same order.

// GiftRefEndpoint is where a transaction reference is tried.
type GiftRefEndpoint string

const (
	GiftVerifyPath GiftRefEndpoint = "/gift-cards/verify/"
	GiftLookupPath GiftRefEndpoint = "/gift-cards/transactions/"
)

// notReferences are the order's documented members that name something
// else than the order (statuses, product, currency, environment, time).
var notReferences = map[string]bool{"status": true, "orderStatus": true, "productCode": true, "productName": true,
	"currency": true, "environment": true, "createdAt": true, "reference": true}

var giftRefs = struct {
	mu   sync.Mutex
	byOf map[string]string // endpoint + client reference → transaction reference ("" none)
}{byOf: map[string]string{}}

// GiftTransactionRef returns the internal transaction reference of the
// verified order at endpoint at ("" when no member of the order resolves to
// it there), looked for once per order and endpoint.
func GiftTransactionRef(ctx context.Context, c *client.Client, at GiftRefEndpoint, order JSON, clientRef string) string {
	GinkgoHelper()
	key := string(at) + clientRef
	giftRefs.mu.Lock()
	ref, known := giftRefs.byOf[key]
	giftRefs.mu.Unlock()
	if known {
		return ref
	}
	for _, cand := range ReferenceCandidates(order, clientRef) {
		if resolvesToOrder(ctx, c, at, cand, order, clientRef) {
			ref = cand
			break
		}
	}
	giftRefs.mu.Lock()
	giftRefs.byOf[key] = ref
	giftRefs.mu.Unlock()
	return ref
}

// ReferenceCandidates are the order's members that may be its internal
// transaction reference: transactionId first (a string or a number), then
// the other string members by name (not the client reference, nor the
// members naming something else).
func ReferenceCandidates(order JSON, clientRef string) []string {
	var names []string
	for k := range order {
		if !notReferences[k] && k != "transactionId" {
			names = append(names, k)
		}
	}
	sort.Strings(names)
	var out []string
	if s, ok := IDString(order["transactionId"]); ok && s != clientRef {
		out = append(out, s) // a string or a number ("internal transaction id")
	}
	for _, k := range names {
		if s, ok := order[k].(string); ok && s != "" && s != clientRef {
			out = append(out, s)
		}
	}
	return out
}

// resolvesToOrder reports whether the endpoint at finds the order by ref:
// verify answers the order with its client reference; the lookup (its body
// is not shown) an answer naming the client reference or the voucher code.
func resolvesToOrder(ctx context.Context, c *client.Client, at GiftRefEndpoint, ref string, order JSON, clientRef string) bool {
	GinkgoHelper()
	resp := Must(c.Get(ctx, string(at)+client.Seg(ref), nil))
	if resp.Status != http.StatusOK && resp.Status != http.StatusCreated {
		return false
	}
	doc := Decode(resp)
	if at == GiftVerifyPath {
		got, _ := doc.(JSON)
		return got != nil && (got["reference"] == clientRef || clientRef == "" && got["transactionId"] == order["transactionId"])
	}
	code := ""
	if v, ok := order["voucher"].(JSON); ok {
		code, _ = v["code"].(string)
	}
	return (clientRef != "" && ContainsValue(doc, clientRef)) || (code != "" && ContainsValue(doc, code))
}
