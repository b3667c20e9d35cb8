package rewrite

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"

	"github.com/merchant-harness/mph/sandbox/fault"
)

// The faults of the area "Cross-cutting rules" that bend answers of some
// routes after their handler, the way a module with an answer layer of its
// own breaks a rule stated for every endpoint (the registry: sandbox/fault).

// Bend writes a captured answer (its status code, header h and body) to
// w, bent as the answer faults of the area "Cross-cutting rules" say.
func (s *Rewriter) Bend(w http.ResponseWriter, r *http.Request, code int, h http.Header, body []byte) {
	rest := strings.TrimPrefix(r.URL.Path, s.base)
	var top map[string]any
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if dec.Decode(&top) == nil && top != nil {
		if s.bendAnswer(r.Method, rest, code, h, top) {
			body, _ = json.Marshal(top)
		}
		if code == http.StatusNotFound && s.faults.On(fault.UnknownCard500) && strings.Contains(fault.Route(r.Method, rest), "/cards/{id}") {
			code = http.StatusInternalServerError
			top["statusCode"], top["error"], top["message"] = code, http.StatusText(code), "Cannot read properties of null (reading 'balance')"
			body, _ = json.Marshal(top)
		}
	}
	for k, v := range h {
		w.Header()[k] = v
	}
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(code)
	_, _ = w.Write(body)
}

// bendAnswer applies the answer faults to the decoded top level; true when
// it changed the body.
func (s *Rewriter) bendAnswer(method, rest string, code int, h http.Header, top map[string]any) bool {
	route, f := fault.Route(method, rest), &s.faults
	switch {
	case code == http.StatusUnauthorized && fault.Module(rest) == "gift" && f.On(fault.Gift401NotEnveloped):
		clear(top)
		top["message"] = "Unauthorized"
		return true
	case code == http.StatusBadRequest && route == "POST /gift-cards/purchase" && f.On(fault.ValidationStringPurchase):
		if arr, ok := top["message"].([]any); ok {
			var parts []string
			for _, m := range arr {
				parts = append(parts, strings.TrimSpace(jsonText(m)))
			}
			top["message"] = strings.Join(parts, "; ")
			return true
		}
	case code >= 300:
	case route == "GET /cards/{id}/secure" && f.On(fault.SecureCachePublic):
		h.Set("Cache-Control", "public, max-age=300")
	case route == "POST /gift-cards/purchase":
		return bendPurchase(f, top)
	case strings.HasPrefix(rest, "/gift-cards/transactions/") && f.On(fault.LookupFlagInverted):
		if d, ok := top["data"].(map[string]any); ok {
			ok2 := d["isSuccessful"] == true
			d["isSuccessful"] = !ok2
			return true
		}
	case strings.HasPrefix(rest, "/gift-cards/verify/") && f.On(fault.VerifyFlagStale) && top["orderStatus"] == "SUCCESS":
		top["isSuccessful"] = false
		return true
	case route == "GET /cards/customers" && f.On(fault.CustListFirstPage):
		return capList(top, 10)
	case route == "GET /cards" && f.On(fault.CardListFirstPage):
		return capList(top, 20)
	}
	return false
}

// bendPurchase drops the voucher details of a purchase answer, or claims
// success while the order is PROCESSING.
func bendPurchase(f *fault.Set, top map[string]any) bool {
	d, ok := top["data"].(map[string]any)
	if !ok {
		return false
	}
	switch {
	case f.On(fault.PurchaseNoVoucher):
		top["data"] = map[string]any{"reference": d["reference"], "transactionId": d["transactionId"], "status": "success"}
		return true
	case f.On(fault.PurchaseSuccessProcessing) && d["orderStatus"] == "PROCESSING":
		d["isSuccessful"] = true
		return true
	}
	return false
}

// capList keeps the first n elements of the answer's data array.
func capList(top map[string]any, n int) bool {
	if list, ok := top["data"].([]any); ok && len(list) > n {
		top["data"] = list[:n]
		return true
	}
	return false
}

func jsonText(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	b, _ := json.Marshal(v)
	return string(b)
}
