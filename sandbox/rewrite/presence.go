package rewrite

import (
	"encoding/json"
	"net/http"
	"strings"
	"time"

	"github.com/merchant-harness/mph/sandbox/variant"
)

// cardSummaryMembers are the members of a listed card under card-listing-summary.
var cardSummaryMembers = []string{"id", "maskedPan", "nameOnCard", "balanceAmount", "currency", "status", "reference"}

// rewriteCard applies the card settings to a Card object found at path.
func (s *Rewriter) rewriteCard(x map[string]any, path string) {
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
		x["updatedAt"] = s.stamp()
	}
}

// rewriteCreatedStatus applies the createdStatus settings to card x.
func (s *Rewriter) rewriteCreatedStatus(x map[string]any) {
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
func (s *Rewriter) rewriteAddress(x map[string]any) {
	if s.variants.On(variant.CardBillingPartial) {
		x["state"], x["postalCode"] = nil, nil
	}
	if c, ok := x["country"].(string); ok && s.variants.On(variant.CountryLower) {
		x["country"] = strings.ToLower(c)
	}
}

// rewriteSecure applies the secure-details settings.
func (s *Rewriter) rewriteSecure(x map[string]any) {
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
func (s *Rewriter) rewriteConfig(x map[string]any) {
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
func (s *Rewriter) sparseIssuance(r *http.Request, rest string, top map[string]any) {
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
func (s *Rewriter) rewriteCustomer(x map[string]any) {
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
func (s *Rewriter) successStatus(r *http.Request, rest string, code int) int {
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
