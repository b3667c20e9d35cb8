package cards

import (
	"net/http"
	"regexp"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/merchant-harness/mph/client"
	"github.com/merchant-harness/mph/schemas"
	. "github.com/merchant-harness/mph/suites/expect"
	"github.com/merchant-harness/mph/suites/fixtures"
	. "github.com/merchant-harness/mph/suites/framework"
	. "github.com/merchant-harness/mph/suites/specsupport"
)

var groupedPAN = regexp.MustCompile(`^[0-9]{4} [0-9]{4} [0-9]{4} [0-9]{4}$`)

// secureRule asserts one rule of the secure details d of card c.
type secureRule func(c fixtures.Card, d JSON)

// present reports whether the secure details carry member, non-null; a
// member missing is a failure only under strict.allListedFields (the
// document lists the members without saying which are always present; the
// credentials themselves are checked by their own rules).
func present(d JSON, member string) bool {
	GinkgoHelper()
	if d[member] != nil {
		return true
	}
	Expect(Profile().Strict.AllListedFields).To(BeFalse(), "the secure details carry no %s (profile strict.allListedFields)", member)
	return false
}

// The rules of the secure details, one per requirement; checkSecure applies
// them all, the table of the spec below one per entry. The credentials
// (the PAN as cardNumber or pan, the cvv, the expiry) must be there; the
// other members are checked when present.
var (
	secureIdentifiesCard secureRule = func(c fixtures.Card, d JSON) {
		GinkgoHelper()
		if present(d, "cardId") {
			Expect(d["cardId"]).To(Equal(c.ID), "cardId names the card revealed")
		}
		// reference may be null for a card issued without one.
		if c.Reference != "" && present(d, "reference") {
			Expect(d["reference"]).To(Equal(c.Reference), "reference of the card revealed")
		}
	}
	secureMaskedPan secureRule = func(c fixtures.Card, d JSON) {
		GinkgoHelper()
		if !present(d, "maskedPan") {
			return
		}
		sm, _ := d["maskedPan"].(string)
		Expect(NonDigit.ReplaceAllString(sm, "")).NotTo(BeEmpty(), "maskedPan %q shows no digits", sm)
		if c.MaskedPan != "" {
			Expect(NonDigit.ReplaceAllString(sm, "")).To(Equal(NonDigit.ReplaceAllString(c.MaskedPan, "")), "maskedPan %q shows the digits of the card's %q", sm, c.MaskedPan)
		}
	}
	// Never print the PAN itself: compare and report only masked forms.
	secureCardNumber secureRule = func(c fixtures.Card, d JSON) {
		GinkgoHelper()
		Expect(d["cardNumber"] != nil || d["pan"] != nil).To(BeTrue(), "the secure details carry the full PAN as cardNumber or pan")
		if !present(d, "cardNumber") {
			return
		}
		num, _ := d["cardNumber"].(string)
		Expect(groupedPAN.MatchString(num)).To(BeTrue(), "cardNumber is not 16 digits grouped in fours with spaces")
		digits := strings.ReplaceAll(num, " ", "")
		md := NonDigit.ReplaceAllString(c.MaskedPan, "")
		if c.MaskedPan == "" {
			return // the card shows no maskedPan to agree with (its presence is not stated)
		}
		Expect(len(md)).To(BeNumerically(">=", 10), "maskedPan %q does not show 10 digits", c.MaskedPan)
		Expect(digits[:6] == md[:6]).To(BeTrue(), "the first 6 digits of cardNumber do not agree with maskedPan %s", c.MaskedPan)
		Expect(digits[12:] == md[len(md)-4:]).To(BeTrue(), "the last 4 digits of cardNumber do not agree with maskedPan %s", c.MaskedPan)
	}
	securePan secureRule = func(_ fixtures.Card, d JSON) {
		GinkgoHelper()
		if !present(d, "pan") {
			return
		}
		pan, _ := d["pan"].(string)
		Expect(groupedPAN.MatchString(pan)).To(BeTrue(), "pan is not in the form of cardNumber (16 digits grouped in fours with spaces)")
		if num, ok := d["cardNumber"].(string); ok {
			Expect(pan == num).To(BeTrue(), "pan differs from cardNumber")
		}
	}
	secureCvv secureRule = func(_ fixtures.Card, d JSON) {
		GinkgoHelper()
		_, isStr := d["cvv"].(string)
		Expect(isStr).To(BeTrue(), "cvv is a string")
	}
	secureExpiryMonth secureRule = func(_ fixtures.Card, d JSON) {
		GinkgoHelper()
		Expect(d["expiryMonth"] != nil || d["expirationDate"] != nil).To(BeTrue(), "the secure details carry the expiry as expiryMonth and expiryYear or expirationDate")
		if present(d, "expiryMonth") {
			Expect(d["expiryMonth"]).To(MatchRegexp(`^(0[1-9]|1[0-2])$`), "expiryMonth is a 2-digit string")
		}
	}
	secureExpiryYear secureRule = func(_ fixtures.Card, d JSON) {
		GinkgoHelper()
		Expect(d["expiryYear"] != nil || d["expirationDate"] != nil).To(BeTrue(), "the secure details carry the expiry as expiryMonth and expiryYear or expirationDate")
		if present(d, "expiryYear") {
			Expect(d["expiryYear"]).To(MatchRegexp(`^[0-9]{4}$`), "expiryYear is a 4-digit string")
		}
	}
	secureExpirationDate secureRule = func(_ fixtures.Card, d JSON) {
		GinkgoHelper()
		if !present(d, "expirationDate") {
			return
		}
		mm, _ := d["expiryMonth"].(string)
		yyyy, _ := d["expiryYear"].(string)
		Expect(d["expirationDate"]).To(MatchRegexp(`^[0-9]{2}/[0-9]{2}$`), "expirationDate is MM/YY")
		if len(yyyy) == 4 && mm != "" {
			Expect(d["expirationDate"]).To(Equal(mm+"/"+yyyy[2:]), "expirationDate agrees with expiryMonth/expiryYear")
		}
	}
	secureHolder secureRule = func(c fixtures.Card, d JSON) {
		GinkgoHelper()
		if present(d, "nameOnCard") {
			name, isStr := d["nameOnCard"].(string)
			Expect(isStr).To(BeTrue(), "nameOnCard is a string")
			if c.NameOnCard != "" {
				Expect(fixtures.SameName(name, c.NameOnCard)).To(BeTrue(), "nameOnCard %q agrees with the card's %q", name, c.NameOnCard)
			}
		}
		if present(d, "billingAddress") {
			Expect(d["billingAddress"]).To(BeAssignableToTypeOf(JSON{}), "billingAddress is an object")
		}
	}
)

