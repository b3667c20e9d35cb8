package sandbox

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// captureWriter holds a merchant API answer so that response-shape variants
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

// rewriteAnswer applies the active response-shape variants.
func (s *Server) rewriteAnswer(r *http.Request, rest string, code int, h http.Header, body []byte) (int, []byte) {
	v := &s.variants
	if code == http.StatusTooManyRequests {
		switch {
		case v.on(vRetryAfterLong):
			h.Set("Retry-After", "60")
		case v.on(vNoRetryAfter):
			h.Del("Retry-After")
		}
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		return code, body
	}
	top, _ := doc.(map[string]any)
	if top != nil {
		s.applyMemberFaults(r, rest, code, top)
		code = s.rewriteTop(r, rest, code, top)
		if v.on(vGiftQuoteFlat) && code == http.StatusOK && rest == "/gift-cards/quote" {
			doc = top["data"]
		}
		if v.on(vGiftLookupFlat) && code == http.StatusOK && strings.HasPrefix(rest, "/gift-cards/transactions/") {
			doc = top["data"]
		}
		if v.on(vLookupVoucherFlat) && code == http.StatusOK && strings.HasPrefix(rest, "/gift-cards/transactions/") {
			if d, ok := top["data"].(map[string]any); ok {
				vo, _ := d["voucher"].(map[string]any)
				delete(d, "voucher")
				d["voucherCode"], d["redemptionPin"], d["redemptionInstructions"] = vo["code"], vo["pin"], vo["instructions"]
			}
		}
		if v.on(vNotShownFlat) && code < 300 && isNotShownAnswer(r.Method, rest) {
			doc = top["data"]
		}
	}
	s.rewriteTree(doc, "")
	out, err := json.Marshal(doc)
	if err != nil {
		return code, body
	}
	return code, out
}

// rewriteTop changes envelope members and statuses; it returns the status.
func (s *Server) rewriteTop(r *http.Request, rest string, code int, top map[string]any) int {
	v := &s.variants
	if p, ok := top["path"].(string); ok {
		if v.on(vPathAPIPrefix) && strings.HasPrefix(p, "/v1/merchant") {
			p = "/api" + p
		}
		if v.on(vPathWithQuery) && r.URL.RawQuery != "" {
			p += "?" + r.URL.RawQuery
		}
		top["path"] = p
	}
	if v.on(vExtraMembers) {
		top["requestId"] = "req_" + randHex(8)
		top["meta"] = map[string]any{"apiVersion": "1.0.0"}
	}
	_, isErr := top["statusCode"]
	if !isErr {
		if v.on(vSuccessAlt) {
			switch {
			case code == http.StatusCreated && r.Method == http.MethodPost && rest == "/cards":
				code = http.StatusOK
			case code == http.StatusOK && r.Method == http.MethodPost && rest == "/cards/customers":
				code = http.StatusCreated
			}
		}
		if v.on(vStatusMsgVerbs) && code == http.StatusOK && r.Method == http.MethodPatch && strings.HasSuffix(rest, "/status") {
			if d, ok := top["data"].(map[string]any); ok {
				c, _ := d["card"].(map[string]any)
				if st, _ := c["status"].(string); st == "FROZEN" {
					d["message"] = "Card has been frozen"
				} else {
					d["message"] = "Card has been unfrozen"
				}
			}
		}
		return code
	}
	return s.rewriteError(r, rest, code, top)
}

// rewriteError changes error answers: statuses, message shapes and wordings.
func (s *Server) rewriteError(r *http.Request, rest string, code int, top map[string]any) int {
	v := &s.variants
	msgs := messagesOf(top["message"])
	if s.faults.on(fNotFoundMsgGeneric) && code == http.StatusNotFound && strings.HasPrefix(rest, "/cards/") && strings.Count(rest, "/") == 3 {
		top["message"] = "Request could not be completed"
	}
	newCode := code
	switch {
	case v.on(vWithdrawAbove422) && code == 400 && strings.HasSuffix(rest, "/withdraw") && len(msgs) == 1 && strings.HasPrefix(msgs[0], "Insufficient card balance"):
		newCode = http.StatusUnprocessableEntity
	case v.on(vFrozenSecure403) && code == 400 && strings.HasSuffix(rest, "/secure"):
		newCode = http.StatusForbidden
	case v.on(vInvalidValue422) && code == 400 && allContain(msgs, "must be one of the following values") && !anyContain(msgs, "should not be empty"):
		newCode = http.StatusUnprocessableEntity
	}
	if newCode != code {
		top["statusCode"] = json.Number(strconv.Itoa(newCode))
		top["error"] = http.StatusText(newCode)
	}
	if v.on(vMinimumsBusiness) && code == 400 && allContain(msgs, "must not be less than") {
		top["message"] = "Amount is below the minimum: " + strings.Join(msgs, "; ")
	}
	if v.on(vMessagesReworded) {
		if m, ok := top["message"].(string); ok {
			top["message"] = reword(m)
		}
	}
	if v.on(vMsgArray) {
		if m, ok := top["message"].(string); ok {
			top["message"] = []any{m}
		}
	}
	if v.on(vGift404Full) && code == http.StatusNotFound {
		if _, has := top["status"]; !has {
			top["status"] = "error"
			top["timestamp"] = ts(s.clk.Now())
			top["path"] = r.URL.Path
		}
	}
	return newCode
}

