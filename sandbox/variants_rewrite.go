package sandbox

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/merchant-harness/mph/sandbox/fault"

	"github.com/merchant-harness/mph/sandbox/variant"
)

// captureWriter holds a merchant API answer so that response-shape settings
// can rewrite it before it reaches the client.
type captureWriter struct {
	h    http.Header
	code int
	buf  bytes.Buffer
}

func newCapture() *captureWriter { return &captureWriter{h: http.Header{}, code: http.StatusOK} }

func (c *captureWriter) Header() http.Header         { return c.h }
func (c *captureWriter) WriteHeader(code int)        { c.code = code }
func (c *captureWriter) Write(b []byte) (int, error) { return c.buf.Write(b) }

// serveVariantAPI runs the API request into a capture and writes the
// rewritten answer.
func (s *Server) serveVariantAPI(w http.ResponseWriter, r *http.Request, rest string) {
	cw := newCapture()
	s.api.ServeHTTP(cw, r)
	code, body := s.rewriteAnswer(r, rest, cw.code, cw.h, cw.buf.Bytes())
	for k, v := range cw.h {
		w.Header()[k] = v
	}
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(code)
	_, _ = w.Write(body)
}

// rewriteAnswer applies the active response-shape settings, in order: the
// 429's headers and form, the envelope (status, path, members, messages),
// the answer's shape, then every object, timestamp and number inside.
func (s *Server) rewriteAnswer(r *http.Request, rest string, code int, h http.Header, body []byte) (int, []byte) {
	s.challenge(code, h)
	if code == http.StatusTooManyRequests {
		s.rewriteRateLimitHeaders(h)
		if b, ok := s.gateway429(h); ok {
			return code, b
		}
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		return code, body
	}
	isErr := false
	if top, _ := doc.(map[string]any); top != nil {
		_, isErr = top["statusCode"]
		s.faults.ApplyMembers(r.Method, rest, code, top)
		code = s.rewriteTop(r, rest, code, top)
		doc = s.reshape(r, rest, code, top)
	}
	s.rewriteTree(doc, "")
	out, err := json.Marshal(doc)
	if err != nil {
		return code, body
	}
	if ct := h.Get("Content-Type"); ct != "" {
		h.Set("Content-Type", s.contentType(ct, isErr))
	}
	return code, out
}

// rewriteTop changes envelope members and statuses; it returns the status.
func (s *Server) rewriteTop(r *http.Request, rest string, code int, top map[string]any) int {
	v := &s.variants
	if p, ok := top["path"].(string); ok {
		top["path"] = s.echoPath(r, p)
	}
	if v.On(variant.ExtraMembers) {
		top["requestId"] = "req_" + randHex(8)
		top["meta"] = map[string]any{"apiVersion": "1.0.0"}
	}
	if _, isErr := top["statusCode"]; isErr {
		return s.rewriteError(r, rest, code, top)
	}
	code = s.successStatus(r, rest, code)
	s.rewriteTokenAnswer(rest, top)
	s.unsetLimitsAbsent(r, top)
	s.terseMessages(r, rest, top)
	s.rewriteEnvelopeB(rest, top)
	if isStatusPatch(r, rest) && code == http.StatusOK {
		if d, ok := top["data"].(map[string]any); ok {
			c, _ := d["card"].(map[string]any)
			if m := s.statusMessage(c["status"] == "FROZEN"); m != "" {
				d["message"] = m
			}
		}
	}
	return code
}

// rewriteError changes error answers: statuses, message shapes and wordings.
func (s *Server) rewriteError(r *http.Request, rest string, code int, top map[string]any) int {
	v := &s.variants
	if s.faults.On(fault.NotFoundMsgGeneric) && code == http.StatusNotFound && strings.HasPrefix(rest, "/cards/") && strings.Count(rest, "/") == 3 {
		top["message"] = "Request could not be completed"
	}
	newCode := s.refusalStatus(r, rest, code, messagesOf(top["message"]))
	switch {
	case newCode != code:
		s.setErrorStatus(top, newCode)
	case v.Varies(variant.ReasonPhrase):
		top["error"] = s.reasonPhrase(code)
	}
	s.wrongTypeMessage(newCode, top)
	s.rewriteMessages(newCode, top)
	if v.On(variant.Err401Short) && newCode == http.StatusUnauthorized {
		delete(top, "status")
		delete(top, "timestamp")
		delete(top, "path")
	}
	if v.On(variant.Gift404Full) && code == http.StatusNotFound {
		if _, has := top["status"]; !has {
			top["status"] = "error"
			top["timestamp"] = ts(s.clk.Now())
			top["path"] = s.echoPath(r, r.URL.Path)
		}
	}
	return newCode
}

