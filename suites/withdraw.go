package suites

import (
	"context"
	"net/http"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/merchant-harness/mph/client"
	"github.com/merchant-harness/mph/schemas"
	. "github.com/merchant-harness/mph/suites/framework"
)

func withdraw(ctx context.Context, id string, amount any) *client.Response {
	GinkgoHelper()
	body := JSON{}
	if amount != nil {
		body["amount"] = amount
	}
	return Must(API().Post(ctx, "/cards/"+client.Seg(id)+"/withdraw", body))
}

// withdrawOK asserts a successful withdrawal and returns the answer's card.
func withdrawOK(ctx context.Context, id string, amount Money) Card {
	GinkgoHelper()
	d := Data(ExpectEnvelopeA(withdraw(ctx, id, amount.JSON()), schemas.WithdrawResponse))
	_, isStr := d["message"].(string)
	Expect(isStr).To(BeTrue(), "data.message is a string")
	c, _ := d["card"].(JSON)
	Expect(c).NotTo(BeNil(), "data.card")
	return CardFrom(c)
}

func parseTS(s string) time.Time {
	GinkgoHelper()
	ts, err := schemas.ParseISO8601(s)
	Expect(err).NotTo(HaveOccurred(), "timestamp %q is not ISO 8601", s)
	return ts.Time
}

// withdrawal is one withdrawal of 1.37 from a card issued with 5.00: its
// answer read once and the card read afresh afterwards.
type withdrawal struct {
	issued Card
	amount Money
	answer Answer
	fresh  Card
}

func withdrawOnce(ctx SpecContext) withdrawal {
	c := NewCard(ctx, WithAmount(M("5.00")))
	amount := M("1.37")
	a := ReadAnswer(withdraw(ctx, c.ID, amount.JSON()), schemas.WithdrawResponse)
	return withdrawal{issued: c, amount: amount, answer: a, fresh: GetCard(ctx, c.ID)}
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
			Expect(CardFrom(c).ID).To(Equal(w.issued.ID), "data.card is the card addressed")
		}, Reqs("WITHDRAW-01")),
		// From the issued card's own balance: the initial balance of a card
		// is the profile's business (issuance.initialBalance).
		ConformanceEntry("lowers the card balance by exactly the amount, in the answer and in a fresh GET", SpecID("withdraw.lowers-card-balance-exactly"), func(w withdrawal) {
			want := w.issued.Balance.Sub(w.amount)
			c, _ := Data(w.answer.Body)["card"].(JSON)
			Expect(CardFrom(c).Balance).To(EqualMoney(want), "balance in the answer")
			Expect(w.fresh.Balance).To(EqualMoney(want), "balance in a fresh GET")
		}, Reqs("WITHDRAW-04")),
	)
}

// withdrawalEffectSpecs: what a withdrawal changes beyond the balance.
func withdrawalEffectSpecs() {
	ConformanceIt("advances the card's updatedAt", SpecID("withdraw.advances-card-s-updatedat"),
		Reqs("WITHDRAW-06"), Destructive,
		func(ctx SpecContext) {
			c := NewCard(ctx, WithAmount(M("3.00")))
			before := parseTS(GetCard(ctx, c.ID).UpdatedAt)
			ageTimestamps(ctx)
			got := withdrawOK(ctx, c.ID, M("1.00"))
			Expect(parseTS(got.UpdatedAt)).To(BeTemporally(">", before), "updatedAt in the answer")
			Expect(parseTS(GetCard(ctx, c.ID).UpdatedAt)).To(BeTemporally(">", before), "updatedAt in a fresh GET")
		})

	ConformanceIt("sweeps the amount back to the vault, charging the withdrawalFee per the profile's fee rule", SpecID("withdraw.sweeps-amount-back-vault"),
		Reqs("WITHDRAW-05", "CONFIG-05", "CONFIG-08"), Destructive, Serial,
		func(ctx SpecContext) {
			rule := Profile().Cards.WithdrawVaultCredit
			c := NewCard(ctx, WithAmount(M("6.00")))
			before := GetConfig(ctx)
			amount := M("2.40")
			withdrawOK(ctx, c.ID, amount)
			after := GetConfig(ctx)
			credit := after.VaultBalance.Sub(before.VaultBalance)
			switch rule {
			case "amount-minus-fee":
				Expect(credit).To(EqualMoney(amount.Sub(before.WithdrawalFee)), "vault credit = amount %s - withdrawalFee %s (profile cards.withdrawVaultCredit)", amount, before.WithdrawalFee)
			case "amount":
				Expect(credit).To(EqualMoney(amount), "vault credit = amount (profile cards.withdrawVaultCredit)")
			default:
				Expect(credit.Cmp(M("0"))).To(BeNumerically(">", 0), "the vault must rise after a withdrawal")
			}
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
			c := NewCard(ctx, WithAmount(M("2.00")))
			ExpectError(withdraw(ctx, c.ID, M("0.09").JSON()), http.StatusBadRequest)
			Expect(GetCard(ctx, c.ID).Balance).To(EqualMoney(c.Balance), "a refused withdrawal changed the balance")
			ExpectError(withdraw(ctx, c.ID, M("0").JSON()), http.StatusBadRequest)
			want := c.Balance.Sub(M("0.10"))
			got := withdrawOK(ctx, c.ID, M("0.10"))
			Expect(got.Balance).To(EqualMoney(want))
			Expect(GetCard(ctx, c.ID).Balance).To(EqualMoney(want))
		})

	ConformanceIt("refuses a withdrawal without an amount with 400", SpecID("withdraw.refuses-withdrawal-without"),
		Reqs("WITHDRAW-02", "ERR-07"), Destructive,
		func(ctx SpecContext) {
			c := NewCard(ctx, WithAmount(M("1.00")))
			ExpectError(withdraw(ctx, c.ID, nil), http.StatusBadRequest)
			Expect(GetCard(ctx, c.ID).Balance).To(EqualMoney(c.Balance))
		})

	// Which error a withdrawal above the card balance gets is not shown: the
	// profile's errors.status.withdrawAboveBalance, else any 4xx.
	ConformanceIt("refuses a withdrawal above the card balance with a 4xx error (the profile's status), the balance unchanged", SpecID("withdraw.refuses-withdrawal-above-card"),
		Reqs("WITHDRAW-07", "ERR-21"), Destructive,
		func(ctx SpecContext) {
			c := NewCard(ctx, WithAmount(M("2.00")))
			resp := withdraw(ctx, c.ID, c.Balance.Add(M("0.01")).JSON())
			ExpectRefusal(resp, "withdrawAboveBalance")
			Expect(GetCard(ctx, c.ID).Balance).To(EqualMoney(c.Balance), "a refused withdrawal changed the balance")
		})

	ConformanceIt("answers 404 for a card that does not exist", SpecID("errors.answers-404-card-does"),
		Reqs("ERR-10"),
		func(ctx SpecContext) {
			ExpectError(withdraw(ctx, "crd_"+Cfg().RunID+"nosuchcard", M("0.10").JSON()), http.StatusNotFound)
		})
}
