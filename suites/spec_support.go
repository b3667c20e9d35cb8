package suites

// Helpers shared by the contact, webhook, quote, error, malformed
// request, isolation, rate-limit, transaction and model specs.

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/merchant-harness/mph/api"
	"github.com/merchant-harness/mph/client"
	"github.com/merchant-harness/mph/client/controls"
	"github.com/merchant-harness/mph/schemas"
	. "github.com/merchant-harness/mph/suites/expect"
	"github.com/merchant-harness/mph/suites/fixtures"
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

// ExpectRefusal asserts the refusal of a failure condition the document
// requires without saying which error; it is the framework's ExpectRefused
// (the profile's errors.status.<condition>, else any 4xx; a 401, 403 or 429
// it does not name is no verdict; always the error envelope).
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
// naming the request path, where the error carries one (expectErrorPath).
func ExpectErrorWithPath(resp *client.Response, status int) JSON {
	GinkgoHelper()
	body := ExpectError(resp, status)
	expectErrorPath(resp, body)
	return body
}

// errorEnvelopeMembers are the members of the error envelope's table; the
// document shows one error (the gift order 404) with only statusCode,
// message and error, so status, timestamp and path are read where given,
// and required only under the profile's strict.errorEnvelopeComplete.
var errorEnvelopeMembers = []string{"status", "statusCode", "message", "error", "timestamp", "path"}

// expectErrorComplete asserts, under strict.errorEnvelopeComplete, that an
// error carries every member of the envelope (the schema requires the
// three the document always shows).
func expectErrorComplete(body JSON) {
	GinkgoHelper()
	if !Profile().Strict.ErrorEnvelopeComplete {
		return
	}
	for _, k := range errorEnvelopeMembers {
		Expect(body).To(HaveKey(k), "the error envelope carries %s (profile strict.errorEnvelopeComplete)", k)
	}
}

// expectErrorPath checks an error's echoed path where it carries one (under
// strict.errorEnvelopeComplete it must): "path | string | request path";
// "the path value is informational".
func expectErrorPath(resp *client.Response, body JSON) {
	GinkgoHelper()
	if _, given := body["path"]; !given && !Profile().Strict.ErrorEnvelopeComplete {
		return
	}
	ExpectEchoedPath(resp, body)
}

// activeCard returns c ACTIVE: the state a card starts in is not shown (the
// states table shows the transitions only), so a spec that needs an ACTIVE
// card unfreezes one issued FROZEN.
func activeCard(ctx context.Context, c fixtures.Card) fixtures.Card {
	GinkgoHelper()
	if c.Status == "ACTIVE" {
		return c
	}
	a := fixtures.SetCardStatus(ctx, c.ID, "ACTIVE")
	c.Status = "ACTIVE"
	if a.ID != "" {
		c.Balance, c.UpdatedAt = a.Balance, a.UpdatedAt
	}
	return c
}

// emptyEnumRefusal asserts the refusal of "" for a member whose values the
// document lists: a missing value (400, payload validation) or a value
// outside the set (the profile's errors.status.invalidValue, else any 4xx:
// "an invalid status value): not shown"); either way the error envelope.
func emptyEnumRefusal(resp *client.Response) JSON {
	GinkgoHelper()
	if resp.Status == http.StatusBadRequest {
		return ExpectError(resp, http.StatusBadRequest)
	}
	return ExpectRefused(resp, "invalidValue")
}

// ExpectNoCardData asserts that a (refused) answer leaks nothing of card c:
// neither its masked PAN nor its name nor a card object.
func ExpectNoCardData(resp *client.Response, c fixtures.Card) {
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
			ce.body = func() any {
				return b.Sample(api.SampleInput{Profile: Profile(), Ref: fixtures.Ref("x"), Status: "FROZEN"})
			}
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
func expectApproved(ctx context.Context, c fixtures.Card, amount Money, why string) fixtures.Card {
	GinkgoHelper()
	before := fixtures.GetCard(ctx, c.ID)
	t := transact(ctx, c.ID, amount)
	Expect(t.Approved).To(BeTrue(), "a transaction of %s should be approved: %s (decline reason %v)", amount, why, derefStr(t.DeclineReason))
	after := fixtures.GetCard(ctx, c.ID)
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
func expectDeclined(ctx context.Context, c fixtures.Card, amount Money, why string) fixtures.Card {
	GinkgoHelper()
	before := fixtures.GetCard(ctx, c.ID)
	t := transact(ctx, c.ID, amount)
	Expect(t.Approved).To(BeFalse(), "a transaction of %s should be declined: %s", amount, why)
	after := fixtures.GetCard(ctx, c.ID)
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
