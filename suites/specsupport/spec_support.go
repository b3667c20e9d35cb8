package specsupport

// Helpers shared by the contact, webhook, quote, error, malformed
// request, isolation, rate-limit, transaction and model specs.

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/merchant-harness/mph/api"
	"github.com/merchant-harness/mph/client"
	"github.com/merchant-harness/mph/client/controls"
	"github.com/merchant-harness/mph/config"
	"github.com/merchant-harness/mph/schemas"
	. "github.com/merchant-harness/mph/suites/expect"
	"github.com/merchant-harness/mph/suites/fixtures"
	. "github.com/merchant-harness/mph/suites/framework"
)

// CardURL is the path of a card endpoint: /cards/{idOrRef}{suffix}.
func CardURL(idOrRef, suffix string) string { return "/cards/" + client.Seg(idOrRef) + suffix }

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

// TargetRefuses reports whether the profile says the target refuses the
// malformed input (errors.refuses.<input>); the document states the input's
// form but not that other forms are refused.
func TargetRefuses(input string) bool { return Profile().Errors.Refuses[input] }

// SkipUnlessRefuses skips the spec when the profile says the target accepts
// other forms of the input.
func SkipUnlessRefuses(input string) {
	GinkgoHelper()
	if !TargetRefuses(input) {
		Skip("the profile says the target does not refuse this (errors.refuses." + input + " is false); the document does not say that it must")
	}
}

// ExpectErrorWithPath is ExpectError plus the envelope's informational path
// naming the request path, where the error carries one (ExpectErrorPath).
func ExpectErrorWithPath(resp *client.Response, status int) JSON {
	GinkgoHelper()
	body := ExpectError(resp, status)
	ExpectErrorPath(resp, body)
	return body
}

// errorEnvelopeMembers are the members of the error envelope's table; the
// document shows one error (the gift order 404) with only statusCode,
// message and error, so status, timestamp and path are read where given,
// and required only under the profile's strict.errorEnvelopeComplete.
var errorEnvelopeMembers = []string{"status", "statusCode", "message", "error", "timestamp", "path"}

// ExpectErrorComplete asserts, under strict.errorEnvelopeComplete, that an
// error carries every member of the envelope (the schema requires the
// three the document always shows).
func ExpectErrorComplete(body JSON) {
	GinkgoHelper()
	if !Profile().Strict.ErrorEnvelopeComplete {
		return
	}
	for _, k := range errorEnvelopeMembers {
		Expect(body).To(HaveKey(k), "the error envelope carries %s (profile strict.errorEnvelopeComplete)", k)
	}
}

// ExpectErrorPath checks an error's echoed path where it carries one (under
// strict.errorEnvelopeComplete it must): "path | string | request path";
// "the path value is informational".
func ExpectErrorPath(resp *client.Response, body JSON) {
	GinkgoHelper()
	if _, given := body["path"]; !given && !Profile().Strict.ErrorEnvelopeComplete {
		return
	}
	ExpectEchoedPath(resp, body)
}

