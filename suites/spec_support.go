package suites

// Helpers shared by the contact, webhook, gift card, quote, error, malformed
// request, isolation, rate-limit, transaction and model specs.

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/merchant-harness/mph/api"
	"github.com/merchant-harness/mph/client"
	"github.com/merchant-harness/mph/client/controls"
	"github.com/merchant-harness/mph/schemas"
	. "github.com/merchant-harness/mph/suites/framework"
)

// cardURL is the path of a card endpoint: /cards/{idOrRef}{suffix}.
func cardURL(idOrRef, suffix string) string { return "/cards/" + client.Seg(idOrRef) + suffix }

// ExpectClientError asserts a refusal whose status the document does not
// give: any 4xx carrying the error envelope (ExpectRefused: a 401, 403 or
// 429 is no verdict, never the refusal asked for), and returns the body.
func ExpectClientError(resp *client.Response) JSON {
	GinkgoHelper()
	return ExpectRefused(resp, "")
}

// ExpectRefusal is ExpectRefused: the status the profile names under
// errors.status.<condition>, or any 4xx when it names none; always the
// error envelope. It returns the body.
func ExpectRefusal(resp *client.Response, condition string) JSON {
	GinkgoHelper()
	return ExpectRefused(resp, condition)
}

// targetRefuses reports whether the profile says the target refuses the
// malformed input (errors.refuses.<input>); the document states the input's
// form but not that other forms are refused.
func targetRefuses(input string) bool { return Profile().Errors.Refuses[input] }

// skipUnlessRefuses skips the spec when the profile says the target accepts
// other forms of the input.
func skipUnlessRefuses(input string) {
	GinkgoHelper()
	if !targetRefuses(input) {
		Skip("the profile says the target does not refuse this (errors.refuses." + input + " is false); the document does not say that it must")
	}
}

// ExpectErrorWithPath is ExpectError plus the envelope's informational path
// naming the request path.
func ExpectErrorWithPath(resp *client.Response, status int) JSON {
	GinkgoHelper()
	body := ExpectError(resp, status)
	ExpectEchoedPath(resp, body)
	return body
}

// ExpectNoCardData asserts that a (refused) answer leaks nothing of card c:
// neither its masked PAN nor its name nor a card object.
func ExpectNoCardData(resp *client.Response, c Card) {
	GinkgoHelper()
	b := string(resp.Body)
	if c.MaskedPan != "" {
		Expect(b).NotTo(ContainSubstring(c.MaskedPan), "the answer carries the card's maskedPan")
	}
	if c.NameOnCard != "" {
		Expect(b).NotTo(ContainSubstring(c.NameOnCard), "the answer carries the card's nameOnCard")
	}
	Expect(b).NotTo(ContainSubstring(`"balanceAmount"`), "the answer carries a card balance")
	Expect(b).NotTo(ContainSubstring(`"cardNumber"`), "the answer carries card credentials")
}

// cardEndpoint is one endpoint addressing a card by id or reference.
type cardEndpoint struct {
	name   string
	req    string // requirement of the endpoint (for messages)
	method string
	suffix string
	body   func() any
}

// cardEndpoints are the endpoints of the table (api.Endpoints) whose path
// names a card, each with its valid sample body; a change it makes freezes
// the card (the specs addressing another merchant's or no card look for
// changes).
func cardEndpoints() []cardEndpoint {
	var out []cardEndpoint
	for _, e := range api.Endpoints(nil) {
		if len(e.Params) != 1 || e.Params[0].Of != api.ResCard {
			continue
		}
		ce := cardEndpoint{name: e.Key(), req: e.Requirement, method: e.Method, suffix: strings.TrimPrefix(e.Template, "/cards/{id}")}
		if b := e.Body; b != nil {
			ce.body = func() any { return b.Sample(api.SampleInput{Profile: Profile(), Ref: Ref("x"), Status: "FROZEN"}) }
		}
		out = append(out, ce)
	}
	return out
}

func (e cardEndpoint) request(idOrRef string) client.Request {
	r := client.Request{Method: e.method, Path: cardURL(idOrRef, e.suffix)}
	if e.body != nil {
		r.Body = e.body()
	}
	return r
}

// ---------------------------------------------------------------- gift cards

// giftOrder is a purchased gift order as the suites track it.
type giftOrder struct {
	Reference     string // client order reference
	TransactionID string // internal transaction id ("" when the answer does not say)
	FaceValue     Money
	Email, Name   string
	Purchase      *client.Response
}

