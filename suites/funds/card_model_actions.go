package funds

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/merchant-harness/mph/client"
	"github.com/merchant-harness/mph/schemas"
	. "github.com/merchant-harness/mph/suites/expect"
	"github.com/merchant-harness/mph/suites/fixtures"
	. "github.com/merchant-harness/mph/suites/framework"
	. "github.com/merchant-harness/mph/suites/specsupport"
)

// The model spec's actions (card_model.go): each sends one request, checks
// the answer against the model and updates it.

func (r *modelRun) issue(amount Money) {
	step := fmt.Sprintf("issue a card funded with %s", amount)
	r.steps = append(r.steps, step)
	r.t.Log(step)
	r.customerWithRoom()
	body := fixtures.IssuanceBody(r.m.customer, fixtures.CardName(), amount, fixtures.Ref("model"))
	resp := r.do(client.Request{Method: http.MethodPost, Path: Profile().Issuance.Path, Body: body})
	total := amount.Add(r.m.creationFee)
	switch {
	case amount.Cmp(r.m.minFunding) < 0:
		r.at("ISSUE-03")
		r.expectRefused(resp, step+" (below minFunding "+r.m.minFunding.String()+")", http.StatusBadRequest)
	case total.Cmp(r.m.vault) > 0:
		r.at("ISSUE-04")
		r.expectRefused(resp, step+" (beyond the vault)", http.StatusBadRequest)
	default:
		r.at("ISSUE-06")
		if resp.Status != http.StatusOK && resp.Status != http.StatusCreated {
			r.failf("%s: HTTP %d: %s", step, resp.Status, truncateBody(resp.Body))
		}
		r.decode(resp, schemas.CardIssuanceResponse, step)
		// The issuance answer's shape is not shown: the card is read afresh.
		id, _ := IDString(fixtures.IssuedCard(resp)["id"])
		if id == "" {
			r.failf("%s: the answer carries no card id", step)
		}
		got := r.readCard(id, step)
		// The balance follows the profile (issuance.initialBalance; the
		// document only fixes the vault debit, creationFee + amount); the
		// status a card starts in is not stated.
		if allowed := InitialBalances(amount, r.m.fundFee); !oneOf(got.Balance, allowed) || (got.Status != "ACTIVE" && got.Status != "FROZEN") {
			r.failf("%s: the new card has balance %s and status %s, want one of %v (profile issuance.initialBalance %s) and ACTIVE or FROZEN", step, got.Balance, got.Status, allowed, Profile().Issuance.InitialBalance)
		}
		r.m.vault = r.m.vault.Sub(total)
		r.m.cards = append(r.m.cards, &modelCard{id: id, balance: got.Balance, status: got.Status, limits: map[string]Money{}})
	}
	r.checkVault(step, "ISSUE-04")
}

// customerWithRoom makes the case's customer one the pool gives room for
// one more card (testData.cardsPerCustomer); a new one may have been issued
// a card to prove it approved, so the vault is read again then.
func (r *modelRun) customerWithRoom() {
	if c := fixtures.CustomerFor(r.ctx, 1); c != r.m.customer {
		r.m.customer = c
		r.m.vault = r.readVault("after a new customer", r.m.vault)
	}
}

func (r *modelRun) withdraw(i int, amount Money) {
	c := r.m.cards[i]
	step := fmt.Sprintf("withdraw %s from card #%d (%s, balance %s)", amount, i, c.status, c.balance)
	r.steps = append(r.steps, step)
	r.t.Log(step)
	resp := r.do(client.Request{Method: http.MethodPost, Path: CardURL(c.id, "/withdraw"), Body: JSON{"amount": amount.JSON()}})
	debits := WithdrawalCardDebits(amount, r.m.withdrawalFee)
	// A card that pays the fee holds too little for amount + fee: refused,
	// or served with the fee taken elsewhere (the fee's side is not shown).
	feeShort := amount.Cmp(c.balance) <= 0 && amount.Add(r.m.withdrawalFee).Cmp(c.balance) > 0 && !oneOf(amount, debits)
	feeMaybe := amount.Cmp(c.balance) <= 0 && amount.Add(r.m.withdrawalFee).Cmp(c.balance) > 0 && (debits == nil || len(debits) > 1)
	switch {
	case c.status == "FROZEN" && resp.Status != http.StatusOK:
		r.at("WITHDRAW-07")
		// Whether a FROZEN card may be swept is not shown: any refusal,
		// whatever else is wrong with the amount (the order of checks is not shown).
		r.expectRefused(resp, step+" (the card is FROZEN)")
	case amount.Cmp(M("0.10")) < 0:
		r.at("WITHDRAW-03")
		r.expectRefused(resp, step+" (below the 0.10 minimum)", http.StatusBadRequest)
	case amount.Cmp(c.balance) > 0 || feeShort || feeMaybe && resp.Status != http.StatusOK:
		r.at("WITHDRAW-07")
		// Which error is not shown: the profile's status, else any 4xx.
		var st []int
		if v := Profile().Errors.Status["withdrawAboveBalance"]; v != 0 {
			st = []int{v}
		}
		r.expectRefused(resp, step+" (above the balance)", st...)
	default:
		r.withdrawn(c, amount, resp, step)
		return
	}
	r.checkCard(c, step, "WITHDRAW-04", "WITHDRAW-04")
	r.checkVault(step, "WITHDRAW-05")
}