// reword gives the scenario messages other wordings of the same meaning.
func reword(m string) string {
	switch {
	case m == msgCardNotFound:
		return "No virtual card found for the given id or reference"
	case m == msgBearer:
		return "Authentication required: provide a valid Bearer token in the Authorization header"
	case m == msgExpired:
		return "Your access token has expired; request a new bearer token"
	case m == msgBadCreds:
		return "The merchant credentials supplied are not valid"
	case strings.HasPrefix(m, "IP address "):
		return "Access denied: your IP address is not whitelisted for this merchant"
	case strings.HasPrefix(m, "Gift card order with reference '"):
		ref := strings.TrimSuffix(strings.TrimPrefix(m, "Gift card order with reference '"), "' not found")
		return "No gift card order found for reference " + ref
	}
	return m
}

func messagesOf(m any) []string {
	switch x := m.(type) {
	case string:
		return []string{x}
	case []any:
		out := make([]string, 0, len(x))
		for _, e := range x {
			s, _ := e.(string)
			out = append(out, s)
		}
		return out
	}
	return nil
}

func allContain(msgs []string, sub string) bool {
	for _, m := range msgs {
		if !strings.Contains(m, sub) {
			return false
		}
	}
	return len(msgs) > 0
}

func anyContain(msgs []string, sub string) bool {
	for _, m := range msgs {
		if strings.Contains(m, sub) {
			return true
		}
	}
	return false
}

// rewriteTree walks every object of the answer: cards, secure details, gift
// orders, timestamps and amounts.
func (s *Server) rewriteTree(n any, key string) {
	switch x := n.(type) {
	case map[string]any:
		s.rewriteObject(x)
		for k, c := range x {
			switch cv := c.(type) {
			case string:
				if k == "timestamp" || k == "createdAt" || k == "updatedAt" {
					x[k] = s.rewriteTS(cv, k == "timestamp" && key == "")
				}
			case json.Number:
				if s.variants.on(vAmountsMinimal) {
					x[k] = minimalNumber(cv)
				}
			default:
				s.rewriteTree(c, k)
			}
		}
	case []any:
		for _, c := range x {
			s.rewriteTree(c, key+"[]")
		}
	}
}

func (s *Server) rewriteObject(x map[string]any) {
	v := &s.variants
	if mp, ok := x["maskedPan"].(string); ok && len(mp) >= 10 {
		first6, last4 := mp[:6], mp[len(mp)-4:]
		switch {
		case v.on(vMaskFour):
			x["maskedPan"] = first6 + "****" + last4
		case v.on(vMaskGrouped):
			x["maskedPan"] = first6[:4] + " " + first6[4:] + "•• •••• " + last4
		}
	}
	if _, isCard := x["cardType"]; isCard && s.faults.on(fCreatedStatusPending) {
		x["createdStatus"] = "PENDING"
	}
	if _, isCard := x["cardType"]; isCard {
		if v.on(vColorThemeNull) {
			x["colorTheme"] = nil
		}
		if v.on(vOptionalAbsent) {
			delete(x, "colorTheme")
			delete(x, "cardBrand")
			delete(x, "billingAddress")
		}
	}
	if cvv, ok := x["cvv"].(string); ok && v.on(vCvvFour) && len(cvv) == 3 {
		x["cvv"] = cvv + "7"
	}
	if v.on(vGiftTwoStep) && x["orderStatus"] == "PROCESSING" {
		x["voucher"] = nil
	}
}

// rewriteTS renders a sandbox timestamp (UTC, milliseconds) another way.
func (s *Server) rewriteTS(t string, envelope bool) string {
	v := &s.variants
	p, err := time.Parse(time.RFC3339Nano, t)
	if err != nil {
		return t
	}
	switch {
	case v.on(vEnvTSLocal) && envelope:
		return p.In(time.FixedZone("", 3600)).Format("2006-01-02T15:04:05.000-07:00")
	case v.on(vTsOffset):
		return strings.TrimSuffix(t, "Z") + "+00:00"
	case v.on(vTsWholeSeconds):
		return p.UTC().Format("2006-01-02T15:04:05Z")
	case v.on(vTsMicros):
		return p.UTC().Format("2006-01-02T15:04:05.000000Z")
	}
	return t
}

// minimalNumber drops trailing zeros of a decimal: 5.00 -> 5, 2.50 -> 2.5.
func minimalNumber(n json.Number) json.Number {
	s := n.String()
	if !strings.Contains(s, ".") || strings.ContainsAny(s, "eE") {
		return n
	}
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	return json.Number(s)
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
