package cards

import (
	"net/http"
	"net/url"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/merchant-harness/mph/client"
	"github.com/merchant-harness/mph/schemas"
	. "github.com/merchant-harness/mph/suites/expect"
	"github.com/merchant-harness/mph/suites/fixtures"
	. "github.com/merchant-harness/mph/suites/framework"
	. "github.com/merchant-harness/mph/suites/specsupport"
)

// needReference skips when the target takes no card reference at issuance.
func needReference() {
	GinkgoHelper()
	if Profile().Issuance.ReferenceField == "" {
		Skip("the profile says issuance takes no reference (issuance.referenceField empty)")
	}
}

var _ = Describe("Cards addressed by reference, not-found messages and PCI data", func() {
	byReferenceTable()
	unknownCardTable()
	pciSpecs()
})

// byReferenceTable: "A card is addressed in paths by id or by its
// reference": every endpoint taking "Path id as above", the writes included.
func byReferenceTable() {
	ConformanceTable("addresses a card by its reference on the writes",
		func(ctx SpecContext, rule func(SpecContext)) { needReference(); rule(ctx) },
		Destructive,
		ConformanceEntry("withdraws from a card addressed by its reference: the same card's balance falls", SpecID("cards.withdraws-card-addressed"), func(ctx SpecContext) {
			c := fixtures.NewCard(ctx, fixtures.WithAmount(M("3.00")))
			fee := fixtures.GetConfig(ctx).WithdrawalFee
			got := WithdrawOK(ctx, c.Reference, M("1.10"))
			Expect(got.ID).To(Equal(c.ID), "the answer's card is the one addressed by reference")
			ExpectCardDebited(c.Balance, got.Balance, M("1.10"), fee, "the balance in the answer")
			ExpectCardDebited(c.Balance, fixtures.GetCard(ctx, c.ID).Balance, M("1.10"), fee, "the balance in a fresh GET by id")
		}, Reqs("GET-02")),
		ConformanceEntry("freezes and unfreezes a card addressed by its reference, confirmed by a fresh GET by id", SpecID("cards.freezes-unfreezes-card"), func(ctx SpecContext) {
			c := fixtures.NewCard(ctx, fixtures.WithAmount(M("1.00")))
			for _, to := range []string{"FROZEN", "ACTIVE"} {
				d := Data(ExpectEnvelopeA(patchStatus(ctx, c.Reference, JSON{"status": to}), schemas.StatusResponse))
				card, _ := d["card"].(JSON)
				Expect(fixtures.CardFrom(card).ID).To(Equal(c.ID), "the answer's card is the one addressed by reference")
				Expect(fixtures.CardFrom(card).Status).To(Equal(to))
				Expect(fixtures.GetCard(ctx, c.ID).Status).To(Equal(to), "status in a fresh GET by id")
			}
		}, Reqs("GET-02")),
	)
}

// expectCardNotFound asserts scenario 5 on endpoint e, by an unknown id and
// by a reference that does not exist.
func expectCardNotFound(ctx SpecContext, e CardEndpoint) {
	GinkgoHelper()
	for _, addr := range []string{fixtures.UnknownCardID(ctx), fixtures.UnknownCardReference()} {
		By(e.Name + " " + addr)
		body := ExpectErrorWithPath(Must(API().Do(ctx, e.Request(addr))), http.StatusNotFound)
		ExpectMessageMeans(body, e.Name+": scenario 5, the virtual card was not found", SaysCardNotFound)
	}
}

// unknownCardTable: scenario 5 on every endpoint below /cards/{id} (GET
// /cards/{id} itself: the scenario 5 spec of the Errors suite).
func unknownCardTable() {
	ConformanceTable("answers an unknown card with 404 whose message says the virtual card was not found",
		expectCardNotFound,
		CardEndpointEntries(map[string]SpecID{
			"GET /cards/{id}/secure":            "errors.get-cards-id-secure",
			"POST /cards/{id}/withdraw":         "errors.post-cards-id-withdraw-2",
			"PUT /cards/{id}/spend-limits":      "errors.put-cards-id-spend-2",
			"PATCH /cards/{id}/status":          "errors.patch-cards-id-status-2",
			"PATCH /cards/{id}/contact":         "errors.patch-cards-id-contact-2",
			"POST /cards/{id}/simulate-webhook": "errors.post-cards-id-simulate-2",
		}, []string{"GET /cards/{id}"}, func(e CardEndpoint) []any {
			if e.Name == "POST /cards/{id}/simulate-webhook" {
				return []any{Reqs("ERR-18"), Needs(CapTestEnvironment)}
			}
			return []any{Reqs("ERR-18")}
		})...,
	)
}

// pciSpecs: card credentials stay in the secure details.
func pciSpecs() {
	// "This data is PCI-sensitive; it must never reach public clients": the
	// revealed PAN and CVV appear in no other answer about the card.
	ConformanceIt("keeps a card's full number and CVV out of every answer but the secure details (issuance, get, list, withdraw, limits, status, contact, webhook simulation)", SpecID("secure-reveal.keeps-card-s-full"),
		Reqs("SECURE-11"), Destructive, Needs(CapTestEnvironment),
		func(ctx SpecContext) {
			c := fixtures.AwaitMaskedPan(ctx, fixtures.NewCard(ctx, fixtures.WithAmount(M("2.00"))))
			resp := c.Answer
			sec := Data(ExpectEnvelopeA(Must(API().Get(ctx, CardURL(c.ID, "/secure"), nil)), schemas.SecureResponse))
			num, _ := sec["cardNumber"].(string)
			if num == "" {
				num, _ = sec["pan"].(string)
			}
			digits := NonDigit.ReplaceAllString(num, "")
			Expect(len(digits)).To(Equal(16), "the secure details carry the 16-digit PAN (not printed)")
			pan := PANPattern(digits)
			search := c.Reference
			if l4 := last4(c.MaskedPan); l4 != "" {
				search = l4
			}
			answers := []*client.Response{resp,
				Must(API().Get(ctx, CardURL(c.ID, ""), nil)),
				Must(API().Get(ctx, "/cards", url.Values{"search": {search}})),
				Must(API().Post(ctx, CardURL(c.ID, "/withdraw"), JSON{"amount": M("0.10").JSON()})),
				Must(API().Put(ctx, CardURL(c.ID, "/spend-limits"), JSON{"transactionLimit": M("1.50").JSON()})),
				Must(API().Patch(ctx, CardURL(c.ID, "/status"), JSON{"status": "FROZEN"})),
				Must(API().Patch(ctx, CardURL(c.ID, "/status"), JSON{"status": "ACTIVE"})),
				Must(API().Patch(ctx, CardURL(c.ID, "/contact"), JSON{"email": fixtures.Ref("pci") + "@" + Profile().TestData.EmailDomain})),
				Must(API().Post(ctx, CardURL(c.ID, "/simulate-webhook"), JSON{"event_type": "authorization"})),
			}
			if c.Reference != "" {
				answers = append(answers, Must(API().Get(ctx, CardURL(c.Reference, ""), nil)))
			}
			for _, a := range answers {
				what := a.Exchange.Method + " " + a.Exchange.URL
				Expect(a.Status).To(BeNumerically("<", 500), "%s failed", what)
				Expect(pan.Match(a.Body)).To(BeFalse(), "PCI: %s carries the card's full number (not printed)", what)
				var doc any
				if a.JSON(&doc) == nil {
					Expect(FindCredential(doc, "")).To(BeEmpty(), "PCI: %s carries a card credential member", what)
				}
			}
		})
}
