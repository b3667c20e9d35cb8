// Package rewrite is how the settings of the dimensions and the faults that
// bend answers change a merchant API answer after the handler ran: the
// 429's headers and form, the envelope (status, path, members, messages),
// the answer's shape, then every object, timestamp and number inside. The
// sandbox captures an answer and hands it to Answer when some setting or
// fault rewrites (variant.Set.Rewrites, fault.Set.Rewrites).
package rewrite

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"time"

	"github.com/merchant-harness/mph/clock"
	"github.com/merchant-harness/mph/sandbox/fault"
	"github.com/merchant-harness/mph/sandbox/ids"
	"github.com/merchant-harness/mph/sandbox/variant"
	"github.com/merchant-harness/mph/sandbox/wording"
)

// Rewriter rewrites the answers of one sandbox: its settings and faults,
// its base path and its clock.
type Rewriter struct {
	variants variant.Set
	faults   fault.Set
	base     string
	clk      clock.Clock
}

// New returns the rewriter of a sandbox with the settings vs and faults fs
// serving its merchant API under base, its time from clk.
func New(vs variant.Set, fs fault.Set, base string, clk clock.Clock) *Rewriter {
	return &Rewriter{variants: vs, faults: fs, base: base, clk: clk}
}

// Answer applies the active response-shape settings, in order: the
// 429's headers and form, the envelope (status, path, members, messages),
// the answer's shape, then every object, timestamp and number inside.
func (s *Rewriter) Answer(r *http.Request, rest string, code int, h http.Header, body []byte) (int, []byte) {
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
func (s *Rewriter) rewriteTop(r *http.Request, rest string, code int, top map[string]any) int {
	v := &s.variants
	if p, ok := top["path"].(string); ok {
		top["path"] = s.echoPath(r, p)
	}
	if v.On(variant.ExtraMembers) {
		top["requestId"] = "req_" + ids.Hex(8)
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
func (s *Rewriter) rewriteError(r *http.Request, rest string, code int, top map[string]any) int {
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
			top["timestamp"] = s.stamp()
			top["path"] = s.echoPath(r, r.URL.Path)
		}
	}
	return newCode
}

// reshape returns the answer's document under the shape settings: an
// envelope dropped or replaced, members renamed.
func (s *Rewriter) reshape(r *http.Request, rest string, code int, top map[string]any) any {
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
func (s *Rewriter) rewriteTree(n any, path string) {
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
func (s *Rewriter) rewriteObject(x map[string]any, path string) {
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
		x["x-trace"] = "trc_" + ids.Hex(4)
	}
}

// rewriteTS renders a sandbox timestamp (UTC, milliseconds) another way.
func (s *Rewriter) rewriteTS(t string, envelope bool) string {
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

// stamp is the clock's time in the form of the sandbox's timestamps.
func (s *Rewriter) stamp() string { return s.clk.Now().UTC().Format(wording.TimeLayout) }
