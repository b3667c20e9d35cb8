package funds

import (
	"context"
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	"pgregory.net/rapid"

	"github.com/merchant-harness/mph/api"
	"github.com/merchant-harness/mph/client"
	"github.com/merchant-harness/mph/client/controls"
	"github.com/merchant-harness/mph/redact"
	"github.com/merchant-harness/mph/schemas"
	. "github.com/merchant-harness/mph/suites/expect"
	"github.com/merchant-harness/mph/suites/fixtures"
	. "github.com/merchant-harness/mph/suites/framework"
	. "github.com/merchant-harness/mph/suites/specsupport"
)

// Model-based spec: rapid drives random sequences of issue / withdraw /
// freeze / unfreeze / set limits / transactions against a reference model of
// the cards' balances and statuses, their spend totals and the merchant's
// vault, checks every answer against the model and shrinks a failure to a
// minimal sequence, which the failure message prints.

// ---------------------------------------------------------------- the model

var limitNames = []string{"transactionLimit", "dailyLimit", "monthlyLimit", "allTimeLimit"}

type modelCard struct {
	id       string
	balance  Money
	status   string
	unfrozen bool             // set ACTIVE again after FROZEN
	limits   map[string]Money // absent: no limit set
	spent    Money            // approved total; the clock does not move during a run, so it is the day's, month's and lifetime total
}

type cardModel struct {
	vault         Money
	creationFee   Money
	fundFee       Money
	withdrawalFee Money
	minFunding    Money
	customer      string // a proven customer with room for the case's cards
	cards         []*modelCard
}

// modelRun is one rapid test case against the target.
type modelRun struct {
	ctx      context.Context
	t        *rapid.T
	m        cardModel
	steps    []string
	harness  *error
	api      *client.Client
	controls *controls.Client
	rule     string  // the requirement the current check proves
	failed   *string // the rule of the last failure (rapid replays the shrunk case last)
}

// at names the requirement the checks that follow prove.
func (r *modelRun) at(rule string) { r.rule = rule }

func (r *modelRun) failf(format string, args ...any) {
	*r.failed = r.rule
	r.t.Fatalf("after the steps\n  %s\n%s", strings.Join(r.steps, "\n  "), fmt.Sprintf(format, args...))
}

func (r *modelRun) harnessf(format string, args ...any) {
	err := fmt.Errorf(format, args...)
	*r.harness = err
	r.t.Fatalf("harness error: %v", err)
}

func (r *modelRun) do(req client.Request) *client.Response {
	resp, err := r.api.Do(r.ctx, req)
	if err != nil {
		r.harnessf("%s %s: %v", req.Method, req.Path, err)
	}
	return resp
}

// decode validates resp against schema and decodes it.
func (r *modelRun) decode(resp *client.Response, schema, what string) JSON {
	if ct := resp.Header.Get("Content-Type"); !IsJSONContentType(ct) {
		r.failf("%s: the answer is labelled Content-Type %q, want application/json (all bodies are JSON)", what, ct)
	}
	if err := schemas.Validate(schema, resp.Body); err != nil {
		r.failf("%s: the answer does not match %s: %v", what, schema, err)
	}
	var body JSON
	if err := resp.JSON(&body); err != nil {
		r.failf("%s: the answer is not a JSON object: %v", what, err)
	}
	return body
}

func (r *modelRun) money(v any, what string) Money {
	m, ok := MoneyOf(v)
	if !ok {
		r.failf("%s is not a number: %v", what, v)
	}
	return m
}

// expectRefused checks a 4xx error envelope.
func (r *modelRun) expectRefused(resp *client.Response, what string, statuses ...int) {
	if resp.Status < 400 || resp.Status > 499 || (len(statuses) > 0 && !containsInt(statuses, resp.Status)) {
		r.failf("%s: want a refusal %v, got HTTP %d: %s", what, statuses, resp.Status, truncateBody(resp.Body))
	}
	body := r.decode(resp, schemas.ErrorEnvelope, what)
	if phrase, _ := body["error"].(string); !schemas.NumberIs(body["statusCode"], int64(resp.Status)) || !api.IsReasonPhrase(resp.Status, phrase) {
		r.failf("%s: statusCode %v / error %v do not match HTTP %d", what, body["statusCode"], body["error"], resp.Status)
	}
}