// giftPurchaseBody is a purchase body per the profile, with a run-id reference.
func giftPurchaseBody(reference string) JSON {
	g := Profile().GiftCards
	ref := Ref("gift")
	body := JSON{
		"amount":         M(g.FaceValue).JSON(),
		"recipientEmail": ref + "@example.com",
		"recipientName":  "Grace Harness",
	}
	if f := g.Purchase.Fields["productCode"]; f != "" && g.ProductCode != "" {
		body[f] = g.ProductCode
	}
	if f := g.Purchase.Fields["reference"]; f != "" && reference != "" {
		body[f] = reference
	}
	return body
}

// purchaseGiftAs buys the profile's gift card as c and returns the order; a
// purchase that does not answer 200 is reported through the returned
// response (check it) unless must is set, then it is a harness error.
func purchaseGiftAs(ctx context.Context, c *client.Client, must bool) giftOrder {
	GinkgoHelper()
	g := Profile().GiftCards
	ref := ""
	if g.Purchase.Fields["reference"] != "" {
		ref = Ref("gift")
	}
	body := giftPurchaseBody(ref)
	resp := Must(c.Post(ctx, "/gift-cards/purchase", body))
	o := giftOrder{Reference: ref, FaceValue: M(g.FaceValue), Purchase: resp}
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
		o.TransactionID, _ = v.(string)
	}
	if must && o.Reference == "" {
		HarnessError("fixture: the purchase answer has no order reference at %s (profile giftCards.purchase.referencePointer)", g.Purchase.ReferencePointer)
	}
	return o
}

// purchaseGift buys as the primary merchant (harness error on failure).
func purchaseGift(ctx context.Context) giftOrder {
	GinkgoHelper()
	return purchaseGiftAs(ctx, API(), true)
}

// verifyGift calls GET /gift-cards/verify/{reference}.
func verifyGift(ctx context.Context, c *client.Client, reference string) *client.Response {
	GinkgoHelper()
	return Must(c.Get(ctx, "/gift-cards/verify/"+client.Seg(reference), nil))
}

// expectVerifiedOrder asserts a 200 flat gift order (schema-checked) and returns it.
func expectVerifiedOrder(resp *client.Response) JSON {
	GinkgoHelper()
	ExpectStatus(resp, http.StatusOK)
	v := ExpectSchema(resp, schemas.GiftOrderResponse)
	body, _ := v.(JSON)
	Expect(body).NotTo(BeNil())
	Expect(body).NotTo(HaveKey("data"), "gift order verification answers flat: no data member")
	return body
}

// verifySettled verifies an order until it is no longer PROCESSING, at most
// the profile's giftCards.verifyAttempts times, verifyInterval apart: the
// document lets reconciliation complete on a later call. It returns the last
// answer, schema-checked; an order still PROCESSING then is no verdict.
func verifySettled(ctx context.Context, c *client.Client, reference string) JSON {
	GinkgoHelper()
	g := Profile().GiftCards
	var body JSON
	for i := 0; i < g.VerifyAttempts; i++ {
		if i > 0 {
			select {
			case <-ctx.Done():
				HarnessError("interrupted while re-verifying a PROCESSING gift order")
			case <-time.After(Timeouts().GiftVerifyInterval):
			}
		}
		body = expectVerifiedOrder(verifyGift(ctx, c, reference))
		if body["orderStatus"] != "PROCESSING" {
			return body
		}
	}
	// Reconciliation did not complete within the profile's bound (how long
	// it takes is not shown): no verdict on what the settled order shows.
	NoVerdict(fmt.Sprintf("the gift order is still PROCESSING after %d verifies %s apart (giftCards.verifyAttempts, verifyInterval)", g.VerifyAttempts, Timeouts().GiftVerifyInterval))
	return body
}

// expectGiftNotFound asserts the gift 404 variant and returns the body.
func expectGiftNotFound(resp *client.Response) JSON {
	GinkgoHelper()
	ExpectStatus(resp, http.StatusNotFound)
	v := ExpectSchema(resp, schemas.GiftNotFound)
	body, _ := v.(JSON)
	ExpectStatusCodeField(body, http.StatusNotFound)
	ExpectReasonPhrase(body, http.StatusNotFound)
	return body
}

// giftQuoteQuery is the gift quote query for the profile's product and face value.
func giftQuoteQuery() url.Values { return api.GiftQuoteQuery(Profile()) }

