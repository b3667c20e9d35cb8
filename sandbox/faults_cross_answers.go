package sandbox

// Faults of the area "Cross-cutting rules" that bend answers of some routes
// after their handler (the registry: sandbox/fault; the hook: the capture of
// serveAPI, flushed by crossFlush).

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"

	"github.com/merchant-harness/mph/sandbox/fault"
)

// crossCapture holds an answer for crossFlush to bend.
type crossCapture struct {
	h    http.Header
	code int
	buf  bytes.Buffer
}

func (c *crossCapture) Header() http.Header         { return c.h }
func (c *crossCapture) WriteHeader(code int)        { c.code = code }
func (c *crossCapture) Write(b []byte) (int, error) { return c.buf.Write(b) }

// crossFlush writes the captured answer to w, bent as the faults say.
func (s *Server) crossFlush(w http.ResponseWriter, r *http.Request, c *crossCapture) {
	rest := strings.TrimPrefix(r.URL.Path, s.base)
	body := c.buf.Bytes()
	var top map[string]any
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if dec.Decode(&top) == nil && top != nil {
		if s.bendAnswer(r.Method, rest, c.code, c.h, top) {
			body, _ = json.Marshal(top)
		}
		if c.code == http.StatusNotFound && s.faults.On(fault.UnknownCard500) && strings.Contains(crossRoute(r.Method, rest), "/cards/{id}") {
			c.code = http.StatusInternalServerError
			top["statusCode"], top["error"], top["message"] = c.code, http.StatusText(c.code), "Cannot read properties of null (reading 'balance')"
			body, _ = json.Marshal(top)
		}
	}
	for k, v := range c.h {
		w.Header()[k] = v
	}
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(c.code)
	_, _ = w.Write(body)
}

// bendAnswer applies the answer faults to the decoded top level; true when
// it changed the body.
func (s *Server) bendAnswer(method, rest string, code int, h http.Header, top map[string]any) bool {
	route, f := crossRoute(method, rest), &s.faults
	switch {
	case code == http.StatusUnauthorized && crossModule(rest) == "gift" && f.On(fault.Gift401NotEnveloped):
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