func containsInt(xs []int, x int) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

// truncateBody redacts the whole body, then cuts it: a cut first could
// leave a fragment of a secret that no longer matches any pattern.
func truncateBody(b []byte) string {
	s := string(redact.JSON(b))
	if len(s) > 300 {
		return s[:300] + "..."
	}
	return s
}

// readVault reads the vault: the balances control's (the vault itself),
// else the configuration's once it shows want within cards.listingFreshness
// (its vaultBalance is not documented as real-time).
func (r *modelRun) readVault(what string, want Money) Money {
	if Has(CapBalances) {
		b, err := r.controls.Balances(r.ctx, Cfg().Primary.MerchantID, Environment())
		if err != nil {
			r.harnessf("sandbox control balances: %v", err)
		}
		return r.money(b.VaultBalance, "the vault (sandbox balances control)")
	}
	deadline := time.Now().Add(Timeouts().ListingFreshness)
	for {
		resp := r.do(client.Request{Method: http.MethodGet, Path: "/cards/config"})
		if resp.Status != http.StatusOK {
			r.failf("%s: GET /cards/config answered HTTP %d", what, resp.Status)
		}
		got := r.money(Data(r.decode(resp, schemas.ConfigResponse, what))["vaultBalance"], "vaultBalance")
		if got.Eq(want) || !time.Now().Before(deadline) {
			return got
		}
		time.Sleep(Timeouts().FreshPoll)
	}
}

// checkCard compares a fresh GET with the model: the balance proves
// balanceRule, the status statusRule.
func (r *modelRun) checkCard(c *modelCard, what, balanceRule, statusRule string) {
	r.at(balanceRule)
	got := r.readCard(c.id, what)
	if !got.Balance.Eq(c.balance) {
		r.failf("%s: card %s balance is %s, the model says %s", what, c.id, got.Balance, c.balance)
	}
	if r.at(statusRule); got.Status != c.status {
		r.failf("%s: card %s status is %s, the model says %s", what, c.id, got.Status, c.status)
	}
}

// checkVault compares the vault with the model, proving rule.
func (r *modelRun) checkVault(what, rule string) {
	r.at(rule)
	if got := r.readVault(what, r.m.vault); !got.Eq(r.m.vault) {
		r.failf("%s: vaultBalance is %s, the model says %s", what, got, r.m.vault)
	}
}

// readCard reads a card afresh (balance and status).
func (r *modelRun) readCard(id, what string) fixtures.Card {
	resp := r.do(client.Request{Method: http.MethodGet, Path: CardURL(id, "")})
	if resp.Status != http.StatusOK {
		r.failf("%s: GET /cards/%s answered HTTP %d", what, id, resp.Status)
	}
	return fixtures.CardFrom(Data(r.decode(resp, schemas.CardResponse, what)))
}

// oneOf reports whether m is one of the allowed amounts (nil: any).
func oneOf(m Money, allowed []Money) bool {
	if allowed == nil {
		return true
	}
	for _, a := range allowed {
		if m.Eq(a) {
			return true
		}
	}
	return false
}

func cents(n int) Money { return M(fmt.Sprintf("%d.%02d", n/100, n%100)) }

