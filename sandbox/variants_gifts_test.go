package sandbox

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"
)

func init() { addVariantProbes(giftProbes) }

// purchase buys a gift card with order reference ref.
func purchase(h *sbx, tok, ref string) *resp {
	return h.api("POST", "/gift-cards/purchase", tok, fmt.Sprintf(giftBody, ref))
}

// simulateDecline simulates a decline on a fresh card, with the merchant's
// webhook URL set to rv (nil: none).
func simulateDecline(h *sbx, rv *receiver) *resp {
	if rv != nil {
		h.ctl("PUT", "/merchants/mer_demo_alpha/webhook", map[string]string{"url": rv.srv.URL, "secret": "k"}).want(200)
	}
	tok, id := setupCard(h, "2")
	return h.api("POST", "/cards/"+id+"/simulate-webhook", tok, `{"event_type":"decline"}`).want(200)
}

// rateLimited provokes a 429.
func rateLimited(h *sbx) *resp {
	h.ctl("PUT", "/rate-limits", `{"read":{"rate":0.01,"burst":1}}`).want(200)
	tok := h.token(alpha, alphaTest)
	h.api("GET", "/cards", tok, nil).want(200)
	return h.rawLenient("GET", h.s.base+"/cards", "Authorization: Bearer "+tok)
}

// rawLenient sends a request whose answer may not be JSON.
func (h *sbx) rawLenient(method, path string, headers ...string) *resp {
	req, _ := http.NewRequest(method, "http://sandbox"+path, nil)
	req.RemoteAddr = h.ip
	for _, hv := range headers {
		k, v, _ := strings.Cut(hv, ":")
		req.Header.Set(strings.TrimSpace(k), strings.TrimSpace(v))
	}
	w := &recorder{h: http.Header{}}
	h.s.ServeHTTP(w, req)
	return &resp{t: h.t, code: w.code, hdr: w.h, body: []byte(w.b.String())}
}

type recorder struct {
	h    http.Header
	code int
	b    strings.Builder
}

func (r *recorder) Header() http.Header         { return r.h }
func (r *recorder) WriteHeader(c int)           { r.code = c }
func (r *recorder) Write(p []byte) (int, error) { return r.b.Write(p) }

