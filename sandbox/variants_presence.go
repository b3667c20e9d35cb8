package sandbox

import (
	"math/big"

	"github.com/merchant-harness/mph/sandbox/ids"
	"github.com/merchant-harness/mph/sandbox/validate"
	"github.com/merchant-harness/mph/sandbox/variant"
)

// newCustomerID is a new customer's id: cus_<hex>, or digits under
// customer-id-numeric.
func (s *Server) newCustomerID() string {
	if s.variants.On(variant.CustomerIDNumeric) {
		return ids.DigitIn("123456789") + ids.Digits(9)
	}
	return "cus_" + ids.Hex(12)
}

// customerIDOf reads issuance's customerId: a string, or under
// customer-id-numeric also a JSON number, read by value (1234.0 and 1.234e3
// are 1234).
func (s *Server) customerIDOf(v *validate.Fields) string {
	if r, ok := v.Raw("customerId"); ok && s.variants.On(variant.CustomerIDNumeric) && r[0] >= '0' && r[0] <= '9' {
		if n, ok := new(big.Rat).SetString(string(r)); ok && n.IsInt() {
			return n.Num().String()
		}
	}
	return v.Str("customerId", true, validate.MaxText)
}