// reshape returns the answer's document under the shape settings: an
// envelope dropped or replaced, members renamed.
func (s *Server) reshape(r *http.Request, rest string, code int, top map[string]any) any {
	v := &s.variants
	if code >= 300 {
		return top
	}
	s.sparseIssuance(r, rest, top)
	if d, ok := top["data"].(map[string]any); ok {
		s.rewriteQuote(rest, d)
	}
	lookup := strings.HasPrefix(rest, "/gift-cards/transactions/")
	if v.On(variant.LookupVoucherFlat) && lookup {
		if d, ok := top["data"].(map[string]any); ok {
			vo, _ := d["voucher"].(map[string]any)
			delete(d, "voucher")
			d["voucherCode"], d["redemptionPin"], d["redemptionInstructions"] = vo["code"], vo["pin"], vo["instructions"]
		}
	}
	if v.On(variant.LookupVoucherCardNumber) && lookup {
		if d, ok := top["data"].(map[string]any); ok {
			if vo, ok := d["voucher"].(map[string]any); ok {
				vo["cardNumber"], vo["pinCode"] = vo["code"], vo["pin"]
				delete(vo, "code")
				delete(vo, "pin")
			}
		}
	}
	switch {
	case v.On(variant.GiftQuoteFlat) && rest == "/gift-cards/quote",
		v.On(variant.GiftLookupFlat) && lookup,
		v.On(variant.BettingQuoteFlat) && rest == "/betting/quote",
		v.On(variant.NotShownFlat) && isNotShownAnswer(r.Method, rest):
		return top["data"]
	case v.On(variant.NotShownEnvB) && isNotShownAnswer(r.Method, rest):
		return map[string]any{"success": true, "message": "OK", "data": top["data"], "timestamp": top["timestamp"]}
	}
	return top
}

// rewriteTree walks every object of the answer: cards, secure details, gift
// orders, timestamps and amounts; path names where the object sits ("" the
// top, "data", "data[]" an element of a listing).
func (s *Server) rewriteTree(n any, path string) {
	switch x := n.(type) {
	case map[string]any:
		s.rewriteObject(x, path)
		for k, c := range x {
			switch cv := c.(type) {
			case string:
				if (k == "timestamp" || k == "createdAt" || k == "updatedAt") && s.timestampsRewritten() {
					x[k] = s.rewriteTS(cv, k == "timestamp" && path == "")
				}
			case json.Number:
				x[k] = s.rewriteNumber(cv)
			default:
				s.rewriteTree(c, k)
			}
		}
		if s.variants.On(variant.NullsOmitted) {
			for k, c := range x {
				if c == nil {
					delete(x, k)
				}
			}
		}
	case []any:
		for _, c := range x {
			s.rewriteTree(c, path+"[]")
		}
	}
}

// rewriteObject applies the object settings to x, found at path.
func (s *Server) rewriteObject(x map[string]any, path string) {
	v := &s.variants
	if mp, ok := x["maskedPan"].(string); ok {
		x["maskedPan"] = s.maskPan(mp)
	}
	if _, isCard := x["cardType"]; isCard {
		if s.faults.On(fault.CreatedStatusPending) {
			x["createdStatus"] = "PENDING"
		}
		s.rewriteCard(x, path)
	}
	if _, isSecure := x["cvv"]; isSecure {
		s.rewriteSecure(x)
	}
	if _, isConfig := x["vaultBalance"]; isConfig {
		s.rewriteConfig(x)
	}
	if _, isOrder := x["orderStatus"]; isOrder {
		s.rewriteGiftOrder(x)
	}
	if _, isAddress := x["street"]; isAddress {
		s.rewriteAddress(x)
	}
	if _, isCustomer := x["kycStatus"]; isCustomer {
		s.rewriteCustomer(x)
	}
	if _, isSim := x["dispatched"]; isSim {
		s.rewriteSimulation(x)
	}
	if v.On(variant.ExtraNested) && path != "" {
		x["x-trace"] = "trc_" + randHex(4)
	}
}

// rewriteTS renders a sandbox timestamp (UTC, milliseconds) another way.
func (s *Server) rewriteTS(t string, envelope bool) string {
	p, err := time.Parse(time.RFC3339Nano, t)
	if err != nil {
		return t
	}
	return s.renderTS(p, envelope)
}

// isNotShownAnswer is an endpoint whose answer the document does not show.
func isNotShownAnswer(method, rest string) bool {
	switch {
	case method == http.MethodPost && (rest == "/cards" || rest == "/cards/customers" || rest == "/gift-cards/purchase"):
		return true
	case method == http.MethodGet && rest == "/cards/customers":
		return true
	}
	return false
}
