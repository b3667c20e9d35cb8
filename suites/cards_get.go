package suites

import (
	"net/http"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/merchant-harness/mph/client"
	"github.com/merchant-harness/mph/schemas"
	. "github.com/merchant-harness/mph/suites/framework"
)

// oneCard is the container of this file's specs (Describe blocks of one text).
const oneCard = "One card: GET /cards/{id}"

var _ = Describe(oneCard, func() {
	issued := Shared(fetchIssuedCard)
	ConformanceTable("answers with the Card addressed by its id",
		func(ctx SpecContext, rule func(fetchedCard)) { rule(issued(ctx)) },
		Destructive,
		ConformanceEntry("answers 200 in Envelope A whose data is the Card addressed", SpecID("cards.answers-200-envelope-data"), func(f fetchedCard) {
			f.answer.ExpectEnvelopeA(schemas.CardResponse, cardFieldPointers())
			Expect(f.got.ID).To(Equal(f.issued.ID))
		}, Reqs("GET-01")),
		ConformanceEntry("gives id as a crd_ string", SpecID("cards.gives-id-crd-string"), func(f fetchedCard) {
			f.expectField("id")
		}, Reqs("GET-05")),
		ConformanceEntry("gives cardType VIRTUAL", SpecID("cards.gives-cardtype-virtual"), func(f fetchedCard) {
			f.expectField("cardType")
			Expect(f.got.Raw["cardType"]).To(Equal("VIRTUAL"))
		}, Reqs("GET-06")),
		ConformanceEntry("gives cardBrand as a string", SpecID("cards.gives-cardbrand-string"), func(f fetchedCard) {
			f.expectField("cardBrand")
		}, Reqs("GET-07")),
		ConformanceEntry("gives maskedPan, the issued card's masked number", SpecID("cards.gives-maskedpan-issued-card"), func(f fetchedCard) {
			f.expectField("maskedPan")
			Expect(f.got.MaskedPan).To(Equal(f.issued.MaskedPan))
			ExpectMaskedPan16(f.got.Raw)
		}, Reqs("GET-08")),
		ConformanceEntry("gives nameOnCard, the name it was issued with", SpecID("cards.gives-nameoncard-name-was"), func(f fetchedCard) {
			f.expectField("nameOnCard")
			Expect(f.got.NameOnCard).To(Equal(f.issued.NameOnCard))
		}, Reqs("GET-09")),
		ConformanceEntry("gives balanceAmount, the balance the issuance answer stated", SpecID("cards.gives-balanceamount-balance"), func(f fetchedCard) {
			f.expectField("balanceAmount")
			Expect(f.got.Balance).To(EqualMoney(f.issued.Balance))
		}, Reqs("GET-10")),
		ConformanceEntry("gives currency USD", SpecID("cards.gives-currency-usd"), func(f fetchedCard) {
			f.expectField("currency")
			Expect(f.got.Raw["currency"]).To(Equal("USD"))
		}, Reqs("GET-11")),
		ConformanceEntry("gives status ACTIVE for a card just issued", SpecID("cards.gives-status-active-card"), func(f fetchedCard) {
			f.expectField("status")
			Expect(f.got.Status).To(Equal("ACTIVE"))
		}, Reqs("GET-12")),
		ConformanceEntry("gives createdStatus COMPLETED", SpecID("cards.gives-createdstatus-completed"), func(f fetchedCard) {
			f.expectField("createdStatus")
			Expect(f.got.Raw["createdStatus"]).To(Equal("COMPLETED"), "createdStatus: COMPLETED is the only value the document shows")
		}, Reqs("GET-13")),
		ConformanceEntry("gives reference, the merchant reference it was issued with", SpecID("cards.gives-reference-merchant"), func(f fetchedCard) {
			f.expectField("reference")
			Expect(f.got.Reference).To(Equal(f.issued.Reference))
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
	)
})

var _ = Describe(oneCard, func() {
	ConformanceIt("addresses the same card by its reference as by its id", SpecID("cards.addresses-same-card-reference"),
		Reqs("GET-02"), Destructive,
		func(ctx SpecContext) {
			if Profile().Issuance.ReferenceField == "" {
				Skip("the profile says issuance takes no reference (issuance.referenceField empty)")
			}
			c := NewCard(ctx, WithAmount(M("1.00")))
			byRef := GetCard(ctx, c.Reference)
			Expect(byRef.ID).To(Equal(c.ID))
			Expect(byRef.Reference).To(Equal(c.Reference))
			Expect(byRef.MaskedPan).To(Equal(c.MaskedPan))
		})

	ConformanceIt("returns the real-time balance: a withdrawal shows at once in a fresh GET", SpecID("cards.returns-real-time-balance"),
		Reqs("GET-03"), Destructive,
		func(ctx SpecContext) {
			c := NewCard(ctx, WithAmount(M("4.00")))
			resp := Must(API().Post(ctx, "/cards/"+client.Seg(c.ID)+"/withdraw", JSON{"amount": M("1.30").JSON()}))
			ExpectEnvelopeA(resp, schemas.WithdrawResponse)
			want := c.Balance.Sub(M("1.30"))
			Expect(GetCard(ctx, c.ID).Balance).To(EqualMoney(want))
			if Profile().Issuance.ReferenceField != "" {
				Expect(GetCard(ctx, c.Reference).Balance).To(EqualMoney(want), "by reference")
			}
		})

	ConformanceIt("returns the real-time balance after a card transaction", SpecID("cards.returns-real-time-balance-2"),
		Reqs("GET-03"), Destructive, Needs(CapTransactions),
		func(ctx SpecContext) {
			c := NewCard(ctx, WithAmount(M("4.00")))
			tx, err := Controls().Transact(ctx, c.ID, M("1.25").JSON())
			if err != nil {
				HarnessError("simulating a transaction: %v", err)
			}
			if !tx.Approved {
				HarnessError("the simulated transaction was declined (%v)", tx.DeclineReason)
			}
			Expect(GetCard(ctx, c.ID).Balance).To(EqualMoney(c.Balance.Sub(M("1.25"))))
		})

	ConformanceIt("answers 404 for a card that does not exist", SpecID("cards.answers-404-card-does"),
		Reqs("GET-04", "ERR-10"),
		func(ctx SpecContext) {
			ExpectError(Must(API().Get(ctx, "/cards/crd_"+Cfg().RunID+"nosuchcard", nil)), http.StatusNotFound)
			ExpectError(Must(API().Get(ctx, "/cards/"+client.Seg(Cfg().RunID+"-no-such-reference"), nil)), http.StatusNotFound)
		})
})

// fetchedCard is a card issued then read with GET /cards/{id}; the rules of
// the table each check their own part of the answer.
type fetchedCard struct {
	issued Card
	answer Answer
	got    Card
}

func fetchIssuedCard(ctx SpecContext) fetchedCard {
	c := NewCard(ctx, WithAmount(M("1.50")))
	a := ReadAnswer(Must(API().Get(ctx, "/cards/"+client.Seg(c.ID), nil)), schemas.CardResponse)
	data, _ := a.Body["data"].(JSON)
	return fetchedCard{issued: c, answer: a, got: CardFrom(data)}
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
	out := make([]string, 0, len(CardTableFields))
	for _, f := range CardTableFields {
		out = append(out, "/data/"+f)
	}
	return out
}
