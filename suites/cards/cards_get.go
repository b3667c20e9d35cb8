package cards

import (
	"net/http"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/merchant-harness/mph/client"
	"github.com/merchant-harness/mph/schemas"
	. "github.com/merchant-harness/mph/suites/expect"
	"github.com/merchant-harness/mph/suites/fixtures"
	. "github.com/merchant-harness/mph/suites/framework"
	. "github.com/merchant-harness/mph/suites/specsupport"
)

// oneCard is the container of this file's specs (Describe blocks of one text).
const oneCard = "One card: GET /cards/{id}"

var _ = Describe(oneCard, func() {
	issued := Shared(fetchIssuedCard)
	ConformanceTable("answers with the Card addressed by its id",
		func(ctx SpecContext, rule any) {
			switch r := rule.(type) {
			case func(fetchedCard):
				r(issued(ctx))
			case func(SpecContext, fetchedCard):
				r(ctx, issued(ctx))
			}
		},
		append(append([]any{Destructive}, cardIdentityRules()...), cardStateRules()...)...,
	)
})

// cardIdentityRules are the rules of the Card GET /cards/{id} answers with,
// one per member: what names the card.
func cardIdentityRules() []any {
	return []any{
		ConformanceEntry("answers 200 in Envelope A whose data is the Card addressed", SpecID("cards.answers-200-envelope-data"), func(f fetchedCard) {
			f.answer.ExpectEnvelopeA(schemas.CardResponse, cardFieldPointers())
			Expect(f.got.ID).To(Equal(f.issued.ID))
		}, Reqs("GET-01")),
		ConformanceEntry("gives id as a crd_ string", SpecID("cards.gives-id-crd-string"), func(f fetchedCard) {
			f.expectField("id")
		}, Reqs("GET-05")),
		ConformanceEntry("gives cardType VIRTUAL", SpecID("cards.gives-cardtype-virtual"), func(f fetchedCard) {
			f.expectField("cardType")
			if f.got.Raw["cardType"] != nil {
				Expect(f.got.Raw["cardType"]).To(Equal("VIRTUAL"))
			}
		}, Reqs("GET-06")),
		ConformanceEntry("gives cardBrand as a string", SpecID("cards.gives-cardbrand-string"), func(f fetchedCard) {
			f.expectField("cardBrand")
		}, Reqs("GET-07")),
		ConformanceEntry("gives maskedPan, the card's masked number, the same on every read", SpecID("cards.gives-maskedpan-issued-card"), func(f fetchedCard) {
			f.expectField("maskedPan")
			if f.got.MaskedPan != "" && f.issued.MaskedPan != "" {
				Expect(f.got.MaskedPan).To(Equal(f.issued.MaskedPan))
			}
			fixtures.ExpectMaskedPan16(f.got.Raw)
		}, Reqs("GET-08")),
		ConformanceEntry("gives nameOnCard, the name it was issued with (in any letter case)", SpecID("cards.gives-nameoncard-name-was"), func(f fetchedCard) {
			f.expectField("nameOnCard")
			if f.got.Raw["nameOnCard"] != nil {
				Expect(fixtures.SameName(f.got.NameOnCard, f.name)).To(BeTrue(), "nameOnCard %q is not the name given, %q", f.got.NameOnCard, f.name)
			}
		}, Reqs("GET-09")),
	}
}

