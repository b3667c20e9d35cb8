package cards

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/merchant-harness/mph/client"
	"github.com/merchant-harness/mph/schemas"
	. "github.com/merchant-harness/mph/suites/expect"
	"github.com/merchant-harness/mph/suites/fixtures"
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
			Expect(i.card).NotTo(BeNil(), "no card at %s (profile issuance.cardPointer) nor an object with an id", Profile().Issuance.CardPointer)
			expectNoCardViolationOutside(i.violations, fixtures.CardTableFields)
			Expect(fixtures.GetCard(ctx, i.id).ID).To(Equal(i.id))
		}, Reqs("ISSUE-01")),
		issuedCardEntry("gives the card an id of the form crd_", "issuance.card-id-form", "id", Reqs("GET-05"), nil),
		// The issuance answer's shape is not shown: a member it carries is
		// checked, and the card read afresh carries the rule too.
		issuedCardEntry("issues a virtual card: cardType VIRTUAL", "issuance.card-type-virtual", "cardType", Reqs("ISSUE-06", "GET-06"), func(i issuedCard) {
			i.expectEach("cardType", func(v any) { Expect(v).To(Equal("VIRTUAL")) })
		}),
		issuedCardEntry("issues a USD card: currency USD", "issuance.currency-usd", "currency", Reqs("ISSUE-06", "GET-11"), func(i issuedCard) {
			i.expectEach("currency", func(v any) { Expect(v).To(Equal("USD")) })
		}),
		// The status a card starts in is not stated, nor createdStatus
		// beyond COMPLETED (strict.createdStatusCompleted).
		issuedCardEntry("creates the card ACTIVE or FROZEN, with createdStatus a string (COMPLETED under strict.createdStatusCompleted)", "issuance.created-active-completed", "status", Reqs("ISSUE-06", "GET-13"), func(i issuedCard) {
			i.expectNoViolationUnder("createdStatus")
			i.expectEach("status", func(v any) { Expect(v).To(BeElementOf("ACTIVE", "FROZEN")) })
			fixtures.ExpectCardFields(i.card)
		}),
		issuedCardEntry("carries the nameOnCard given (in any letter case)", "issuance.name-on-card-given", "nameOnCard", Reqs("ISSUE-08"), func(i issuedCard) {
			i.expectEach("nameOnCard", func(v any) {
				s, _ := v.(string)
				Expect(fixtures.SameName(s, i.name)).To(BeTrue(), "nameOnCard %q is not the name given, %q", s, i.name)
			})
		}),
		issuedCardEntry("carries the merchant reference given", "issuance.reference-given", "reference", Reqs("GET-14"), func(i issuedCard) {
			if Profile().Issuance.ReferenceField == "" {
				Skip("the profile says issuance takes no reference (issuance.referenceField empty)")
			}
			i.expectEach("reference", func(v any) { Expect(v).To(Equal(i.ref)) })
		}),
		issuedCardEntry("funds the card from the vault with the amount given (the profile's initialBalance rule)", "issuance.funded-amount-given", "balanceAmount", Reqs("ISSUE-06"), func(i issuedCard) {
			allowed := InitialBalances(i.amount, i.fundFee)
			if allowed == nil {
				Skip("the profile leaves the initial balance unchecked (issuance.initialBalance unchecked)")
			}
			i.expectEach("balanceAmount", func(v any) {
				ExpectAmountOneOf(ExpectMoney(v, "balanceAmount"), allowed, "the balance of a card funded with "+i.amount.String(), "issuance.initialBalance")
			})
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
			cust := fixtures.SharedCustomer(ctx) // proven before the vault is read
			fee := fixtures.GetConfig(ctx).CreationFee
			before := fixtures.VaultNow(ctx)
			amount := M("3.17")
			fixtures.NewCard(ctx, fixtures.WithCustomer(cust), fixtures.WithAmount(amount))
			fixtures.ExpectVaultShows(ctx, fmt.Sprintf("the vault debited creationFee %s + amount %s from %s", fee, amount, before), before.Sub(fee.Add(amount)))
		})

	ConformanceIt("accepts an initial funding of exactly minFunding (1.00 USD) and refuses one cent less with 400", SpecID("issuance.accepts-initial-funding"),
		Reqs("ISSUE-03", "ISSUE-09", "CONFIG-06"), Destructive,
		func(ctx SpecContext) {
			cfg := fixtures.GetConfig(ctx)
			Expect(cfg.MinFunding).To(EqualMoney(M("1.00")), "minFunding")
			c := fixtures.NewCard(ctx, fixtures.WithAmount(cfg.MinFunding))
			ExpectAmountOneOf(fixtures.GetCard(ctx, c.ID).Balance, InitialBalances(cfg.MinFunding, cfg.FundFee), "the balance of a card funded with minFunding", "issuance.initialBalance")
			resp, _ := fixtures.IssueCard(ctx, fixtures.WithAmount(cfg.MinFunding.Sub(M("0.01"))))
			ExpectError(resp, http.StatusBadRequest)
			resp, _ = fixtures.IssueCard(ctx, fixtures.WithAmount(M("0")))
			ExpectError(resp, http.StatusBadRequest)
		})

	ConformanceIt("refuses an initial funding below the minimum without debiting the vault", SpecID("issuance.refuses-initial-funding-below"),
		Reqs("ISSUE-03", "CONFIG-08"), Destructive, Serial,
		func(ctx SpecContext) {
			cust := fixtures.SharedCustomer(ctx)
			before := fixtures.VaultNow(ctx)
			resp, _ := fixtures.IssueCard(ctx, fixtures.WithCustomer(cust), fixtures.WithAmount(M("0.99")))
			ExpectError(resp, http.StatusBadRequest)
			fixtures.ExpectVaultShows(ctx, "a refused issuance debits nothing", before)
		})

	ConformanceIt("refuses an empty nameOnCard with 400 and a validation message array", SpecID("issuance.refuses-empty-nameoncard-400"),
		Reqs("ISSUE-02", "ERR-04"), Destructive,
		func(ctx SpecContext) {
			resp, _ := fixtures.IssueCard(ctx, fixtures.WithName(""))
			ExpectValidationError(resp)
		})

	ConformanceIt("answers 404 for a customer that does not exist", SpecID("issuance.answers-404-customer-does"),
		Reqs("ISSUE-07"), Destructive,
		func(ctx SpecContext) {
			resp, _ := fixtures.IssueCard(ctx, fixtures.WithCustomer(fixtures.UnknownCustomerID(ctx)))
			ExpectError(resp, http.StatusNotFound)
		})
})

