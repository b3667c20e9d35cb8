package funds

import (
	"fmt"
	"net/http"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/merchant-harness/mph/schemas"
	. "github.com/merchant-harness/mph/suites/expect"
	"github.com/merchant-harness/mph/suites/fixtures"
	. "github.com/merchant-harness/mph/suites/framework"
	. "github.com/merchant-harness/mph/suites/specsupport"
)

// parseTS parses an ISO 8601 timestamp, returning its precision too.
func parseTS(s string) schemas.Timestamp {
	GinkgoHelper()
	ts, err := schemas.ParseISO8601(s)
	Expect(err).NotTo(HaveOccurred(), "timestamp %q is not ISO 8601", s)
	return ts
}

// withdrawal is one withdrawal of 1.37 from a card issued with 5.00: its
// answer read once and the card read afresh afterwards.
type withdrawal struct {
	issued fixtures.Card
	amount Money
	fee    Money
	answer Answer
	fresh  fixtures.Card
}

func withdrawOnce(ctx SpecContext) withdrawal {
	c := fixtures.NewCard(ctx, fixtures.WithAmount(M("5.00")))
	amount := M("1.37")
	fee := fixtures.GetConfig(ctx).WithdrawalFee
	a := ReadAnswer(Withdraw(ctx, c.ID, amount.JSON()), schemas.WithdrawResponse)
	return withdrawal{issued: c, amount: amount, fee: fee, answer: a, fresh: fixtures.GetCard(ctx, c.ID)}
}

var _ = Describe("Withdrawal: POST /cards/{id}/withdraw", func() {
	withdrawalTable()
	withdrawalEffectSpecs()
	withdrawalRefusalSpecs()
})

func withdrawalTable() {
	once := Shared(withdrawOnce)
	ConformanceTable("withdraws from a card",
		func(ctx SpecContext, rule func(withdrawal)) { rule(once(ctx)) },
		Destructive,
		ConformanceEntry("answers 200 in Envelope A whose data is a message and the card", SpecID("withdraw.answers-200-envelope-data"), func(w withdrawal) {
			w.answer.ExpectEnvelopeA(schemas.WithdrawResponse, nil)
			d := Data(w.answer.Body)
			_, isStr := d["message"].(string)
			Expect(isStr).To(BeTrue(), "data.message is a string")
			c, _ := d["card"].(JSON)
			Expect(c).NotTo(BeNil(), "data.card")
			Expect(fixtures.CardFrom(c).ID).To(Equal(w.issued.ID), "data.card is the card addressed")
		}, Reqs("WITHDRAW-01")),
		// From the issued card's own balance: the initial balance of a card
		// is the profile's business (issuance.initialBalance); which side
		// pays the withdrawalFee is not shown (cards.withdrawCardDebit).
		ConformanceEntry("lowers the card balance by the amount (and the withdrawalFee where the card pays it), in the answer and in a fresh GET", SpecID("withdraw.lowers-card-balance-exactly"), func(w withdrawal) {
			c, _ := Data(w.answer.Body)["card"].(JSON)
			ExpectCardDebited(w.issued.Balance, fixtures.CardFrom(c).Balance, w.amount, w.fee, "the balance in the answer")
			ExpectCardDebited(w.issued.Balance, w.fresh.Balance, w.amount, w.fee, "the balance in a fresh GET")
		}, Reqs("WITHDRAW-04")),
	)
}

// withdrawalEffectSpecs: what a withdrawal changes beyond the balance.
func withdrawalEffectSpecs() {
	// "Card with updated balance and updatedAt": judged at the precision of
	// the timestamps read (no precision is stated), after time has moved by
	// more than it.
	ConformanceIt("advances the card's updatedAt", SpecID("withdraw.advances-card-s-updatedat"),
		Reqs("WITHDRAW-06"), Destructive,
		func(ctx SpecContext) {
			c := fixtures.NewCard(ctx, fixtures.WithAmount(M("3.00")))
			before := fixtures.GetCard(ctx, c.ID)
			if before.UpdatedAt == "" {
				Skip("the card carries no updatedAt before the withdrawal (its presence is stated for the withdrawal's answer only)")
			}
			ts := parseTS(before.UpdatedAt)
			AgeTimestamps(ctx, ts.Precision)
			got := WithdrawOK(ctx, c.ID, M("1.00"))
			Expect(parseTS(got.UpdatedAt).Time).To(BeTemporally(">", ts.Time), "updatedAt in the answer")
			if fresh := fixtures.GetCard(ctx, c.ID); fresh.UpdatedAt != "" {
				Expect(parseTS(fresh.UpdatedAt).Time).To(BeTemporally(">", ts.Time), "updatedAt in a fresh GET")
			}
		})

	ConformanceIt("sweeps the amount back to the vault, charging the withdrawalFee per the profile's fee rule", SpecID("withdraw.sweeps-amount-back-vault"),
		Reqs("WITHDRAW-05", "CONFIG-05", "CONFIG-08"), Destructive, Serial,
		func(ctx SpecContext) {
			c := fixtures.NewCard(ctx, fixtures.WithAmount(M("6.00")))
			fee := fixtures.GetConfig(ctx).WithdrawalFee
			before := fixtures.VaultNow(ctx)
			amount := M("2.40")
			WithdrawOK(ctx, c.ID, amount)
			credits := WithdrawalVaultCredits(amount, fee)
			if credits == nil {
				EventuallyFresh(ctx, "the vault rises after a withdrawal (cards.withdrawVaultCredit unchecked)", func(g Gomega) {
					g.Expect(fixtures.VaultNow(ctx).Cmp(before)).To(BeNumerically(">", 0), "the vault must rise after a withdrawal")
				})
				return
			}
			allowed := make([]Money, len(credits))
			for i, cr := range credits {
				allowed[i] = before.Add(cr)
			}
			fixtures.ExpectVaultShows(ctx, fmt.Sprintf("the vault credited %s (withdrawalFee %s, profile cards.withdrawVaultCredit %s) from %s", amount, fee, Profile().Cards.WithdrawVaultCredit, before), allowed...)
		})
}