// checkSecure asserts every rule of the secure details of card c (validated
// by schema first).
func checkSecure(c fixtures.Card, d JSON) {
	GinkgoHelper()
	for _, rule := range []secureRule{secureIdentifiesCard, secureMaskedPan, secureCardNumber, securePan, secureCvv,
		secureExpiryMonth, secureExpiryYear, secureExpirationDate, secureHolder} {
		rule(c, d)
	}
}

// revealedCard is a card issued then revealed with GET /cards/{id}/secure;
// the entries of the table each check their own part of the answer.
type revealedCard struct {
	card   fixtures.Card
	answer Answer
}

func revealIssuedCard(ctx SpecContext) revealedCard {
	c := fixtures.AwaitMaskedPan(ctx, fixtures.NewCard(ctx, fixtures.WithAmount(M("1.00"))))
	return revealedCard{card: c, answer: ReadAnswer(Must(API().Get(ctx, "/cards/"+client.Seg(c.ID)+"/secure", nil)), schemas.SecureResponse)}
}

// secureEntry is a table entry proving one rule: no schema violation under
// the members it owns, then the rule itself.
func secureEntry(text string, id SpecID, rule secureRule, req string, members ...string) TableRule {
	return ConformanceEntry(text, id, func(r revealedCard) {
		GinkgoHelper()
		for _, m := range members {
			r.answer.ExpectNoViolationUnder("/data/" + m)
		}
		data, _ := r.answer.Body["data"].(JSON)
		rule(r.card, data)
	}, Reqs(req))
}

var secureMembers = []string{"cardId", "reference", "maskedPan", "cardNumber", "pan", "cvv", "expiryMonth", "expiryYear", "expirationDate", "nameOnCard", "billingAddress"}

