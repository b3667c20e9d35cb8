package suites

import (
	"net/http"
	"regexp"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/merchant-harness/mph/client"
	"github.com/merchant-harness/mph/schemas"
	. "github.com/merchant-harness/mph/suites/framework"
)

var groupedPAN = regexp.MustCompile(`^[0-9]{4} [0-9]{4} [0-9]{4} [0-9]{4}$`)

// checkSecure asserts the secure details of card c (validated by schema first).
func checkSecure(c Card, d JSON) {
	GinkgoHelper()
	Expect(d["cardId"]).To(Equal(c.ID), "cardId names the card revealed")
	if c.Reference != "" {
		Expect(d["reference"]).To(Equal(c.Reference), "reference of the card revealed")
	}
	sm, _ := d["maskedPan"].(string)
	Expect(NonDigit.ReplaceAllString(sm, "")).To(Equal(NonDigit.ReplaceAllString(c.MaskedPan, "")), "maskedPan %q shows the digits of the card's %q", sm, c.MaskedPan)
	num, _ := d["cardNumber"].(string)
	// Never print the PAN itself: compare and report only masked forms.
	Expect(groupedPAN.MatchString(num)).To(BeTrue(), "cardNumber is not 16 digits grouped in fours with spaces")
	pan, _ := d["pan"].(string)
	Expect(pan == num).To(BeTrue(), "pan differs from cardNumber")
	digits := strings.ReplaceAll(num, " ", "")
	md := strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, c.MaskedPan)
	Expect(len(md)).To(BeNumerically(">=", 10), "maskedPan %q does not show 10 digits", c.MaskedPan)
	Expect(digits[:6] == md[:6]).To(BeTrue(), "the first 6 digits of cardNumber do not agree with maskedPan %s", c.MaskedPan)
	Expect(digits[12:] == md[len(md)-4:]).To(BeTrue(), "the last 4 digits of cardNumber do not agree with maskedPan %s", c.MaskedPan)
	_, isStr := d["cvv"].(string)
	Expect(isStr).To(BeTrue(), "cvv is a string")
	mm, _ := d["expiryMonth"].(string)
	yyyy, _ := d["expiryYear"].(string)
	Expect(mm).To(MatchRegexp(`^(0[1-9]|1[0-2])$`), "expiryMonth")
	Expect(yyyy).To(MatchRegexp(`^[0-9]{4}$`), "expiryYear")
	Expect(d["expirationDate"]).To(Equal(mm+"/"+yyyy[2:]), "expirationDate agrees with expiryMonth/expiryYear")
	if c.NameOnCard != "" {
		Expect(d["nameOnCard"]).To(Equal(c.NameOnCard), "nameOnCard agrees with the card's")
	}
	Expect(d["billingAddress"]).To(BeAssignableToTypeOf(JSON{}))
}

var _ = Describe("Secure card details: GET /cards/{id}/secure", func() {
	ConformanceIt("reveals an ACTIVE card's full credentials agreeing with its maskedPan (first 6, last 4) and expiry fields",
		Reqs("SECURE-01", "SECURE-02", "SECURE-03", "SECURE-04", "SECURE-05", "SECURE-06", "SECURE-07", "SECURE-08", "SECURE-09", "SECURE-10"), Destructive,
		func(ctx SpecContext) {
			c := NewCard(ctx, WithAmount(M("1.00")))
			resp := Must(API().Get(ctx, "/cards/"+client.Seg(c.ID)+"/secure", nil))
			checkSecure(c, Data(ExpectEnvelopeA(resp, schemas.SecureResponse)))
		})

	ConformanceIt("reveals the same card when addressed by its reference",
		Reqs("SECURE-01", "GET-02"), Destructive,
		func(ctx SpecContext) {
			if Profile().Issuance.ReferenceField == "" {
				Skip("the profile says issuance takes no reference (issuance.referenceField empty)")
			}
			c := NewCard(ctx, WithAmount(M("1.00")))
			resp := Must(API().Get(ctx, "/cards/"+client.Seg(c.Reference)+"/secure", nil))
			checkSecure(c, Data(ExpectEnvelopeA(resp, schemas.SecureResponse)))
		})

	// The document: secure details apply to an active card; which error a
	// FROZEN card gets is not shown (profile errors.status.frozenCardSecure, else any 4xx).
	ConformanceIt("does not reveal a FROZEN card's credentials: a 4xx error (the profile's status)",
		Reqs("SECURE-01", "ERR-21"), Destructive,
		func(ctx SpecContext) {
			c := NewCard(ctx, WithAmount(M("1.00")))
			SetCardStatus(ctx, c.ID, "FROZEN")
			resp := Must(API().Get(ctx, "/cards/"+client.Seg(c.ID)+"/secure", nil))
			ExpectRefusal(resp, "frozenCardSecure")
			Expect(Decode(resp)).NotTo(HaveKey("data"))
			// Unfrozen, it is revealed again.
			SetCardStatus(ctx, c.ID, "ACTIVE")
			resp = Must(API().Get(ctx, "/cards/"+client.Seg(c.ID)+"/secure", nil))
			checkSecure(c, Data(ExpectEnvelopeA(resp, schemas.SecureResponse)))
		})

	ConformanceIt("answers 404 for a card that does not exist",
		Reqs("GET-04", "ERR-10"),
		func(ctx SpecContext) {
			ExpectError(Must(API().Get(ctx, "/cards/crd_"+Cfg().RunID+"nosuchcard/secure", nil)), http.StatusNotFound)
		})
})