// withdrawalRefusalSpecs: amounts below the minimum, missing or above the
// balance, and unknown cards.
func withdrawalRefusalSpecs() {
	// 400 for an amount below the documented minimum of 0.10: the body
	// constraint ("minimum 0.10", Limits table) is a payload constraint, and
	// the Errors table gives 400 for malformed payloads and business
	// constraint failures, naming "initial card funding below the minimum" and
	// messages that a value "must not be less than a minimum" as its
	// examples. This is not one of the "other failure conditions" whose error
	// is not shown (those are conditions no documented limit covers, such as a
	// withdrawal above the card balance).
	ConformanceIt("accepts the minimum withdrawal of 0.10 and refuses 0.09 with 400, leaving the balance unchanged", SpecID("withdraw.accepts-minimum-withdrawal-0"),
		Reqs("WITHDRAW-03"), Destructive,
		func(ctx SpecContext) {
			c := fixtures.NewCard(ctx, fixtures.WithAmount(M("2.00")))
			fee := fixtures.GetConfig(ctx).WithdrawalFee
			ExpectError(Withdraw(ctx, c.ID, M("0.09").JSON()), http.StatusBadRequest)
			Expect(fixtures.GetCard(ctx, c.ID).Balance).To(EqualMoney(c.Balance), "a refused withdrawal changed the balance")
			ExpectError(Withdraw(ctx, c.ID, M("0").JSON()), http.StatusBadRequest)
			got := WithdrawOK(ctx, c.ID, M("0.10"))
			ExpectCardDebited(c.Balance, got.Balance, M("0.10"), fee, "the balance in the answer")
			ExpectCardDebited(c.Balance, fixtures.GetCard(ctx, c.ID).Balance, M("0.10"), fee, "the balance in a fresh GET")
		})

	ConformanceIt("refuses a withdrawal without an amount with 400", SpecID("withdraw.refuses-withdrawal-without"),
		Reqs("WITHDRAW-02", "ERR-07"), Destructive,
		func(ctx SpecContext) {
			c := fixtures.NewCard(ctx, fixtures.WithAmount(M("1.00")))
			ExpectError(Withdraw(ctx, c.ID, nil), http.StatusBadRequest)
			Expect(fixtures.GetCard(ctx, c.ID).Balance).To(EqualMoney(c.Balance))
		})

	// Which error a withdrawal above the card balance gets is not shown: the
	// profile's errors.status.withdrawAboveBalance, else any 4xx.
	ConformanceIt("refuses a withdrawal above the card balance with a 4xx error (the profile's status), the balance unchanged", SpecID("withdraw.refuses-withdrawal-above-card"),
		Reqs("WITHDRAW-07", "ERR-21"), Destructive,
		func(ctx SpecContext) {
			c := fixtures.NewCard(ctx, fixtures.WithAmount(M("2.00")))
			resp := Withdraw(ctx, c.ID, c.Balance.Add(M("0.01")).JSON())
			ExpectRefused(resp, "withdrawAboveBalance")
			Expect(fixtures.GetCard(ctx, c.ID).Balance).To(EqualMoney(c.Balance), "a refused withdrawal changed the balance")
		})

	ConformanceIt("answers 404 for a card that does not exist", SpecID("errors.answers-404-card-does"),
		Reqs("ERR-10"),
		func(ctx SpecContext) {
			ExpectError(Withdraw(ctx, fixtures.UnknownCardID(ctx), M("0.10").JSON()), http.StatusNotFound)
		})
}
