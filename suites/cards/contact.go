package cards

import (
	"encoding/json"
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

// patchContact sends PATCH /cards/{idOrRef}/contact.
func patchContact(ctx SpecContext, idOrRef string, body any) *client.Response {
	GinkgoHelper()
	return Must(API().Patch(ctx, CardURL(idOrRef, "/contact"), body))
}

// expectContactUpdated asserts the documented success answer: 200,
// Envelope B, data = success (boolean) and message (string). That success
// is true is not stated (an update "with the card provider" may be
// queued): true only under strict.contactSuccessTrue.
func expectContactUpdated(resp *client.Response) {
	GinkgoHelper()
	body := ExpectEnvelopeB(resp, schemas.ContactResponse)
	Expect(body["success"]).To(BeAssignableToTypeOf(true), "Envelope B success is a boolean")
	d := Data(body)
	Expect(d["success"]).To(BeAssignableToTypeOf(true), "data.success is a boolean")
	Expect(d["message"]).To(BeAssignableToTypeOf(""), "data.message is a string")
	if Profile().Strict.ContactSuccessTrue {
		Expect(body["success"]).To(BeTrue(), "Envelope B success must be true on a 200 (profile strict.contactSuccessTrue)")
		Expect(d).To(HaveKeyWithValue("success", true), "data.success must be true on a 200 (profile strict.contactSuccessTrue)")
	}
}

// mobiles returns a new mobile number in the local and the international
// form (a fictional US number of the identity data: the cards' customers
// are US residents; numbers are unique, as one mobile per cardholder may be
// a rule).
func mobiles() (local, international string) {
	id := fixtures.NewIdentity()
	return id.Phone, id.PhoneCountryCode + id.Phone
}

var _ = Describe("Card contact: PATCH /cards/{id}/contact", func() {
	contactUpdateTable()
	contactRefusalSpecs()
})

// contactUpdateTable: each documented form of the body is accepted; every
// entry also proves the answer (200, Envelope B, data.success and
// data.message).
func contactUpdateTable() {
	ConformanceTable("answers 200 in Envelope B (data.success, data.message) and",
		func(ctx SpecContext, rule func(SpecContext, fixtures.Card)) {
			rule(ctx, fixtures.NewCard(ctx, fixtures.WithAmount(M("1.00"))))
		},
		Destructive, Reqs("CONTACT-01"),
		ConformanceEntry("updates the email alone", SpecID("contact.updates-email-alone"), func(ctx SpecContext, c fixtures.Card) {
			expectContactUpdated(patchContact(ctx, c.ID, JSON{"email": fixtures.Ref("mail") + "@" + Profile().TestData.EmailDomain}))
		}, Reqs("CONTACT-02")),
		ConformanceEntry("updates the mobile alone in local form", SpecID("contact.updates-mobile-alone-local"), func(ctx SpecContext, c fixtures.Card) {
			local, _ := mobiles()
			expectContactUpdated(patchContact(ctx, c.ID, JSON{"mobile": local}))
		}, Reqs("CONTACT-03")),
		ConformanceEntry("updates the mobile alone in international form with a leading +", SpecID("contact.updates-mobile-alone"), func(ctx SpecContext, c fixtures.Card) {
			_, intl := mobiles()
			expectContactUpdated(patchContact(ctx, c.ID, JSON{"mobile": intl}))
		}, Reqs("CONTACT-04")),
		ConformanceEntry("updates email and mobile together by the card's reference, keeping its status and balance", SpecID("contact.updates-email-mobile-together"), func(ctx SpecContext, c fixtures.Card) {
			_, intl := mobiles()
			expectContactUpdated(patchContact(ctx, c.Reference, JSON{"email": fixtures.Ref("mail") + "@" + Profile().TestData.EmailDomain, "mobile": intl}))
			after := fixtures.GetCard(ctx, c.ID)
			Expect(after.Status).To(Equal(c.Status))
			Expect(after.Balance).To(EqualMoney(c.Balance))
		}, Reqs("CONTACT-05")),
	)
}

// contactRefusalSpecs: malformed contacts, LIVE credentials, unknown cards.
func contactRefusalSpecs() {
	ConformanceIt("refuses contact fields of the wrong type with 400 and the error envelope", SpecID("contact.refuses-contact-fields-wrong"),
		Reqs("CONTACT-06"), Destructive,
		func(ctx SpecContext) {
			c := fixtures.NewCard(ctx, fixtures.WithAmount(M("1.00")))
			local, _ := mobiles()
			for _, body := range []JSON{
				{"email": 12345},
				{"mobile": json.Number(local)},
				{"email": []any{fixtures.Ref("mail") + "@" + Profile().TestData.EmailDomain}},
				{"mobile": JSON{"number": local}},
			} {
				By("sending " + NumberString(body))
				ExpectErrorWithPath(patchContact(ctx, c.ID, body), http.StatusBadRequest)
			}
		})

	// The document gives the mobile's forms (local, or international with a
	// leading +) but not that other forms are refused: run only when the
	// profile says the target refuses them; the status is the profile's
	// errors.status.invalidFormat, else any 4xx.
	ConformanceIt("refuses a mobile in neither local nor + form with a 4xx error envelope, when the profile says the target refuses other forms", SpecID("contact.refuses-mobile-neither-local"),
		Reqs("CONTACT-06"), Destructive,
		func(ctx SpecContext) {
			SkipUnlessRefuses("contactMobile")
			c := fixtures.NewCard(ctx, fixtures.WithAmount(M("1.00")))
			for _, m := range []string{"call me maybe", "++2348031234567", "0803-CALL-NOW", "+"} {
				By("mobile " + m)
				ExpectRefused(patchContact(ctx, c.ID, JSON{"mobile": m}), "invalidFormat")
			}
		})

	ConformanceIt("works in LIVE too: a LIVE merchant at KYB Tier 2+ updates the contact of its LIVE card", SpecID("contact.works-live-too-live"),
		Reqs("CONTACT-08"), Destructive, Needs(CapLiveTier2),
		func(ctx SpecContext) {
			// Destructive + Live: runs only with --allow-live (it issues a
			// LIVE card funded with 1.00 USD plus the creation fee).
			live := APIAs(*Cfg().LiveTier2)
			card := fixtures.NewCardAs(ctx, live, fixtures.NewCustomerAs(ctx, live), fixtures.CardName())
			_, intl := mobiles()
			expectContactUpdated(Must(live.Patch(ctx, CardURL(card.ID, "/contact"), JSON{"email": fixtures.Ref("live") + "@" + Profile().TestData.EmailDomain, "mobile": intl})))
		})

	ConformanceIt("answers 404 for an unknown card", SpecID("errors.answers-404-unknown-card"),
		Reqs("ERR-18"),
		func(ctx SpecContext) {
			body := ExpectErrorWithPath(patchContact(ctx, fixtures.UnknownCardID(ctx), JSON{"email": fixtures.Ref("mail") + "@" + Profile().TestData.EmailDomain}), http.StatusNotFound)
			ExpectMessageMeans(body, "scenario 5: the virtual card was not found", SaysCardNotFound)
		})
}