// cardStateRules are the rules of the Card's other members: money, state,
// reference, address, theme and timestamps.
func cardStateRules() []any {
	return []any{
		ConformanceEntry("gives balanceAmount, the funding amount (the profile's initialBalance rule)", SpecID("cards.gives-balanceamount-balance"), func(f fetchedCard) {
			f.expectField("balanceAmount")
			ExpectAmountOneOf(f.got.Balance, InitialBalances(f.amount, f.fundFee), "the balance of a card funded with "+f.amount.String(), "issuance.initialBalance")
		}, Reqs("GET-10")),
		ConformanceEntry("gives currency USD", SpecID("cards.gives-currency-usd"), func(f fetchedCard) {
			f.expectField("currency")
			if f.got.Raw["currency"] != nil {
				Expect(f.got.Raw["currency"]).To(Equal("USD"))
			}
		}, Reqs("GET-11")),
		ConformanceEntry("gives status ACTIVE or FROZEN (a card starts in either; the harness makes it ACTIVE)", SpecID("cards.gives-status-active-card"), func(f fetchedCard) {
			f.expectField("status")
			Expect(f.issued.IssuedStatus).To(BeElementOf("ACTIVE", "FROZEN"), "the status of the card just issued")
			Expect(f.got.Status).To(Equal("ACTIVE"), "the status of the card once made ACTIVE")
		}, Reqs("GET-12")),
		// "COMPLETED is the only value shown. Transitions of createdStatus:
		// not shown": a string; COMPLETED, once the card reaches it within
		// cards.creationWait, under strict.createdStatusCompleted.
		ConformanceEntry("gives createdStatus as a string (COMPLETED under strict.createdStatusCompleted)", SpecID("cards.gives-createdstatus-completed"), func(ctx SpecContext, f fetchedCard) {
			f.expectField("createdStatus")
			if !Profile().Strict.CreatedStatusCompleted {
				return
			}
			deadline := time.Now().Add(Timeouts().CardCreation)
			for st := f.got.Raw["createdStatus"]; st != "COMPLETED" && time.Now().Before(deadline); st = fixtures.GetCard(ctx, f.got.ID).Raw["createdStatus"] {
				time.Sleep(Timeouts().FreshPoll)
			}
			Expect(fixtures.GetCard(ctx, f.got.ID).Raw["createdStatus"]).To(Equal("COMPLETED"), "createdStatus: COMPLETED is the only value the document shows (profile strict.createdStatusCompleted, within cards.creationWait)")
		}, Reqs("GET-13")),
		ConformanceEntry("gives reference, the merchant reference it was issued with", SpecID("cards.gives-reference-merchant"), func(f fetchedCard) {
			f.expectField("reference")
			if f.got.Raw["reference"] != nil && Profile().Issuance.ReferenceField != "" {
				Expect(f.got.Reference).To(Equal(f.ref))
			}
		}, Reqs("GET-14")),
		ConformanceEntry("gives billingAddress as an object of strings with a 2-letter country", SpecID("cards.gives-billingaddress-object"), func(f fetchedCard) {
			f.expectField("billingAddress")
		}, Reqs("GET-15")),
		ConformanceEntry("gives colorTheme as a string", SpecID("cards.gives-colortheme-string"), func(f fetchedCard) {
			f.expectField("colorTheme")
		}, Reqs("GET-16")),
		ConformanceEntry("gives createdAt and updatedAt as ISO 8601 UTC timestamps", SpecID("cards.gives-createdat-updatedat-iso"), func(f fetchedCard) {
			for _, name := range []string{"createdAt", "updatedAt"} {
				f.expectField(name)
				if f.got.Raw[name] == nil {
					continue // presence is not stated (profile strict.allCardFields)
				}
				s, _ := f.got.Raw[name].(string)
				ts, err := schemas.ParseISO8601(s)
				Expect(err).NotTo(HaveOccurred(), "%s %q is not an ISO 8601 timestamp", name, s)
				Expect(ts.UTC).To(BeTrue(), "%s %q is not in UTC (Z or a zero offset)", name, s)
			}
		}, Reqs("GET-17", "ENV-06")),
	}
}