// withdrawn checks a served withdrawal: the card falls by what the profile
// lets it take (cards.withdrawCardDebit), the vault rises by what it lets it
// credit (cards.withdrawVaultCredit); the model follows what was observed.
func (r *modelRun) withdrawn(c *modelCard, amount Money, resp *client.Response, step string) {
	r.at("WITHDRAW-04")
	if resp.Status != http.StatusOK {
		r.failf("%s: HTTP %d: %s", step, resp.Status, truncateBody(resp.Body))
	}
	d := Data(r.decode(resp, schemas.WithdrawResponse, step))
	card, _ := d["card"].(JSON)
	answered := fixtures.CardFrom(card).Balance
	fresh := r.readCard(c.id, step).Balance
	debit := c.balance.Sub(fresh)
	if debits := WithdrawalCardDebits(amount, r.m.withdrawalFee); !oneOf(debit, debits) || debit.Cmp(M("0")) <= 0 || !answered.Eq(fresh) {
		r.failf("%s: the card fell by %s (answer %s, fresh GET %s), want one of %v (profile cards.withdrawCardDebit %s)", step, debit, answered, fresh, debits, Profile().Cards.WithdrawCardDebit)
	}
	c.balance = fresh
	r.at("WITHDRAW-05")
	credits := WithdrawalVaultCredits(amount, r.m.withdrawalFee)
	want := r.m.vault.Add(amount)
	if len(credits) == 1 {
		want = r.m.vault.Add(credits[0])
	}
	got := r.readVault(step, want)
	if credit := got.Sub(r.m.vault); !oneOf(credit, credits) || credit.Cmp(M("0")) <= 0 {
		r.failf("%s: the vault rose by %s (%s → %s), want one of %v (profile cards.withdrawVaultCredit %s)", step, credit, r.m.vault, got, credits, Profile().Cards.WithdrawVaultCredit)
	}
	r.m.vault = got
}

func (r *modelRun) setStatus(i int, status string) {
	c := r.m.cards[i]
	step := fmt.Sprintf("set card #%d (%s) to %s", i, c.status, status)
	r.steps = append(r.steps, step)
	r.t.Log(step)
	rule := map[string]string{"FROZEN": "STATUS-03", "ACTIVE": "STATUS-04"}[status]
	r.at(rule)
	resp := r.do(client.Request{Method: http.MethodPatch, Path: CardURL(c.id, "/status"), Body: JSON{"status": status}})
	if same := Profile().Cards.SameStatus; status == c.status && same != "ok" && (resp.Status != http.StatusOK || same == "refused") {
		// Only ACTIVE <-> FROZEN is shown: the current status may be refused.
		r.expectRefused(resp, step+" (already "+status+")")
		r.checkCard(c, step, "STATUS-05", rule)
		return
	}
	if resp.Status != http.StatusOK {
		r.failf("%s: HTTP %d: %s", step, resp.Status, truncateBody(resp.Body))
	}
	d := Data(r.decode(resp, schemas.StatusResponse, step))
	card, _ := d["card"].(JSON)
	if got := fixtures.CardFrom(card).Status; got != status {
		r.failf("%s: the answer's card has status %s", step, got)
	}
	c.unfrozen = c.unfrozen || (c.status == "FROZEN" && status == "ACTIVE")
	c.status = status
	r.checkCard(c, step, "STATUS-05", rule)
}

