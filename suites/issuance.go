package suites

import (
	"encoding/json"
	"net/http"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/merchant-harness/mph/schemas"
	. "github.com/merchant-harness/mph/suites/framework"
)

var _ = Describe("Card issuance: POST /cards", func() {
	ConformanceIt("issues an ACTIVE USD virtual card with createdStatus COMPLETED carrying the nameOnCard and reference given, its balance per the profile's initialBalance rule",
		Reqs("ISSUE-01", "ISSUE-06", "ISSUE-08", "GET-05", "GET-06", "GET-11", "GET-13", "ENV-06"), Destructive,
		func(ctx SpecContext) {
			name := "Grace " + strings.ToUpper(Cfg().RunID)
			ref := Ref("card")
			fundFee := GetConfig(ctx).FundFee
			resp, _ := IssueCard(ctx, WithName(name), WithReference(ref), WithAmount(M("2.50")))
			ExpectStatus(resp, http.StatusOK, http.StatusCreated)
			ExpectSchema(resp, schemas.CardIssuanceResponse)
			v, ok := Ptr(Decode(resp), Profile().Issuance.CardPointer)
			Expect(ok).To(BeTrue(), "no card at %s", Profile().Issuance.CardPointer)
			raw, _ := json.Marshal(v)
			Expect(schemas.Validate(schemas.Card, raw)).To(Succeed(), "the issued card is not a Card")
			c := CardFrom(v.(JSON))
			Expect(c.Raw["cardType"]).To(Equal("VIRTUAL"))
			Expect(c.Raw["currency"]).To(Equal("USD"))
			Expect(c.Status).To(Equal("ACTIVE"))
			ExpectCardFields(c.Raw)
			// Fields the answer carries (which are always present is not
			// stated; profile strict.allCardFields) must be the ones given.
			if c.Raw["nameOnCard"] != nil {
				Expect(c.NameOnCard).To(Equal(name))
			}
			if Profile().Issuance.ReferenceField != "" && c.Raw["reference"] != nil {
				Expect(c.Reference).To(Equal(ref))
			}
			if want, ok := initialBalance(M("2.50"), fundFee); ok {
				Expect(c.Balance).To(EqualMoney(want), "balanceAmount of a card funded with 2.50 (profile issuance.initialBalance %s)", Profile().Issuance.InitialBalance)
			}
			// The card exists afterwards.
			Expect(GetCard(ctx, c.ID).ID).To(Equal(c.ID))
		})

	ConformanceIt("debits the vault by exactly creationFee + amount",
		Reqs("ISSUE-04", "CONFIG-03", "CONFIG-08"), Destructive, Serial,
		func(ctx SpecContext) {
			before := GetConfig(ctx)
			amount := M("3.17")
			NewCard(ctx, WithAmount(amount))
			after := GetConfig(ctx)
			Expect(before.VaultBalance.Sub(after.VaultBalance)).To(EqualMoney(before.CreationFee.Add(amount)),
				"vault debit (before %s, after %s, creationFee %s, amount %s)", before.VaultBalance, after.VaultBalance, before.CreationFee, amount)
		})

	ConformanceIt("accepts an initial funding of exactly minFunding (1.00 USD) and refuses one cent less with 400",
		Reqs("ISSUE-03", "ISSUE-09", "CONFIG-06"), Destructive,
		func(ctx SpecContext) {
			minF := GetConfig(ctx).MinFunding
			Expect(minF).To(EqualMoney(M("1.00")), "minFunding")
			resp, _ := IssueCard(ctx, WithAmount(minF))
			ExpectStatus(resp, http.StatusOK, http.StatusCreated)
			v, _ := Ptr(Decode(resp), Profile().Issuance.CardPointer)
			c, _ := v.(JSON)
			Expect(c).NotTo(BeNil(), "no card at %s", Profile().Issuance.CardPointer)
			if want, ok := initialBalance(minF, GetConfig(ctx).FundFee); ok {
				Expect(CardFrom(c).Balance).To(EqualMoney(want), "profile issuance.initialBalance %s", Profile().Issuance.InitialBalance)
			}
			resp, _ = IssueCard(ctx, WithAmount(minF.Sub(M("0.01"))))
			ExpectError(resp, http.StatusBadRequest)
			resp, _ = IssueCard(ctx, WithAmount(M("0")))
			ExpectError(resp, http.StatusBadRequest)
		})

	ConformanceIt("refuses an initial funding below the minimum without debiting the vault",
		Reqs("ISSUE-03", "CONFIG-08"), Destructive, Serial,
		func(ctx SpecContext) {
			before := GetConfig(ctx)
			resp, _ := IssueCard(ctx, WithAmount(M("0.99")))
			ExpectError(resp, http.StatusBadRequest)
			Expect(GetConfig(ctx).VaultBalance).To(EqualMoney(before.VaultBalance), "the vault changed after a refused issuance")
		})

	ConformanceIt("refuses an empty nameOnCard with 400 and a validation message array",
		Reqs("ISSUE-02", "ERR-04"), Destructive,
		func(ctx SpecContext) {
			resp, _ := IssueCard(ctx, WithName(""))
			ExpectValidationError(resp)
		})

	ConformanceIt("answers 404 for a customer that does not exist",
		Reqs("ISSUE-07"), Destructive,
		func(ctx SpecContext) {
			resp, _ := IssueCard(ctx, WithCustomer("cus_"+Cfg().RunID+"nosuchcustomer"))
			ExpectError(resp, http.StatusNotFound)
		})

	ConformanceIt("refuses funding beyond the vault with 400 stating the required total (funding + fee) and the available amount, debiting nothing",
		Reqs("ISSUE-05", "ERR-14"), Destructive, Serial,
		func(ctx SpecContext) {
			before := GetConfig(ctx)
			// One cent more than the vault can cover.
			amount := before.VaultBalance.Sub(before.CreationFee).Add(M("0.01"))
			if amount.Cmp(before.MinFunding) < 0 {
				amount = before.MinFunding.Add(before.VaultBalance)
			}
			resp, _ := IssueCard(ctx, WithAmount(amount))
			body := ExpectError(resp, http.StatusBadRequest)
			msg := strings.Join(Messages(body), " ")
			required := amount.Add(before.CreationFee)
			Expect(ContainsAmount(msg, required)).To(BeTrue(), "the message %q does not state the required total %s (funding %s + fee %s)", msg, required, amount, before.CreationFee)
			Expect(ContainsAmount(msg, before.VaultBalance)).To(BeTrue(), "the message %q does not state the available amount %s", msg, before.VaultBalance)
			Expect(GetConfig(ctx).VaultBalance).To(EqualMoney(before.VaultBalance), "the vault changed after a refused issuance")
		})

	ConformanceIt("accepts funding that uses the vault exactly (vault = fee + amount) and refuses one cent more",
		Reqs("ISSUE-05", "ISSUE-04"), Destructive, Serial, Needs(CapBalances),
		func(ctx SpecContext) {
			env := Environment()
			orig, err := Controls().Balances(ctx, Cfg().Primary.MerchantID, env)
			if err != nil {
				HarnessError("reading balances: %v", err)
			}
			DeferCleanup(func(ctx SpecContext) {
				v := orig.VaultBalance
				if err := Controls().SetBalances(ctx, Cfg().Primary.MerchantID, env, &v, nil); err != nil {
					HarnessError("restoring the vault: %v", err)
				}
			})
			cfg := GetConfig(ctx)
			vault := cfg.CreationFee.Add(M("5.00"))
			v := vault.JSON()
			if err := Controls().SetBalances(ctx, Cfg().Primary.MerchantID, env, &v, nil); err != nil {
				HarnessError("setting the vault: %v", err)
			}
			resp, _ := IssueCard(ctx, WithAmount(M("5.01")))
			body := ExpectError(resp, http.StatusBadRequest)
			msg := strings.Join(Messages(body), " ")
			Expect(ContainsAmount(msg, M("5.01").Add(cfg.CreationFee))).To(BeTrue(), "message %q lacks the required total", msg)
			Expect(ContainsAmount(msg, vault)).To(BeTrue(), "message %q lacks the available amount", msg)
			resp, _ = IssueCard(ctx, WithAmount(M("5.00")))
			ExpectStatus(resp, http.StatusOK, http.StatusCreated)
			Expect(GetConfig(ctx).VaultBalance).To(EqualMoney(M("0")), "the vault after using it exactly")
		})
})