// run draws and executes one sequence.
func (r *modelRun) run() {
	// A customer with room for a card, proven approved before the vault is
	// read (it may be issued a card first).
	r.m.customer = fixtures.CustomerFor(r.ctx, 1)
	r.at("ISSUE-04")
	cfg := r.do(client.Request{Method: http.MethodGet, Path: "/cards/config"})
	if cfg.Status != http.StatusOK {
		r.harnessf("GET /cards/config answered HTTP %d", cfg.Status)
	}
	d := Data(r.decode(cfg, schemas.ConfigResponse, "reading the configuration"))
	r.m.creationFee = r.money(d["creationFee"], "creationFee")
	r.m.fundFee = r.money(d["fundFee"], "fundFee")
	r.m.withdrawalFee = r.money(d["withdrawalFee"], "withdrawalFee")
	r.m.minFunding = r.money(d["minFunding"], "minFunding")
	r.m.vault = r.readVault("reading the vault", r.money(d["vaultBalance"], "vaultBalance"))

	r.issue(cents(rapid.IntRange(100, 3000).Draw(r.t, "first card funding (cents)")))
	if r.at("ISSUE-06"); len(r.m.cards) == 0 {
		r.failf("the first card was not issued")
	}
	n := rapid.IntRange(1, modelMaxSteps).Draw(r.t, "steps")
	ops := []string{"issue", "withdraw", "freeze", "unfreeze", "limits", "transaction", "transaction", "transaction"}
	for s := 0; s < n; s++ {
		op := rapid.SampledFrom(ops).Draw(r.t, fmt.Sprintf("step %d", s+1))
		if op == "issue" && len(r.m.cards) >= modelMaxCards {
			op = "transaction"
		}
		i := 0
		if op != "issue" {
			i = rapid.IntRange(0, len(r.m.cards)-1).Draw(r.t, "card")
		}
		switch op {
		case "issue":
			r.issue(cents(nearBoundary(90, 3000, 99, 100).Draw(r.t, "funding (cents)")))
		case "withdraw":
			r.withdraw(i, cents(nearBoundary(5, 3000, 9, 10).Draw(r.t, "withdrawal (cents)")))
		case "freeze":
			r.setStatus(i, "FROZEN")
		case "unfreeze":
			r.setStatus(i, "ACTIVE")
		case "limits":
			// All four, never decreasing from transaction to all-time, at
			// most 40.00: valid under any plausible rule (ordering, a
			// maximum), and the same set whether a PUT merges or replaces
			// (not shown). The daily limit binds first, the others have
			// specs of their own.
			vals := make([]int, len(limitNames))
			for j, k := range limitNames {
				vals[j] = rapid.IntRange(50, 4000).Draw(r.t, k+" (cents)")
			}
			sort.Ints(vals)
			limits := map[string]Money{}
			for j, k := range limitNames {
				limits[k] = cents(vals[j])
			}
			r.setLimits(i, limits)
		case "transaction":
			r.transact(i, r.transactionAmount(r.m.cards[i]))
		}
	}
}

// modelRules are the rules the model checks, each an entry of the table
// below with the text it reads as. The spend limits are one entry: random
// sequences decline at every limit, but which limit binds first is chance
// (each limit has a targeted spec of its own); a failure names its rule.
var modelRules = []struct {
	id   SpecID
	text string
	reqs []string
}{
	{"model.issuance-minimum", "refuses an issuance below minFunding with 400", []string{"ISSUE-03"}},
	{"model.issuance-vault-debit", "debits the vault by creationFee + amount per issuance", []string{"ISSUE-04"}},
	{"model.issuance-active-funded", "issues cards ACTIVE or FROZEN (the status a card starts in is not stated) funded with the amount given", []string{"ISSUE-06"}},
	{"model.withdraw-minimum", "refuses a withdrawal below 0.10 with 400", []string{"WITHDRAW-03"}},
	{"model.withdraw-balance", "lowers the card balance by each withdrawal (and its fee where the card pays it)", []string{"WITHDRAW-04"}},
	{"model.withdraw-vault-credit", "sweeps each withdrawal back to the vault", []string{"WITHDRAW-05"}},
	{"model.withdraw-above-balance", "refuses a withdrawal above the balance, keeping it", []string{"WITHDRAW-07"}},
	{"model.freeze-persisted", "freezes ACTIVE cards, persisted", []string{"STATUS-03"}},
	{"model.unfreeze-persisted", "unfreezes FROZEN cards, persisted", []string{"STATUS-04"}},
	{"model.status-keeps-balance", "keeps a card's balance when its status changes", []string{"STATUS-05"}},
	{"model.spend-limits-echo", "echoes the spend limits set and keeps the card otherwise unchanged", []string{"LIMITS-02"}},
	{"model.frozen-declines", "declines the transactions of FROZEN cards", []string{"TXN-01"}},
	{"model.frozen-keeps-balance", "keeps a FROZEN card's balance through declined transactions", []string{"TXN-02"}},
	{"model.unfrozen-approves", "approves transactions again once a card is unfrozen", []string{"TXN-03"}},
	{"model.spend-limits-decline", "declines transactions above each spend limit set, single or cumulative, and approves those within", []string{"TXN-04", "TXN-05", "TXN-07", "TXN-09"}},
	{"model.transactions-balance", "lowers the balance by approved transactions, seen at once by GET", []string{"TXN-10"}},
}