var _ = Describe(oneCard, func() {
	ConformanceIt("addresses the same card by its reference as by its id", SpecID("cards.addresses-same-card-reference"),
		Reqs("GET-02"), Destructive,
		func(ctx SpecContext) {
			if Profile().Issuance.ReferenceField == "" {
				Skip("the profile says issuance takes no reference (issuance.referenceField empty)")
			}
			c := fixtures.NewCard(ctx, fixtures.WithAmount(M("1.00")))
			byRef := fixtures.GetCard(ctx, c.Reference)
			Expect(byRef.ID).To(Equal(c.ID))
			Expect(byRef.Reference).To(Equal(c.Reference))
			if byRef.MaskedPan != "" && c.MaskedPan != "" {
				Expect(byRef.MaskedPan).To(Equal(c.MaskedPan))
			}
		})

	ConformanceIt("returns the real-time balance: a withdrawal shows at once in a fresh GET", SpecID("cards.returns-real-time-balance"),
		Reqs("GET-03"), Destructive,
		func(ctx SpecContext) {
			c := fixtures.NewCard(ctx, fixtures.WithAmount(M("4.00")))
			fee := fixtures.GetConfig(ctx).WithdrawalFee
			resp := Must(API().Post(ctx, "/cards/"+client.Seg(c.ID)+"/withdraw", JSON{"amount": M("1.30").JSON()}))
			d := Data(ExpectEnvelopeA(resp, schemas.WithdrawResponse))
			answered, _ := d["card"].(JSON)
			got := fixtures.GetCard(ctx, c.ID).Balance
			ExpectCardDebited(c.Balance, got, M("1.30"), fee, "the balance in a fresh GET")
			Expect(got).To(EqualMoney(fixtures.CardFrom(answered).Balance), "a fresh GET shows the balance the withdrawal answered")
			if Profile().Issuance.ReferenceField != "" {
				Expect(fixtures.GetCard(ctx, c.Reference).Balance).To(EqualMoney(got), "by reference")
			}
		})

	ConformanceIt("returns the real-time balance after a card transaction", SpecID("cards.returns-real-time-balance-2"),
		Reqs("GET-03"), Destructive, Needs(CapTransactions),
		func(ctx SpecContext) {
			c := fixtures.NewCard(ctx, fixtures.WithAmount(M("4.00")))
			tx, err := Controls().Transact(ctx, c.ID, M("1.25").JSON())
			if err != nil {
				HarnessError("simulating a transaction: %v", err)
			}
			if !tx.Approved {
				HarnessError("the simulated transaction was declined (%v)", tx.DeclineReason)
			}
			Expect(fixtures.GetCard(ctx, c.ID).Balance).To(EqualMoney(c.Balance.Sub(M("1.25"))))
		})

	ConformanceIt("answers 404 for a card that does not exist", SpecID("cards.answers-404-card-does"),
		Reqs("GET-04", "ERR-10"),
		func(ctx SpecContext) {
			ExpectError(Must(API().Get(ctx, "/cards/"+client.Seg(fixtures.UnknownCardID(ctx)), nil)), http.StatusNotFound)
			ExpectError(Must(API().Get(ctx, "/cards/"+client.Seg(fixtures.UnknownCardReference()), nil)), http.StatusNotFound)
		})
})

// fetchedCard is a card issued then read with GET /cards/{id}; the rules of
// the table each check their own part of the answer.
type fetchedCard struct {
	issued          fixtures.Card
	name, ref       string // as given at issuance
	amount, fundFee Money
	answer          Answer
	got             fixtures.Card
}

func fetchIssuedCard(ctx SpecContext) fetchedCard {
	f := fetchedCard{name: fixtures.CardName(), ref: fixtures.Ref("card"), amount: M("1.50"), fundFee: fixtures.GetConfig(ctx).FundFee}
	f.issued = fixtures.NewCard(ctx, fixtures.WithName(f.name), fixtures.WithReference(f.ref), fixtures.WithAmount(f.amount))
	f.answer = ReadAnswer(Must(API().Get(ctx, "/cards/"+client.Seg(f.issued.ID), nil)), schemas.CardResponse)
	data, _ := f.answer.Body["data"].(JSON)
	f.got = fixtures.CardFrom(data)
	return f
}

// expectField asserts one Card field: no schema violation under it and, with
// the profile's strict.allCardFields, present and not null.
func (f fetchedCard) expectField(name string) {
	GinkgoHelper()
	f.answer.ExpectNoViolationUnder("/data/" + name)
	if Profile().Strict.AllCardFields {
		Expect(f.got.Raw[name]).NotTo(BeNil(), "Card.%s is absent or null (profile strict.allCardFields)", name)
	}
}

func cardFieldPointers() []string {
	out := make([]string, 0, len(fixtures.CardTableFields))
	for _, f := range fixtures.CardTableFields {
		out = append(out, "/data/"+f)
	}
	return out
}
