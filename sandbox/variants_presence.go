package sandbox

import (
	"encoding/json"
	"math/big"
	"net/http"
	"strings"
	"time"

	"github.com/merchant-harness/mph/sandbox/variant"
)

// cardSummaryMembers are the members of a listed card under card-listing-summary.
var cardSummaryMembers = []string{"id", "maskedPan", "nameOnCard", "balanceAmount", "currency", "status", "reference"}

// rewriteCard applies the card settings to a Card object found at path.
func (s *Server) rewriteCard(x map[string]any, path string) {
	v := &s.variants
	switch {
	case v.On(variant.ColorThemeNull):
		x["colorTheme"] = nil
	case v.On(variant.OptionalAbsent):
		delete(x, "colorTheme")
		delete(x, "cardBrand")
		delete(x, "billingAddress")
	case v.On(variant.CardDescriptiveNull):
		x["colorTheme"], x["cardBrand"], x["billingAddress"] = nil, nil, nil
	case v.On(variant.MaskedPanNullNew):
		at, _ := x["createdAt"].(string)
		if t, err := time.Parse(time.RFC3339Nano, at); err == nil && s.clk.Now().Sub(t) < 2*time.Second {
			x["maskedPan"] = nil
		}
	case v.On(variant.CardListSummary) && strings.HasSuffix(path, "[]"):
		keep := map[string]bool{}
		for _, k := range cardSummaryMembers {
			keep[k] = true
		}
		for k := range x {
			if !keep[k] {
				delete(x, k)
			}
		}
	}
	if b, ok := x["cardBrand"].(string); ok && v.On(variant.BrandTitleCase) {
		x["cardBrand"] = b[:1] + strings.ToLower(b[1:])
	}
	s.rewriteCreatedStatus(x)
	if v.On(variant.UpdatedOnRead) {
		x["updatedAt"] = ts(s.clk.Now())
	}
}

// rewriteCreatedStatus applies the createdStatus settings to card x.
func (s *Server) rewriteCreatedStatus(x map[string]any) {
	v := &s.variants
	switch {
	case v.On(variant.CreatedPendingFirst):
		at, _ := x["createdAt"].(string)
		if t, err := time.Parse(time.RFC3339Nano, at); err == nil && s.clk.Now().Sub(t) < 2*time.Second {
			x["createdStatus"] = "PENDING"
		}
	case v.On(variant.CreatedIssued):
		if id, _ := x["id"].(string); id != "" && (id[len(id)-1]-'0')%2 == 0 {
			x["createdStatus"] = "ISSUED"
		}
	}
}

// rewriteAddress applies the billing address settings.
func (s *Server) rewriteAddress(x map[string]any) {
	if s.variants.On(variant.CardBillingPartial) {
		x["state"], x["postalCode"] = nil, nil
	}
	if c, ok := x["country"].(string); ok && s.variants.On(variant.CountryLower) {
		x["country"] = strings.ToLower(c)
	}
}

// rewriteSecure applies the secure-details settings.
func (s *Server) rewriteSecure(x map[string]any) {
	v := &s.variants
	if cvv, ok := x["cvv"].(string); ok && v.On(variant.CvvFour) && len(cvv) == 3 {
		x["cvv"] = cvv + "7"
	}
	switch {
	case v.On(variant.SecureDescriptiveAbsent):
		for _, k := range []string{"reference", "maskedPan", "nameOnCard", "billingAddress"} {
			delete(x, k)
		}
	case v.On(variant.SecureReferenceNull):
		x["reference"] = nil
	}
}

// rewriteConfig applies the configuration settings.
func (s *Server) rewriteConfig(x map[string]any) {
	v := &s.variants
	switch {
	case v.On(variant.ConfigRateNull):
		x["exchangeRate"] = nil
	case v.On(variant.ConfigRateAbsent):
		delete(x, "exchangeRate")
	}
}

// sparseIssuance trims the issuance answer's card to id, reference and
// status (issuance-answer-sparse).
func (s *Server) sparseIssuance(r *http.Request, rest string, top map[string]any) {
	if !s.variants.On(variant.IssuanceSparse) || r.Method != http.MethodPost || rest != "/cards" {
		return
	}
	if c, ok := top["data"].(map[string]any); ok {
		for k := range c {
			if k != "id" && k != "reference" && k != "status" {
				delete(c, k)
			}
		}
	}
}

// rewriteCustomer applies the customer-record settings to a record.
func (s *Server) rewriteCustomer(x map[string]any) {
	v := &s.variants
	if id, ok := x["customerId"].(string); ok && v.On(variant.CustomerIDNumeric) {
		x["customerId"] = json.Number(id)
	}
	if v.On(variant.CustomerMinimal) {
		for k := range x {
			if k != "customerId" && k != "kycStatus" {
				delete(x, k)
			}
		}
	}
}

// successStatus is the status of a successful answer under the settings.
func (s *Server) successStatus(r *http.Request, rest string, code int) int {
	v := &s.variants
	if r.Method != http.MethodPost || code != http.StatusCreated {
		return code
	}
	switch {
	case rest == "/cards" && v.OnAny(variant.SuccessAlt, variant.SuccessBoth200):
		return http.StatusOK
	case rest == "/cards/customers" && v.OnAny(variant.SuccessRegistration200, variant.SuccessBoth200):
		return http.StatusOK
	}
	return code
}

// newCustomerID is a new customer's id: cus_<hex>, or digits under
// customer-id-numeric.
func (s *Server) newCustomerID() string {
	if s.variants.On(variant.CustomerIDNumeric) {
		return randDigitIn("123456789") + randDigits(9)
	}
	return "cus_" + randHex(12)
}

// customerIDOf reads issuance's customerId: a string, or under
// customer-id-numeric also a JSON number, read by value (1234.0 and 1.234e3
// are 1234).
func (s *Server) customerIDOf(v *validator) string {
	if r, ok := v.raw("customerId"); ok && s.variants.On(variant.CustomerIDNumeric) && r[0] >= '0' && r[0] <= '9' {
		if n, ok := new(big.Rat).SetString(string(r)); ok && n.IsInt() {
			return n.Num().String()
		}
	}
	return v.str("customerId", true, maxText)
}
