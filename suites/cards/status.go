package cards

import (
	"context"
	"net/http"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/merchant-harness/mph/client"
	"github.com/merchant-harness/mph/schemas"
	. "github.com/merchant-harness/mph/suites/expect"
	"github.com/merchant-harness/mph/suites/fixtures"
	. "github.com/merchant-harness/mph/suites/framework"
	. "github.com/merchant-harness/mph/suites/specsupport"
)

func patchStatus(ctx context.Context, id string, body any) *client.Response {
	GinkgoHelper()
	return Must(API().Patch(ctx, "/cards/"+client.Seg(id)+"/status", body))
}

// expectStatusAnswer sets the status of c and checks the answer: Envelope A,
// a message stating the new status (StatesStatus: its words only under
// strict.messageWording) and the card with it.
func expectStatusAnswer(ctx context.Context, c fixtures.Card, to string) fixtures.Card {
	GinkgoHelper()
	d := Data(ExpectEnvelopeA(patchStatus(ctx, c.ID, JSON{"status": to}), schemas.StatusResponse))
	msg, _ := d["message"].(string)
	Expect(StatesStatus(msg, to)).To(BeTrue(), "data.message %q must state the new status %s (it names the other one, or is empty; its words are judged under strict.messageWording)", msg, to)
	card, _ := d["card"].(JSON)
	Expect(card).NotTo(BeNil(), "data.card")
	got := fixtures.CardFrom(card)
	Expect(got.Status).To(Equal(to), "card status in the answer")
	return got
}

var _ = Describe("Card status: PATCH /cards/{id}/status", func() {
	// Each entry changes the status of a card of its own.
	ConformanceTable("moves a card between ACTIVE and FROZEN",
		func(ctx SpecContext, rule func(SpecContext, fixtures.Card)) {
			rule(ctx, fixtures.NewCard(ctx, fixtures.WithAmount(M("3.33"))))
		},
		Destructive,
		ConformanceEntry("answers 200 in Envelope A with a message stating the new status and the Card with it", SpecID("card-status.answers-200-envelope-message"), func(ctx SpecContext, c fixtures.Card) {
			for _, to := range []string{"FROZEN", "ACTIVE"} {
				got := expectStatusAnswer(ctx, c, to)
				Expect(got.ID).To(Equal(c.ID))
			}
		}, Reqs("STATUS-01")),
		ConformanceEntry("freezes an ACTIVE card, persisted: a fresh GET shows FROZEN", SpecID("card-status.freezes-active-card-persisted"), func(ctx SpecContext, c fixtures.Card) {
			Expect(fixtures.GetCard(ctx, c.ID).Status).To(Equal("ACTIVE"))
			expectStatusAnswer(ctx, c, "FROZEN")
			Expect(fixtures.GetCard(ctx, c.ID).Status).To(Equal("FROZEN"), "card status in a fresh GET")
			if Profile().Issuance.ReferenceField != "" {
				Expect(fixtures.GetCard(ctx, c.Reference).Status).To(Equal("FROZEN"), "card status in a fresh GET by reference")
			}
		}, Reqs("STATUS-03")),
		ConformanceEntry("unfreezes a FROZEN card, persisted: a fresh GET shows ACTIVE", SpecID("card-status.unfreezes-frozen-card"), func(ctx SpecContext, c fixtures.Card) {
			fixtures.SetCardStatus(ctx, c.ID, "FROZEN")
			expectStatusAnswer(ctx, c, "ACTIVE")
			Expect(fixtures.GetCard(ctx, c.ID).Status).To(Equal("ACTIVE"), "card status in a fresh GET")
		}, Reqs("STATUS-04")),
		ConformanceEntry("keeps a frozen card, not terminated, with its balance", SpecID("card-status.keeps-frozen-card-not"), func(ctx SpecContext, c fixtures.Card) {
			fixtures.SetCardStatus(ctx, c.ID, "FROZEN")
			fresh := fixtures.GetCard(ctx, c.ID)
			Expect(fresh.Status).To(Equal("FROZEN"), "a frozen card is not terminated: it stays FROZEN")
			Expect(fresh.Balance).To(EqualMoney(c.Balance), "the balance is kept")
		}, Reqs("STATUS-05")),
	)

	// A missing status is a missing parameter: payload validation, documented
	// as 400 with an array of constraint violations. A value other than
	// exactly ACTIVE or FROZEN must be refused, but which error is not shown
	// ("an invalid status value"): the profile's errors.status.invalidValue,
	// else any 4xx. "" is either: a value missing, or not one of the values.
	ConformanceIt("refuses a missing status with 400 and a validation message array, a status other than exactly ACTIVE or FROZEN with a 4xx error (the profile's status), and an empty one either way, keeping the status", SpecID("card-status.refuses-missing-empty-status"),
		Reqs("STATUS-02", "ERR-04"), Destructive,
		func(ctx SpecContext) {
			c := fixtures.NewCard(ctx, fixtures.WithAmount(M("1.00")))
			By("sending {}")
			ExpectValidationError(patchStatus(ctx, c.ID, JSON{}))
			By(`sending {"status":""}`)
			expectEmptyValueRefused(patchStatus(ctx, c.ID, JSON{"status": ""}))
			for _, body := range []JSON{{"status": "DELETED"}, {"status": "frozen"}, {"status": "TERMINATED"}} {
				By("sending " + NumberString(body))
				ExpectRefused(patchStatus(ctx, c.ID, body), "invalidValue")
			}
			Expect(fixtures.GetCard(ctx, c.ID).Status).To(Equal("ACTIVE"))
		})

	ConformanceIt("answers 404 for a card that does not exist", SpecID("card-status.answers-404-card-does"),
		Reqs("STATUS-06", "ERR-10"),
		func(ctx SpecContext) {
			ExpectError(patchStatus(ctx, fixtures.UnknownCardID(ctx), JSON{"status": "FROZEN"}), http.StatusNotFound)
		})
})

// expectEmptyValueRefused asserts the refusal of "" for a member whose
// values are listed: a value missing or malformed (400 with the error
// envelope, the validation array or a message of its own) or a value not
// among them (the profile's errors.status.invalidValue, else any 4xx);
// which one is not shown.
func expectEmptyValueRefused(resp *client.Response) {
	GinkgoHelper()
	if resp.Status == http.StatusBadRequest {
		ExpectError(resp, http.StatusBadRequest)
		return
	}
	ExpectRefused(resp, "invalidValue")
}
