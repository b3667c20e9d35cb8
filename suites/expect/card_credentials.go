package expect

import (
	"regexp"
	"strings"

	. "github.com/onsi/ginkgo/v2"

	"github.com/merchant-harness/mph/schemas"
)

// Secure card data "is PCI-sensitive; it must never reach public clients":
// outside the secure details answer no answer may carry a full card number
// or a CVV. From outside that is testable as: no member named like the
// secure details' credentials holds one (every schema-checked answer), and
// a revealed card's own PAN appears in no other answer (the SECURE-11 spec).

// giftAnswers are the schemas of answers carrying a gift order.
var giftAnswers = map[string]bool{schemas.GiftOrder: true, schemas.GiftOrderResponse: true, schemas.GiftPurchaseResponse: true, schemas.GiftLookupResponse: true}

var (
	credentialMembers = map[string]bool{"cardnumber": true, "pan": true, "cvv": true, "cvc": true, "cvv2": true, "securitycode": true}
	NonDigit          = regexp.MustCompile(`[^0-9]`)
)

// expectNoCardCredentials walks a decoded answer (schema name given) and
// fails on a full PAN (13 or more digits) or a non-empty CVV under a
// credential member, unless the answer is the secure details, or a gift
// order: a gift card's number and PIN are the voucher the document says
// those answers carry ("Returns the purchase with voucher code, redemption
// PIN and instructions"), not the virtual card's secure details the PCI
// sentence is about (a revealed PAN in any other answer is SECURE-11's).
func expectNoCardCredentials(v any, schema string) {
	GinkgoHelper()
	if schema == schemas.SecureResponse || schema == schemas.SecureDetails || giftAnswers[schema] {
		return
	}
	if where := FindCredential(v, ""); where != "" {
		Fail("PCI: a non-secure answer carries card credentials at " + where + " (values not printed)")
	}
}

func FindCredential(v any, at string) string {
	switch x := v.(type) {
	case map[string]any:
		for k, c := range x {
			name := strings.ToLower(k)
			if s, ok := c.(string); ok && credentialMembers[name] {
				digits := NonDigit.ReplaceAllString(s, "")
				if (strings.HasPrefix(name, "cv") || name == "securitycode") && digits != "" {
					return at + "/" + k
				}
				if len(digits) >= 13 && len(digits) == len(strings.ReplaceAll(strings.ReplaceAll(s, " ", ""), "-", "")) {
					return at + "/" + k
				}
			}
			if w := FindCredential(c, at+"/"+k); w != "" {
				return w
			}
		}
	case []any:
		for _, c := range x {
			if w := FindCredential(c, at+"/[]"); w != "" {
				return w
			}
		}
	}
	return ""
}

// panPattern matches the PAN's digits in a body, contiguous or with any
// single space or dash between digits.
func PANPattern(digits string) *regexp.Regexp {
	parts := strings.Split(digits, "")
	return regexp.MustCompile(strings.Join(parts, `[ -]?`))
}