var giftProbes = map[string]func(h *sbx) bool{
	"gift-verify-third-call": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		purchase(h, tok, "g3").want(200)
		h.api("GET", "/gift-cards/verify/g3", tok, nil).want(200)
		return h.api("GET", "/gift-cards/verify/g3", tok, nil).want(200).s("orderStatus") == "PROCESSING" &&
			h.api("GET", "/gift-cards/verify/g3", tok, nil).want(200).s("orderStatus") == "SUCCESS"
	},
	"gift-verify-after-3s": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		purchase(h, tok, "g3s").want(200)
		first := h.api("GET", "/gift-cards/verify/g3s", tok, nil).want(200).s("orderStatus")
		h.fake.Advance(3 * time.Second)
		return first == "PROCESSING" && h.api("GET", "/gift-cards/verify/g3s", tok, nil).want(200).s("orderStatus") == "SUCCESS"
	},
	"gift-status-pending": func(h *sbx) bool {
		return purchase(h, h.token(alpha, alphaTest), "gp").want(200).s("data.orderStatus") == "PENDING"
	},
	"gift-status-in-progress": func(h *sbx) bool {
		return purchase(h, h.token(alpha, alphaTest), "gp").want(200).s("data.orderStatus") == "IN_PROGRESS"
	},
	"gift-voucher-serial-null": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		purchase(h, tok, "gs").want(200)
		return h.api("GET", "/gift-cards/verify/gs", tok, nil).want(200).get("voucher.serialNumber") == nil
	},
	"gift-order-descriptive-absent": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		purchase(h, tok, "gd").want(200)
		return !h.api("GET", "/gift-cards/verify/gd", tok, nil).want(200).has("productName")
	},
	"gift-processing-order-sparse": func(h *sbx) bool {
		r := purchase(h, h.token(alpha, alphaTest), "gsp").want(200)
		return !r.has("data.voucher") && r.get("data.transactionId") == nil
	},
	"gift-lookup-voucher-card-number": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		txn := purchase(h, tok, "gc").want(200).s("data.transactionId")
		return h.api("GET", "/gift-cards/transactions/"+txn, tok, nil).want(200).has("data.voucher.cardNumber")
	},
	"quote-fee-included": func(h *sbx) bool {
		r := h.api("GET", "/gift-cards/quote?productCode=AMAZON_US&amount=25", h.token(alpha, alphaTest), nil).want(200)
		return r.num("data.subtotalNgn") == r.num("data.totalNgn")
	},
	"gift-price-moves": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		q := "/gift-cards/quote?productCode=AMAZON_US&amount=25"
		first := h.api("GET", q, tok, nil).want(200).num("data.totalNgn")
		h.fake.Advance(time.Second)
		return h.api("GET", q, tok, nil).want(200).num("data.totalNgn") != first
	},
	"gift-transaction-reference-separate": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		r := purchase(h, tok, "gt").want(200)
		return h.api("GET", "/gift-cards/verify/"+r.s("data.transactionId"), tok, nil).code == 404 &&
			h.api("GET", "/gift-cards/verify/"+r.s("data.transactionReference"), tok, nil).code == 200
	},
	"gift-debit-on-fulfilment": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		before := h.ctl("GET", "/merchants/"+alpha, nil).want(200).num("ngnBalance")
		purchase(h, tok, "gf").want(200)
		return h.ctl("GET", "/merchants/"+alpha, nil).want(200).num("ngnBalance") == before
	},
	"gift-instructions-per-call": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		purchase(h, tok, "gi").want(200)
		return strings.Contains(h.api("GET", "/gift-cards/verify/gi", tok, nil).want(200).s("voucher.instructions"), "Valid as of")
	},
	"gift-duplicate-compares-body": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		purchase(h, tok, "gdc").want(200)
		other := `{"amount":5,"recipientEmail":"b@b.co","recipientName":"A","reference":"gdc"}`
		return purchase(h, tok, "gdc").code == 200 && h.api("POST", "/gift-cards/purchase", tok, other).code == 422
	},
	"gift-amount-denominations": func(h *sbx) bool { return purchase(h, h.token(alpha, alphaTest), "ga").code == 400 },
	"gift-recipient-deliverable": func(h *sbx) bool {
		body := `{"amount":5,"recipientEmail":"a@example.com","recipientName":"A"}`
		return h.api("POST", "/gift-cards/purchase", h.token(alpha, alphaTest), body).code == 400
	},
	"webhook-dispatch-queued": func(h *sbx) bool {
		return simulateDecline(h, newReceiver(h.t.(*testing.T), 500)).get("data.dispatched") == true
	},
	"webhook-delivery-delayed-2s": func(h *sbx) bool {
		start := time.Now()
		simulateDecline(h, newReceiver(h.t.(*testing.T), 200))
		return time.Since(start) >= 1900*time.Millisecond
	},
	"webhook-redelivery-new-id": func(h *sbx) bool {
		got := simulateTo(h)
		return len(got) == 2 && string(got[0].body) != string(got[1].body)
	},
	"webhook-payload-flat": func(h *sbx) bool {
		got := simulateTo(h)
		return len(got) > 0 && strings.Contains(string(got[0].body), `"event_type":"virtualcard.transaction.declined"`)
	},
	"webhook-unsigned": func(h *sbx) bool {
		got := simulateTo(h)
		return len(got) > 0 && got[0].hdr.Get("X-MPH-Signature") == ""
	},
	"webhook-signature-timestamped": func(h *sbx) bool {
		got := simulateTo(h)
		return len(got) > 0 && strings.HasPrefix(got[0].hdr.Get("X-Signature"), "t=")
	},
	"webhook-signature-base64": func(h *sbx) bool {
		got := simulateTo(h)
		return len(got) > 0 && got[0].hdr.Get("X-Webhook-Signature") != ""
	},
	"skip-reason-sentences": func(h *sbx) bool {
		return simulateDecline(h, nil).s("data.skip_reason") == "No webhook URL is configured for this merchant"
	},
	"webhook-skip-reason-absent": func(h *sbx) bool {
		return !simulateDecline(h, newReceiver(h.t.(*testing.T), 200)).has("data.skip_reason")
	},
	"webhook-callback-url-null": func(h *sbx) bool {
		r := simulateDecline(h, nil)
		return r.has("data.callback_url") && r.get("data.callback_url") == nil
	},
	"simulation-success-mirrors-dispatch": func(h *sbx) bool { return simulateDecline(h, nil).get("success") == false },
	"contact-update-queued": func(h *sbx) bool {
		tok, id := setupCard(h, "2")
		return h.api("PATCH", "/cards/"+id+"/contact", tok, `{"email":"x@y.co"}`).want(200).get("data.success") == false
	},
	"token-jwe-compact": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		return strings.Count(tok, ".") == 4 && h.api("GET", "/cards/config", tok, nil).code == 200 &&
			h.api("GET", "/cards/config", tok[:len(tok)-2]+"AA", nil).code == 401
	},
	"token-type-lower-case": func(h *sbx) bool { return tokenAnswer(h).s("data.tokenType") == "bearer" },
	"merchant-header-token-only": func(h *sbx) bool {
		ok := h.api("GET", "/cards/config", h.token(alpha, alphaTest), nil, "X-Merchant-Id: mer_other").code == 200
		return ok && h.api("POST", "/auth/token", "", map[string]string{"merchantId": alpha, "secretKey": alphaTest}, "X-Merchant-Id: mer_other").code == 401
	},
	"merchant-header-requests-only": func(h *sbx) bool {
		ok := h.api("POST", "/auth/token", "", map[string]string{"merchantId": alpha, "secretKey": alphaTest}, "X-Merchant-Id: mer_other").code == 200
		return ok && h.api("GET", "/cards/config", h.token(alpha, alphaTest), nil, "X-Merchant-Id: mer_other").code == 401
	},
	"kyb-writes-only": func(h *sbx) bool {
		tok := h.token(bravo, bravoLive)
		return h.api("GET", "/cards/config", tok, nil).code == 200 && register(h, tok, nil).code == 403
	},
	"token-lockout-after-10-failures": func(h *sbx) bool {
		for range 10 {
			h.api("POST", "/auth/token", "", map[string]string{"merchantId": alpha, "secretKey": "sk_test_wrong"}).want(401)
		}
		return h.api("POST", "/auth/token", "", map[string]string{"merchantId": alpha, "secretKey": alphaTest}).code == 429
	},
	"rate-limit-gateway-plain-text": func(h *sbx) bool {
		return strings.HasPrefix(rateLimited(h).hdr.Get("Content-Type"), "text/plain")
	},
	"rate-limit-gateway-json-message": func(h *sbx) bool {
		return string(rateLimited(h).body) == `{"message":"Too Many Requests"}`
	},
	"rate-limit-gateway-html": func(h *sbx) bool {
		return strings.HasPrefix(rateLimited(h).hdr.Get("Content-Type"), "text/html")
	},
	"retry-after-http-date": func(h *sbx) bool {
		_, err := http.ParseTime(rateLimited(h).hdr.Get("Retry-After"))
		return err == nil
	},
	"ratelimit-reset-headers": func(h *sbx) bool {
		r := rateLimited(h)
		return r.hdr.Get("RateLimit-Reset") != "" && r.hdr.Get("Retry-After") == ""
	},
}