var _ = Describe(cardIssuance, func() {
	// Scenario 1, provoked with a small amount: the balances control sets
	// the vault small; without it only when one cent beyond the vault is
	// within testData.maxProbeAmount (a larger amount may meet a maximum
	// first: "Maximum values for amounts ...: not shown").
	ConformanceIt("refuses funding beyond the vault with 400 stating the required total (funding + fee) and the available amount, debiting nothing", SpecID("issuance.refuses-funding-beyond-vault"),
		Reqs("ISSUE-05", "ERR-14"), Destructive, Serial,
		func(ctx SpecContext) {
			amount, cfg := fixtures.OverVaultAmount(ctx)
			before := fixtures.VaultNow(ctx)
			resp, _ := fixtures.IssueCard(ctx, fixtures.WithAmount(amount))
			body := ExpectError(resp, http.StatusBadRequest)
			expectVaultShortfall(ctx, body, amount.Add(cfg.CreationFee), cfg.VaultBalance)
			fixtures.ExpectVaultShows(ctx, "a refused issuance debits nothing", before)
		})

	ConformanceIt("accepts funding that uses the vault exactly (vault = fee + amount) and refuses one cent more", SpecID("issuance.accepts-funding-uses-vault"),
		Reqs("ISSUE-05", "ISSUE-04"), Destructive, Serial, Needs(CapBalances),
		func(ctx SpecContext) {
			cust := fixtures.SharedCustomer(ctx)
			cfg := fixtures.GetConfig(ctx)
			vault := cfg.CreationFee.Add(M("5.00"))
			fixtures.WithVault(ctx, vault)
			resp, _ := fixtures.IssueCard(ctx, fixtures.WithCustomer(cust), fixtures.WithAmount(M("5.01")))
			body := ExpectError(resp, http.StatusBadRequest)
			expectVaultShortfall(ctx, body, M("5.01").Add(cfg.CreationFee), vault)
			resp, _ = fixtures.IssueCard(ctx, fixtures.WithCustomer(cust), fixtures.WithAmount(M("5.00")))
			ExpectStatus(resp, http.StatusOK, http.StatusCreated)
			fixtures.ExpectVaultShows(ctx, "the vault after using it exactly", M("0"))
		})
})