// ActiveCard returns c ACTIVE: the state a card starts in is not shown (the
// states table shows the transitions only), so a spec that needs an ACTIVE
// card unfreezes one issued FROZEN.
func ActiveCard(ctx context.Context, c fixtures.Card) fixtures.Card {
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

// EmptyEnumRefusal asserts the refusal of "" for a member whose values the
// document lists: a missing value (400, payload validation) or a value
// outside the set (the profile's errors.status.invalidValue, else any 4xx:
// "an invalid status value): not shown"); either way the error envelope.
func EmptyEnumRefusal(resp *client.Response) JSON {
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

// CardEndpoint is one endpoint addressing a card by id or reference.
type CardEndpoint struct {
	Name   string
	Req    string // requirement of the endpoint (for messages)
	Method string
	Suffix string
	Body   func() any
}

// CardEndpoints are the endpoints of the table (api.Endpoints) whose path
// names a card, each with its valid sample body; a change it makes freezes
// the card (the specs addressing another merchant's or no card look for
// changes).
func CardEndpoints() []CardEndpoint {
	var out []CardEndpoint
	for _, e := range api.Endpoints(nil) {
		if len(e.Params) != 1 || e.Params[0].Of != api.ResCard {
			continue
		}
		ce := CardEndpoint{Name: e.Key(), Req: e.Requirement, Method: e.Method, Suffix: strings.TrimPrefix(e.Template, "/cards/{id}")}
		if b := e.Body; b != nil {
			ce.Body = func() any {
				return b.Sample(api.SampleInput{Profile: Profile(), Ref: fixtures.Ref("x"), Status: "FROZEN"})
			}
		}
		out = append(out, ce)
	}
	return out
}

// CardEndpointEntries is a table's entries of one rule on every card
// endpoint of the table (CardEndpoints), in its order, but those skip names:
// "on <endpoint>", with the endpoint as its row, its stable ID from ids and
// the arguments args gives it (its requirements, needs). An endpoint the
// table gains without an ID in ids, or an ID naming no endpoint, stops the
// tree's construction: no card endpoint goes unchecked by omission.
func CardEndpointEntries(ids map[string]SpecID, skip []string, args func(CardEndpoint) []any) []any {
	var out []any
	seen := map[string]bool{}
	for _, e := range CardEndpoints() {
		seen[e.Name] = true
		if slices.Contains(skip, e.Name) {
			continue
		}
		id, ok := ids[e.Name]
		if !ok {
			panic(fmt.Sprintf("card endpoint %s has no spec ID in this table: give it one", e.Name))
		}
		out = append(out, ConformanceEntry("on "+e.Name, id, e, args(e)...))
	}
	for name := range ids {
		if !seen[name] || slices.Contains(skip, name) {
			panic(fmt.Sprintf("spec ID %s names %s, which is no card endpoint of this table", ids[name], name))
		}
	}
	return out
}

func (e CardEndpoint) Request(idOrRef string) client.Request {
	r := client.Request{Method: e.Method, Path: CardURL(idOrRef, e.Suffix)}
	if e.Body != nil {
		r.Body = e.Body()
	}
	return r
}

// ---------------------------------------------------------------- controls

// Transact runs a simulated card transaction through the controls.
func Transact(ctx context.Context, cardID string, amount Money) controls.Transaction {
	GinkgoHelper()
	t, err := Controls().Transact(ctx, cardID, amount.JSON())
	if err != nil {
		HarnessError("sandbox control transactions: %v", err)
	}
	return t
}

// ExpectApproved asserts a transaction of amount is approved and the card's
// balance (fresh GET) falls by it.
func ExpectApproved(ctx context.Context, c fixtures.Card, amount Money, why string) fixtures.Card {
	GinkgoHelper()
	before := fixtures.GetCard(ctx, c.ID)
	t := Transact(ctx, c.ID, amount)
	Expect(t.Approved).To(BeTrue(), "a transaction of %s should be approved: %s (decline reason %v)", amount, why, DerefStr(t.DeclineReason))
	after := fixtures.GetCard(ctx, c.ID)
	Expect(after.Balance).To(EqualMoney(before.Balance.Sub(amount)), "an approved transaction of %s lowers the balance at once (%s → %s)", amount, before.Balance, after.Balance)
	return after
}

// ExpectCardDebited asserts a card's balance fell from before to after by
// what a withdrawal of amount may take from it (cards.withdrawCardDebit:
// the amount, or the amount and the withdrawalFee fee; the fee's side is
// not shown); unchecked, it fell.
func ExpectCardDebited(before, after, amount, fee Money, what string) {
	GinkgoHelper()
	debit := before.Sub(after)
	Expect(debit.Cmp(M("0"))).To(BeNumerically(">", 0), "%s: %s after a withdrawal of %s from %s", what, after, amount, before)
	ExpectAmountOneOf(debit, WithdrawalCardDebits(amount, fee), what+": the card's debit for a withdrawal of "+amount.String(), "cards.withdrawCardDebit")
}

// ExpectDeclined asserts a transaction of amount is declined and the card's
// balance (fresh GET) is unchanged.
func ExpectDeclined(ctx context.Context, c fixtures.Card, amount Money, why string) fixtures.Card {
	GinkgoHelper()
	before := fixtures.GetCard(ctx, c.ID)
	t := Transact(ctx, c.ID, amount)
	Expect(t.Approved).To(BeFalse(), "a transaction of %s should be declined: %s", amount, why)
	after := fixtures.GetCard(ctx, c.ID)
	Expect(after.Balance).To(EqualMoney(before.Balance), "a declined transaction must not change the balance")
	return after
}

func DerefStr(s *string) string {
	if s == nil {
		return "<none>"
	}
	return *s
}

// SetLimits PUTs spend limits and asserts the answer echoes them.
func SetLimits(ctx context.Context, id string, limits map[string]Money) JSON {
	GinkgoHelper()
	body := JSON{}
	for k, v := range limits {
		body[k] = v.JSON()
	}
	resp := Must(API().Put(ctx, CardURL(id, "/spend-limits"), body))
	d := Data(ExpectEnvelopeA(resp, schemas.SpendLimitsResponse))
	sl, _ := d["spendLimits"].(JSON)
	for k, v := range limits {
		Expect(ExpectMoney(sl[k], "spendLimits."+k)).To(EqualMoney(v), "spendLimits.%s echoes the value set", k)
	}
	return d
}

// AdvanceClock moves the sandbox clock (harness error on failure).
func AdvanceClock(ctx context.Context, seconds int64) controls.Clock {
	GinkgoHelper()
	c, err := Controls().AdvanceClock(ctx, seconds)
	if err != nil {
		HarnessError("sandbox control clock: %v", err)
	}
	return c
}

// NumberString renders a decoded JSON value for messages.
func NumberString(v any) string {
	if n, ok := v.(json.Number); ok {
		return n.String()
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// AgeTimestamps moves time on far enough for a timestamp of the given
// precision (the smallest unit it writes: no precision is stated) to show a
// change, at least Timeouts().TimestampTick: the sandbox clock when the
// target offers it, else real time; a precision coarser than a minute
// without the clock is not waited out (not applicable).
func AgeTimestamps(ctx context.Context, precision time.Duration) {
	GinkgoHelper()
	tick := max(Timeouts().TimestampTick, precision+precision/10)
	if Has(CapClock) {
		AdvanceClock(ctx, int64((tick+time.Second-1)/time.Second))
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

// ---------------------------------------------------------------- tokens, cards, withdrawals

// TokenFor exchanges credentials through the raw client and returns the
// answer (schema-checked by the caller).
func TokenFor(ctx context.Context, c config.Credentials) *client.Response {
	return Must(Anonymous().RawAuth().Post(ctx, client.TokenPath, client.TokenBody{MerchantID: c.MerchantID, SecretKey: c.SecretKey}))
}

// FreshToken obtains a new token for the primary credentials (a harness
// error if it cannot).
func FreshToken(ctx context.Context) string {
	GinkgoHelper()
	resp := TokenFor(ctx, Cfg().Primary)
	if resp.Status != http.StatusOK {
		HarnessError("token exchange for the primary merchant answered HTTP %d", resp.Status)
	}
	tok, _ := Data(resp.Map())["accessToken"].(string)
	if tok == "" {
		HarnessError("token exchange answered no accessToken")
	}
	return tok
}

// IDs are the cards' ids.
func IDs(cards []fixtures.Card) []string {
	out := make([]string, len(cards))
	for i, c := range cards {
		out[i] = c.ID
	}
	return out
}

// Withdraw posts a withdrawal of amount (nil: no amount member) from the card.
func Withdraw(ctx context.Context, id string, amount any) *client.Response {
	GinkgoHelper()
	body := JSON{}
	if amount != nil {
		body["amount"] = amount
	}
	return Must(API().Post(ctx, "/cards/"+client.Seg(id)+"/withdraw", body))
}

// WithdrawOK asserts a successful withdrawal and returns the answer's card.
func WithdrawOK(ctx context.Context, id string, amount Money) fixtures.Card {
	GinkgoHelper()
	d := Data(ExpectEnvelopeA(Withdraw(ctx, id, amount.JSON()), schemas.WithdrawResponse))
	_, isStr := d["message"].(string)
	Expect(isStr).To(BeTrue(), "data.message is a string")
	c, _ := d["card"].(JSON)
	Expect(c).NotTo(BeNil(), "data.card")
	return fixtures.CardFrom(c)
}

// ContainsValue reports whether a string value s appears anywhere in doc.
func ContainsValue(doc any, s string) bool {
	switch x := doc.(type) {
	case string:
		return x == s
	case JSON:
		for _, v := range x {
			if ContainsValue(v, s) {
				return true
			}
		}
	case []any:
		for _, v := range x {
			if ContainsValue(v, s) {
				return true
			}
		}
	}
	return false
}
