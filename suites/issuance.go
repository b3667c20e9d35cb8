package suites

import (
	"encoding/json"
	"errors"
	"net/http"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/merchant-harness/mph/client"
	"github.com/merchant-harness/mph/schemas"
	. "github.com/merchant-harness/mph/suites/framework"
)

// cardIssuance is the container of this file's specs (Describe blocks of one text).
const cardIssuance = "Card issuance: POST /cards"

var _ = Describe(cardIssuance, func() {
	issued := Shared(issueGivenCard)
	ConformanceTable("issues a card for a customer",
		func(ctx SpecContext, rule func(SpecContext, issuedCard)) { rule(ctx, issued(ctx)) },
		Destructive,
		ConformanceEntry("answers 200 or 201 with the Card issued, which a fresh GET finds by its id", SpecID("issuance.answers-200-201-card"), func(ctx SpecContext, i issuedCard) {
			ExpectStatus(i.resp, http.StatusOK, http.StatusCreated)
			ExpectSchema(i.resp, schemas.CardIssuanceResponse)
			Expect(i.card).NotTo(BeNil(), "no card at %s (profile issuance.cardPointer)", Profile().Issuance.CardPointer)
			expectNoCardViolationOutside(i.violations, CardTableFields)
			Expect(GetCard(ctx, CardFrom(i.card).ID).ID).To(Equal(CardFrom(i.card).ID))
		}, Reqs("ISSUE-01")),
		issuedCardEntry("gives the card an id of the form crd_", "issuance.card-id-form", "id", Reqs("GET-05"), nil),
		issuedCardEntry("issues a virtual card: cardType VIRTUAL", "issuance.card-type-virtual", "cardType", Reqs("ISSUE-06", "GET-06"), func(i issuedCard) {
			Expect(i.card["cardType"]).To(Equal("VIRTUAL"))
		}),
		issuedCardEntry("issues a USD card: currency USD", "issuance.currency-usd", "currency", Reqs("ISSUE-06", "GET-11"), func(i issuedCard) {
			Expect(i.card["currency"]).To(Equal("USD"))
		}),
		issuedCardEntry("creates the card ACTIVE with createdStatus COMPLETED", "issuance.created-active-completed", "status", Reqs("ISSUE-06", "GET-13"), func(i issuedCard) {
			i.expectNoViolationUnder("createdStatus")
			Expect(i.card["status"]).To(Equal("ACTIVE"))
			ExpectCardFields(i.card)
		}),
		// Which fields the answer carries is not stated (profile
		// strict.allCardFields); those it carries must be the ones given.
		issuedCardEntry("carries the nameOnCard given", "issuance.name-on-card-given", "nameOnCard", Reqs("ISSUE-08"), func(i issuedCard) {
			if i.card["nameOnCard"] != nil {
				Expect(i.card["nameOnCard"]).To(Equal(i.name))
			}
		}),
		issuedCardEntry("carries the merchant reference given", "issuance.reference-given", "reference", Reqs("GET-14"), func(i issuedCard) {
			if Profile().Issuance.ReferenceField == "" {
				Skip("the profile says issuance takes no reference (issuance.referenceField empty)")
			}
			if i.card["reference"] != nil {
				Expect(i.card["reference"]).To(Equal(i.ref))
			}
		}),
		issuedCardEntry("funds the card from the vault with the amount given (the profile's initialBalance rule)", "issuance.funded-amount-given", "balanceAmount", Reqs("ISSUE-06"), func(i issuedCard) {
			want, ok := initialBalance(i.amount, i.fundFee)
			if !ok {
				Skip("the profile states no initial balance rule (issuance.initialBalance)")
			}
			Expect(CardFrom(i.card).Balance).To(EqualMoney(want), "balanceAmount of a card funded with %s (profile issuance.initialBalance %s)", i.amount, Profile().Issuance.InitialBalance)
		}),
		ConformanceEntry("gives createdAt and updatedAt as ISO 8601 UTC timestamps", SpecID("envelopes.gives-createdat-updatedat-iso"), func(_ SpecContext, i issuedCard) {
			Expect(i.card).NotTo(BeNil(), "no card at %s (profile issuance.cardPointer)", Profile().Issuance.CardPointer)
			i.expectNoViolationUnder("createdAt")
			i.expectNoViolationUnder("updatedAt")
		}, Reqs("ENV-06")),
	)
})

