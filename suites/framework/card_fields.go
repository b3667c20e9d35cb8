package framework

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// CardTableFields are the fields of the document's Card table.
var CardTableFields = []string{"id", "cardType", "cardBrand", "maskedPan", "nameOnCard", "balanceAmount", "currency",
	"status", "createdStatus", "reference", "billingAddress", "colorTheme", "createdAt", "updatedAt"}

// ExpectCardFields checks what the schema cannot: createdStatus is COMPLETED
// ("COMPLETED is the only value shown"), and, when
// the profile asks for the strict readings, every field of the Card table
// present and non-null (strict.allCardFields) and a 16-position maskedPan
// (strict.maskedPan16).
func ExpectCardFields(obj JSON) {
	GinkgoHelper()
	Expect(obj["createdStatus"]).To(Equal("COMPLETED"), "createdStatus: COMPLETED is the only value the document shows")
	if Profile().Strict.AllCardFields {
		for _, f := range CardTableFields {
			Expect(obj[f]).NotTo(BeNil(), "Card.%s is absent or null (profile strict.allCardFields)", f)
		}
	}
	ExpectMaskedPan16(obj)
}

// ExpectMaskedPan16 asserts a 16-position maskedPan when the profile asks for
// that strict reading (strict.maskedPan16); the document's example has 16.
func ExpectMaskedPan16(obj JSON) {
	GinkgoHelper()
	if mp, _ := obj["maskedPan"].(string); Profile().Strict.MaskedPan16 && mp != "" {
		n := 0
		for _, r := range mp {
			if r != ' ' {
				n++
			}
		}
		Expect(n).To(Equal(16), "maskedPan %q does not have 16 positions (profile strict.maskedPan16)", mp)
	}
}