// modelOutcome is one model-based run: whether it failed, the requirement
// of its shrunk failing case, and rapid's output.
type modelOutcome struct {
	failed     bool
	rule       string
	out        string
	harnessErr error
}

func runModel(ctx SpecContext) modelOutcome {
	if Has(CapRateLimitCtl) {
		// Hundreds of writes in a few seconds: lift the write group for the run.
		saved, err := Controls().RateLimits(ctx)
		if err == nil {
			DeferCleanup(func(ctx SpecContext) { _ = Controls().SetRateLimits(ctx, saved) })
			_ = Controls().SetRateLimits(ctx, map[string]controls.RateLimit{"write": {Rate: 0}, "read": {Rate: 0}})
		}
	}
	var o modelOutcome
	o.failed, o.out = runRapid(CurrentSpecReport().FullText(), func(t *rapid.T) {
		// Only the last case's exchanges (rapid replays the minimal
		// failing case last) explain a failure; keeping every case's
		// would swell the report to megabytes.
		ResetExchanges()
		r := &modelRun{ctx: ctx, t: t, harness: &o.harnessErr, failed: &o.rule, api: API(), controls: Controls()}
		r.run()
	})
	GinkgoWriter.Print(o.out)
	return o
}

// modelEntries are the table's entries: each fails when the model's shrunk
// failing case broke its rule (or a rule no entry names).
func modelEntries() []any {
	owner := map[string]int{}
	for i, m := range modelRules {
		for _, req := range m.reqs {
			owner[req] = i
		}
	}
	out := make([]any, 0, len(modelRules))
	for i, m := range modelRules {
		i := i
		out = append(out, ConformanceEntry(m.text, m.id, func(o modelOutcome) {
			if o.harnessErr != nil {
				HarnessError("model-based check: %v\n%s", o.harnessErr, o.out)
			}
			if at, known := owner[o.rule]; o.failed && (at == i || !known) {
				Fail("the target disagrees with the reference model (" + o.rule + "); rapid's shrunk minimal sequence:\n" + o.out)
			}
		}, Reqs(m.reqs...)))
	}
	return out
}

// nearBoundary draws cents in [lo, hi], the boundary values given as often
// as all the others together: where off-by-one-cent faults show.
func nearBoundary(lo, hi int, boundary ...int) *rapid.Generator[int] {
	return rapid.OneOf(rapid.SampledFrom(boundary), rapid.IntRange(lo, hi))
}

// transactionAmount draws an amount for card c: any, or one at a limit set
// (exactly at it, one cent above or half of it; for a cumulative limit of
// what remains).
func (r *modelRun) transactionAmount(c *modelCard) Money {
	var atLimit []int
	for _, k := range limitNames {
		l, ok := c.limits[k]
		if !ok {
			continue
		}
		if k != "transactionLimit" {
			l = l.Sub(c.spent)
		}
		if n := centsOf(l); n > 0 {
			atLimit = append(atLimit, n, n+1, (n+1)/2) // half of it: the next one tests the total
		}
	}
	if len(atLimit) == 0 {
		return cents(rapid.IntRange(1, 2500).Draw(r.t, "transaction (cents)"))
	}
	return cents(nearBoundary(1, 2500, atLimit...).Draw(r.t, "transaction (cents)"))
}

// centsOf is m in cents (m has at most two decimals).
func centsOf(m Money) int {
	n, _ := strconv.Atoi(strings.Replace(m.String(), ".", "", 1))
	return n
}

var _ = Describe("Card model: random sequences agree with a reference model", func() {
	outcome := Shared(runModel)
	ConformanceTable("over random sequences of issue, withdraw, freeze, unfreeze, set limits and transactions",
		func(ctx SpecContext, rule func(modelOutcome)) { rule(outcome(ctx)) },
		append([]any{Destructive, Serial, Needs(CapTransactions)}, modelEntries()...)...,
	)
})