// expectVaultShortfall checks scenario 1's message: it states the required
// total and the available amount (in any decimal form). The available
// amount is the vault the spec set, or, read without the balances control,
// one the configuration shows around the refusal (its vaultBalance is not
// documented as real-time).
func expectVaultShortfall(ctx SpecContext, body JSON, required, available Money) {
	GinkgoHelper()
	ExpectMessageMeans(body, "scenario 1: the required total "+required.String(), Meaning{Amounts: []Money{required}})
	msg := strings.Join(Messages(body), " ")
	if ContainsAmount(msg, available) || Has(CapBalances) {
		ExpectMessageMeans(body, "scenario 1: the available amount "+available.String(), Meaning{Amounts: []Money{available}})
		return
	}
	EventuallyFresh(ctx, "scenario 1: the message states the available amount the configuration shows", func(g Gomega) {
		v := fixtures.GetConfig(ctx).VaultBalance
		g.Expect(ContainsAmount(msg, v)).To(BeTrue(), "the message %q does not state the available amount %s", msg, v)
	})
}

// issuedCard is a card issued with a name, reference and amount of its own:
// the issuance answer (its card at the profile's issuance.cardPointer, else
// the object carrying an id: the shape is not shown) and the card read
// afresh with GET; the entries of the table each check their own part.
type issuedCard struct {
	name, ref  string
	amount     Money
	fundFee    Money
	resp       *client.Response
	card       JSON                // the issuance answer's card (nil when absent)
	id         string              // its id
	fresh      JSON                // the card read afresh (nil when the answer has no id)
	violations []schemas.Violation // of the answer's card against the Card schema
}

func issueGivenCard(ctx SpecContext) issuedCard {
	i := issuedCard{name: fixtures.CardName(), ref: fixtures.Ref("card"), amount: M("2.50"), fundFee: fixtures.GetConfig(ctx).FundFee}
	i.resp, _ = fixtures.IssueCard(ctx, fixtures.WithName(i.name), fixtures.WithReference(i.ref), fixtures.WithAmount(i.amount))
	if i.resp.Status != http.StatusOK && i.resp.Status != http.StatusCreated {
		return i
	}
	i.card = fixtures.IssuedCard(i.resp)
	if i.card != nil {
		raw, _ := json.Marshal(i.card)
		var ve *schemas.ValidationError
		if err := schemas.Validate(schemas.Card, raw); errors.As(err, &ve) {
			i.violations = ve.Violations
		} else if err != nil {
			HarnessError("schema %s: %v", schemas.Card, err)
		}
		i.id, _ = IDString(i.card["id"])
	}
	if i.id != "" {
		i.fresh = fixtures.GetCard(ctx, i.id).Raw
	}
	return i
}

// expectEach applies rule to the member of the answer's card, when it
// carries it, and of the card read afresh (present under
// strict.allCardFields).
func (i issuedCard) expectEach(member string, rule func(v any)) {
	GinkgoHelper()
	for _, c := range []struct {
		what string
		card JSON
	}{{"the issuance answer", i.card}, {"a fresh GET", i.fresh}} {
		v, has := c.card[member]
		if !has || v == nil {
			Expect(Profile().Strict.AllCardFields && c.card != nil).To(BeFalse(), "%s: Card.%s is absent or null (profile strict.allCardFields)", c.what, member)
			continue
		}
		By(member + " in " + c.what)
		rule(v)
	}
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