var _ = Describe("Secure card details: GET /cards/{id}/secure", func() {
	revealed := Shared(revealIssuedCard)
	ConformanceTable("reveals an ACTIVE card's full credentials",
		func(ctx SpecContext, rule func(revealedCard)) { rule(revealed(ctx)) },
		Destructive,
		ConformanceEntry("answers 200 in Envelope A whose data is the secure card details", SpecID("secure-reveal.answers-200-envelope-data"), func(r revealedCard) {
			owned := make([]string, 0, len(secureMembers))
			for _, m := range secureMembers {
				owned = append(owned, "/data/"+m)
			}
			r.answer.ExpectEnvelopeA(schemas.SecureResponse, owned)
		}, Reqs("SECURE-01")),
		secureEntry("gives cardId and reference as strings naming the card revealed", "secure-reveal.card-id-reference", secureIdentifiesCard, "SECURE-02", "cardId", "reference"),
		secureEntry("gives maskedPan, the card's masked PAN", "secure-reveal.masked-pan", secureMaskedPan, "SECURE-03", "maskedPan"),
		secureEntry("gives cardNumber as the full 16-digit PAN grouped in fours, agreeing with maskedPan (first 6, last 4)", "secure-reveal.card-number-form", secureCardNumber, "SECURE-04", "cardNumber"),
		secureEntry("gives pan in the same form as cardNumber, the same PAN", "secure-reveal.pan-form", securePan, "SECURE-05", "pan"),
		secureEntry("gives cvv as a string", "secure-reveal.cvv-string", secureCvv, "SECURE-06", "cvv"),
		secureEntry("gives expiryMonth as a 2-digit string", "secure-reveal.expiry-month", secureExpiryMonth, "SECURE-07", "expiryMonth"),
		secureEntry("gives expiryYear as a 4-digit string", "secure-reveal.expiry-year", secureExpiryYear, "SECURE-08", "expiryYear"),
		secureEntry("gives expirationDate as MM/YY agreeing with expiryMonth and expiryYear", "secure-reveal.expiration-date", secureExpirationDate, "SECURE-09", "expirationDate"),
		secureEntry("gives nameOnCard as a string and billingAddress shaped as in Card", "secure-reveal.holder-name-address", secureHolder, "SECURE-10", "nameOnCard", "billingAddress"),
	)

	ConformanceIt("reveals the same card when addressed by its reference", SpecID("secure-reveal.reveals-same-card-addressed"),
		Reqs("SECURE-01", "GET-02"), Destructive,
		func(ctx SpecContext) {
			if Profile().Issuance.ReferenceField == "" {
				Skip("the profile says issuance takes no reference (issuance.referenceField empty)")
			}
			c := fixtures.AwaitMaskedPan(ctx, fixtures.NewCard(ctx, fixtures.WithAmount(M("1.00"))))
			resp := Must(API().Get(ctx, "/cards/"+client.Seg(c.Reference)+"/secure", nil))
			checkSecure(c, Data(ExpectEnvelopeA(resp, schemas.SecureResponse)))
		})

	// The document: secure details apply to an active card; which error a
	// FROZEN card gets is not shown (profile errors.status.frozenCardSecure, else any 4xx).
	ConformanceIt("does not reveal a FROZEN card's credentials: a 4xx error (the profile's status)", SpecID("secure-reveal.does-not-reveal-frozen"),
		Reqs("SECURE-01", "ERR-21"), Destructive,
		func(ctx SpecContext) {
			c := fixtures.AwaitMaskedPan(ctx, fixtures.NewCard(ctx, fixtures.WithAmount(M("1.00"))))
			fixtures.SetCardStatus(ctx, c.ID, "FROZEN")
			resp := Must(API().Get(ctx, "/cards/"+client.Seg(c.ID)+"/secure", nil))
			ExpectRefused(resp, "frozenCardSecure")
			Expect(FindCredential(Decode(resp), "")).To(BeEmpty(), "the refusal carries no card credential")
			// Unfrozen, it is revealed again.
			fixtures.SetCardStatus(ctx, c.ID, "ACTIVE")
			resp = Must(API().Get(ctx, "/cards/"+client.Seg(c.ID)+"/secure", nil))
			checkSecure(c, Data(ExpectEnvelopeA(resp, schemas.SecureResponse)))
		})

	ConformanceIt("answers 404 for a card that does not exist", SpecID("cards.answers-404-card-does-2"),
		Reqs("GET-04", "ERR-10"),
		func(ctx SpecContext) {
			ExpectError(Must(API().Get(ctx, CardURL(fixtures.UnknownCardID(ctx), "/secure"), nil)), http.StatusNotFound)
		})
})