// ngnBalance reads the primary merchant's test NGN balance via the controls.
func ngnBalance(ctx context.Context) Money {
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

// ---------------------------------------------------------------- controls

// transact runs a simulated card transaction through the controls.
func transact(ctx context.Context, cardID string, amount Money) controls.Transaction {
	GinkgoHelper()
	t, err := Controls().Transact(ctx, cardID, amount.JSON())
	if err != nil {
		HarnessError("sandbox control transactions: %v", err)
	}
	return t
}

// expectApproved asserts a transaction of amount is approved and the card's
// balance (fresh GET) falls by it.
func expectApproved(ctx context.Context, c Card, amount Money, why string) Card {
	GinkgoHelper()
	before := GetCard(ctx, c.ID)
	t := transact(ctx, c.ID, amount)
	Expect(t.Approved).To(BeTrue(), "a transaction of %s should be approved: %s (decline reason %v)", amount, why, derefStr(t.DeclineReason))
	after := GetCard(ctx, c.ID)
	Expect(after.Balance).To(EqualMoney(before.Balance.Sub(amount)), "an approved transaction of %s lowers the balance at once (%s → %s)", amount, before.Balance, after.Balance)
	return after
}

// expectCardDebited asserts a card's balance fell from before to after by
// what a withdrawal of amount may take from it (cards.withdrawCardDebit:
// the amount, or the amount and the withdrawalFee fee; the fee's side is
// not shown); unchecked, it fell.
func expectCardDebited(before, after, amount, fee Money, what string) {
	GinkgoHelper()
	debit := before.Sub(after)
	Expect(debit.Cmp(M("0"))).To(BeNumerically(">", 0), "%s: %s after a withdrawal of %s from %s", what, after, amount, before)
	ExpectAmountOneOf(debit, WithdrawalCardDebits(amount, fee), what+": the card's debit for a withdrawal of "+amount.String(), "cards.withdrawCardDebit")
}

// expectDeclined asserts a transaction of amount is declined and the card's
// balance (fresh GET) is unchanged.
func expectDeclined(ctx context.Context, c Card, amount Money, why string) Card {
	GinkgoHelper()
	before := GetCard(ctx, c.ID)
	t := transact(ctx, c.ID, amount)
	Expect(t.Approved).To(BeFalse(), "a transaction of %s should be declined: %s", amount, why)
	after := GetCard(ctx, c.ID)
	Expect(after.Balance).To(EqualMoney(before.Balance), "a declined transaction must not change the balance")
	return after
}

func derefStr(s *string) string {
	if s == nil {
		return "<none>"
	}
	return *s
}

// setLimits PUTs spend limits and asserts the answer echoes them.
func setLimits(ctx context.Context, id string, limits map[string]Money) JSON {
	GinkgoHelper()
	body := JSON{}
	for k, v := range limits {
		body[k] = v.JSON()
	}
	resp := Must(API().Put(ctx, cardURL(id, "/spend-limits"), body))
	d := Data(ExpectEnvelopeA(resp, schemas.SpendLimitsResponse))
	sl, _ := d["spendLimits"].(JSON)
	for k, v := range limits {
		Expect(ExpectMoney(sl[k], "spendLimits."+k)).To(EqualMoney(v), "spendLimits.%s echoes the value set", k)
	}
	return d
}

// advanceClock moves the sandbox clock (harness error on failure).
func advanceClock(ctx context.Context, seconds int64) controls.Clock {
	GinkgoHelper()
	c, err := Controls().AdvanceClock(ctx, seconds)
	if err != nil {
		HarnessError("sandbox control clock: %v", err)
	}
	return c
}

// numberString renders a decoded JSON value for messages.
func numberString(v any) string {
	if n, ok := v.(json.Number); ok {
		return n.String()
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// ageTimestamps moves time on far enough for a timestamp of the given
// precision (the smallest unit it writes: no precision is stated) to show a
// change, at least Timeouts().TimestampTick: the sandbox clock when the
// target offers it, else real time; a precision coarser than a minute
// without the clock is not waited out (not applicable).
func ageTimestamps(ctx context.Context, precision time.Duration) {
	GinkgoHelper()
	tick := max(Timeouts().TimestampTick, precision+precision/10)
	if Has(CapClock) {
		advanceClock(ctx, int64((tick+time.Second-1)/time.Second))
		return
	}
	if tick > 2*time.Minute {
		Skip(fmt.Sprintf("timestamps are written to the %s: a change would take that long to show, and the target offers no sandbox clock", precision))
	}
	select {
	case <-ctx.Done():
		HarnessError("interrupted while waiting for timestamps to age")
	case <-time.After(tick):
	}
}