var _ = Describe(cardIssuance, func() {
	ConformanceIt("debits the vault by exactly creationFee + amount", SpecID("issuance.debits-vault-exactly"),
		Reqs("ISSUE-04", "CONFIG-03", "CONFIG-08"), Destructive, Serial,
		func(ctx SpecContext) {
			before := GetConfig(ctx)
			amount := M("3.17")
			NewCard(ctx, WithAmount(amount))
			after := GetConfig(ctx)
			Expect(before.VaultBalance.Sub(after.VaultBalance)).To(EqualMoney(before.CreationFee.Add(amount)),
				"vault debit (before %s, after %s, creationFee %s, amount %s)", before.VaultBalance, after.VaultBalance, before.CreationFee, amount)
		})

	ConformanceIt("accepts an initial funding of exactly minFunding (1.00 USD) and refuses one cent less with 400", SpecID("issuance.accepts-initial-funding"),
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

	ConformanceIt("refuses an initial funding below the minimum without debiting the vault", SpecID("issuance.refuses-initial-funding-below"),
		Reqs("ISSUE-03", "CONFIG-08"), Destructive, Serial,
		func(ctx SpecContext) {
			before := GetConfig(ctx)
			resp, _ := IssueCard(ctx, WithAmount(M("0.99")))
			ExpectError(resp, http.StatusBadRequest)
			Expect(GetConfig(ctx).VaultBalance).To(EqualMoney(before.VaultBalance), "the vault changed after a refused issuance")
		})

	ConformanceIt("refuses an empty nameOnCard with 400 and a validation message array", SpecID("issuance.refuses-empty-nameoncard-400"),
		Reqs("ISSUE-02", "ERR-04"), Destructive,
		func(ctx SpecContext) {
			resp, _ := IssueCard(ctx, WithName(""))
			ExpectValidationError(resp)
		})

	ConformanceIt("answers 404 for a customer that does not exist", SpecID("issuance.answers-404-customer-does"),
		Reqs("ISSUE-07"), Destructive,
		func(ctx SpecContext) {
			resp, _ := IssueCard(ctx, WithCustomer("cus_"+Cfg().RunID+"nosuchcustomer"))
			ExpectError(resp, http.StatusNotFound)
		})
})

var _ = Describe(cardIssuance, func() {
	ConformanceIt("refuses funding beyond the vault with 400 stating the required total (funding + fee) and the available amount, debiting nothing", SpecID("issuance.refuses-funding-beyond-vault"),
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

	ConformanceIt("accepts funding that uses the vault exactly (vault = fee + amount) and refuses one cent more", SpecID("issuance.accepts-funding-uses-vault"),
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

// issuedCard is a card issued with a name, reference and amount of its own;
// the entries of the table each check their own part of the answer.
type issuedCard struct {
	name, ref  string
	amount     Money
	fundFee    Money
	resp       *client.Response
	card       JSON                // the card at the profile's issuance.cardPointer (nil when absent)
	violations []schemas.Violation // of the card against the Card schema
}

func issueGivenCard(ctx SpecContext) issuedCard {
	i := issuedCard{name: "Grace " + strings.ToUpper(Cfg().RunID), ref: Ref("card"), amount: M("2.50"), fundFee: GetConfig(ctx).FundFee}
	i.resp, _ = IssueCard(ctx, WithName(i.name), WithReference(i.ref), WithAmount(i.amount))
	if v, ok := Ptr(Decode(i.resp), Profile().Issuance.CardPointer); ok {
		i.card, _ = v.(JSON)
	}
	if i.card != nil {
		raw, _ := json.Marshal(i.card)
		var ve *schemas.ValidationError
		if err := schemas.Validate(schemas.Card, raw); errors.As(err, &ve) {
			i.violations = ve.Violations
		} else if err != nil {
			HarnessError("schema %s: %v", schemas.Card, err)
		}
	}
	return i
}

// expectNoViolationUnder asserts that the card's member has no schema violation.
func (i issuedCard) expectNoViolationUnder(member string) {
	GinkgoHelper()
	var found []string
	for _, v := range i.violations {
		if v.Pointer == "/"+member || strings.HasPrefix(v.Pointer, "/"+member+"/") {
			found = append(found, v.String())
		}
	}
	Expect(found).To(BeEmpty(), "schema violations of the issued Card under /%s", member)
}

// expectNoCardViolationOutside asserts that every violation of the card lies
// under one of the members (those the table's other entries own).
func expectNoCardViolationOutside(vs []schemas.Violation, members []string) {
	GinkgoHelper()
	var found []string
	for _, v := range vs {
		owned := false
		for _, m := range members {
			owned = owned || v.Pointer == "/"+m || strings.HasPrefix(v.Pointer, "/"+m+"/")
		}
		if !owned {
			found = append(found, v.String())
		}
	}
	Expect(found).To(BeEmpty(), "schema violations of the issued Card")
}

// issuedCardEntry is a table entry proving one rule of the issued card: no
// schema violation under its member, then the rule itself (when given).
func issuedCardEntry(text string, id SpecID, member string, reqs ReqIDs, rule func(issuedCard)) TableRule {
	return ConformanceEntry(text, id, func(_ SpecContext, i issuedCard) {
		GinkgoHelper()
		Expect(i.card).NotTo(BeNil(), "no card at %s (profile issuance.cardPointer)", Profile().Issuance.CardPointer)
		i.expectNoViolationUnder(member)
		if rule != nil {
			rule(i)
		}
	}, reqs)
}
