package suites

import (
	"net/http"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/merchant-harness/mph/client"
	"github.com/merchant-harness/mph/schemas"
	. "github.com/merchant-harness/mph/suites/framework"
)

var _ = Describe("One card: GET /cards/{id}", func() {
	ConformanceIt("answers 200 in Envelope A with the Card addressed by its id",
		Reqs("GET-01", "GET-05", "GET-06", "GET-07", "GET-08", "GET-09", "GET-10", "GET-11", "GET-12", "GET-13", "GET-14", "GET-15", "GET-16", "GET-17", "ENV-06"), Destructive,
		func(ctx SpecContext) {
			c := NewCard(ctx, WithAmount(M("1.50")))
			resp := Must(API().Get(ctx, "/cards/"+client.Seg(c.ID), nil))
			got := CardFrom(Data(ExpectEnvelopeA(resp, schemas.CardResponse)))
			Expect(got.ID).To(Equal(c.ID))
			Expect(got.Reference).To(Equal(c.Reference))
			Expect(got.MaskedPan).To(Equal(c.MaskedPan))
			Expect(got.NameOnCard).To(Equal(c.NameOnCard))
			Expect(got.Balance).To(EqualMoney(c.Balance), "the balance the issuance answer stated")
			Expect(got.Status).To(Equal("ACTIVE"))
			ExpectCardFields(got.Raw)
			Expect(got.Raw["cardType"]).To(Equal("VIRTUAL"))
			Expect(got.Raw["currency"]).To(Equal("USD"))
			for _, f := range []string{"createdAt", "updatedAt"} {
				if got.Raw[f] == nil {
					continue // presence is not stated (profile strict.allCardFields)
				}
				s, _ := got.Raw[f].(string)
				_, err := time.Parse(time.RFC3339Nano, s)
				Expect(err).NotTo(HaveOccurred(), "%s %q is not an ISO 8601 timestamp", f, s)
			}
		})

	ConformanceIt("addresses the same card by its reference as by its id",
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

	ConformanceIt("returns the real-time balance: a withdrawal shows at once in a fresh GET",
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

	ConformanceIt("returns the real-time balance after a card transaction",
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

	ConformanceIt("answers 404 for a card that does not exist",
		Reqs("GET-04", "ERR-10"),
		func(ctx SpecContext) {
			ExpectError(Must(API().Get(ctx, "/cards/crd_"+Cfg().RunID+"nosuchcard", nil)), http.StatusNotFound)
			ExpectError(Must(API().Get(ctx, "/cards/"+client.Seg(Cfg().RunID+"-no-such-reference"), nil)), http.StatusNotFound)
		})
})