func (r *modelRun) setLimits(i int, limits map[string]Money) {
	c := r.m.cards[i]
	parts := make([]string, 0, len(limits))
	body := JSON{}
	for _, k := range limitNames {
		if v, ok := limits[k]; ok {
			parts = append(parts, k+"="+v.String())
			body[k] = v.JSON()
		}
	}
	step := fmt.Sprintf("set limits of card #%d: %s", i, strings.Join(parts, ", "))
	r.steps = append(r.steps, step)
	r.t.Log(step)
	r.at("LIMITS-02")
	resp := r.do(client.Request{Method: http.MethodPut, Path: CardURL(c.id, "/spend-limits"), Body: body})
	if c.status == "FROZEN" && resp.Status != http.StatusOK {
		// Whether a FROZEN card's limits may change is not shown.
		r.expectRefused(resp, step+" (the card is FROZEN)")
		r.checkCard(c, step, "LIMITS-02", "LIMITS-02")
		return
	}
	if resp.Status != http.StatusOK {
		r.failf("%s: HTTP %d: %s", step, resp.Status, truncateBody(resp.Body))
	}
	d := Data(r.decode(resp, schemas.SpendLimitsResponse, step))
	sl, _ := d["spendLimits"].(JSON)
	for k, v := range limits {
		if got, ok := MoneyOf(sl[k]); !ok || !got.Eq(v) {
			r.failf("%s: spendLimits.%s is %v, want %s", step, k, sl[k], v)
		}
		c.limits[k] = v
	}
	r.checkCard(c, step, "LIMITS-02", "LIMITS-02")
}

func (r *modelRun) transact(i int, amount Money) {
	c := r.m.cards[i]
	step := fmt.Sprintf("transaction of %s on card #%d (%s, balance %s, spent %s, limits %v)", amount, i, c.status, c.balance, c.spent, c.limits)
	r.steps = append(r.steps, step)
	r.t.Log(step)
	want, why := true, "within balance and limits"
	after := c.spent.Add(amount)
	switch {
	case c.status != "ACTIVE":
		want, why = false, "the card is FROZEN"
	case amount.Cmp(c.balance) > 0:
		want, why = false, "above the balance"
	}
	if l, ok := c.limits["transactionLimit"]; want && ok && amount.Cmp(l) > 0 {
		want, why = false, "above transactionLimit"
	}
	for _, k := range []string{"dailyLimit", "monthlyLimit", "allTimeLimit"} {
		if l, ok := c.limits[k]; want && ok && after.Cmp(l) > 0 {
			want, why = false, "the cumulative total would exceed "+k
		}
	}
	tx, err := r.controls.Transact(r.ctx, c.id, amount.JSON())
	if err != nil {
		r.harnessf("sandbox control transactions: %v", err)
	}
	if r.at(decisionRule(c, amount, after, want, why)); tx.Approved != want {
		r.failf("%s: approved=%v, the model says %v (%s; decline reason %s)", step, tx.Approved, want, why, DerefStr(tx.DeclineReason))
	}
	balanceRule := "TXN-10"
	if want {
		c.balance = c.balance.Sub(amount)
		c.spent = after
	} else if c.status == "FROZEN" {
		balanceRule = "TXN-02"
	}
	r.checkCard(c, step, balanceRule, balanceRule)
}

// decisionRule is the requirement an approval decision proves: the rule
// that declines it, or, for an approval, the rule a wrong decline breaks.
func decisionRule(c *modelCard, amount, after Money, want bool, why string) string {
	byLimit := map[string]string{"transactionLimit": "TXN-04", "dailyLimit": "TXN-05", "monthlyLimit": "TXN-07", "allTimeLimit": "TXN-09"}
	switch {
	case why == "the card is FROZEN":
		return "TXN-01"
	case strings.HasPrefix(why, "above transactionLimit"):
		return "TXN-04"
	case strings.HasPrefix(why, "the cumulative total would exceed "):
		return byLimit[strings.TrimPrefix(why, "the cumulative total would exceed ")]
	case want && c.unfrozen:
		return "TXN-03"
	case want:
		// A wrong decline at exactly a limit breaks that limit's rule.
		for _, k := range limitNames {
			if l, ok := c.limits[k]; ok && (amount.Eq(l) || (k != "transactionLimit" && after.Eq(l))) {
				return byLimit[k]
			}
		}
	}
	return "TXN-10"
}
