package sandbox

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"time"

	"github.com/merchant-harness/mph/sandbox/ids"
)

// Probes of the faults of faults_cross*.go: each returns true when it
// observes the violated rule on the route the fault bends, and the
// route-scoped ones check that another route keeps the rule.

// status sends a request and returns the status without failing on a 5xx
// (a faulty sandbox's answer).
func (h *sbx) status(method, path, tok, body string, headers ...string) (int, http.Header, string) {
	h.t.Helper()
	var rd *strings.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	var req *http.Request
	if rd != nil {
		req = httptest.NewRequest(method, h.s.base+path, rd)
		req.Header.Set("Content-Type", "application/json")
	} else {
		req = httptest.NewRequest(method, h.s.base+path, nil)
	}
	req.RemoteAddr = h.ip
	if tok != "" {
		req.Header.Set("Authorization", "Bearer "+tok)
	}
	for _, hv := range headers {
		k, v, _ := strings.Cut(hv, ":")
		req.Header.Set(strings.TrimSpace(k), strings.TrimSpace(v))
	}
	w := httptest.NewRecorder()
	h.s.ServeHTTP(w, req)
	return w.Code, w.Header(), w.Body.String()
}

// giftOrderOf buys a gift card as alpha and returns the token, the order
// reference and its transaction id.
func giftOrderOf(h *sbx) (tok, ref, txn string) {
	tok = h.token(alpha, alphaTest)
	r := h.api("POST", "/gift-cards/purchase", tok, fmt.Sprintf(giftBody, "x-"+ids.Hex(4))).want(200)
	return tok, r.s("data.reference"), r.s("data.transactionId")
}

// forgedSig flips a token's signature.
func forgedSig(tok string) string {
	parts := strings.Split(tok, ".")
	sig := []byte(parts[2])
	if sig[0] == 'A' {
		sig[0] = 'B'
	} else {
		sig[0] = 'A'
	}
	return parts[0] + "." + parts[1] + "." + string(sig)
}

var _ = addProbes(map[string]func(h *sbx) bool{
	"auth-gift-module-decode-only": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		forged := forgedSig(tok)
		if c, _, _ := h.status("GET", "/cards", forged, ""); c != 401 {
			return true // the card routes still verify
		}
		h.fake.Advance(901 * time.Second)
		q, _, _ := h.status("GET", "/gift-cards/quote?productCode=AMAZON_US&amount=25", forged, "")
		e, _, _ := h.status("GET", "/gift-cards/quote?productCode=AMAZON_US&amount=25", tok, "")
		return q == 200 && e == 200
	},
	"auth-gift-verify-without-token": func(h *sbx) bool {
		_, ref, _ := giftOrderOf(h)
		c, _, _ := h.status("GET", "/gift-cards/verify/"+ref, "", "")
		return c == 200
	},
	"auth-basic-credentials-accepted": func(h *sbx) bool {
		basic := base64.StdEncoding.EncodeToString([]byte(alpha + ":" + alphaTest))
		c, _, _ := h.status("GET", "/cards/config", "", "", "Authorization: Basic "+basic)
		return c == 200
	},
	"auth-malformed-bearer-served": func(h *sbx) bool {
		c, _, _ := h.status("GET", "/cards", "not-a-jwt", "")
		return c == 200
	},
	"auth-contact-simulate-any-bearer": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		id := h.card(tok, h.customer(tok), "5").s("data.id")
		if c, _, _ := h.status("GET", "/cards/"+id, "not-a-jwt", ""); c != 401 {
			return true
		}
		c, _, _ := h.status("PATCH", "/cards/"+id+"/contact", "not-a-jwt", `{"email":"a@example.com"}`)
		return c == 200
	},
	"kyb-checked-on-card-routes-only": func(h *sbx) bool {
		tok := h.token(bravo, bravoLive)
		if c, _, _ := h.status("GET", "/cards/config", tok, ""); c != 403 {
			return true
		}
		c, _, _ := h.status("POST", "/gift-cards/purchase", tok, fmt.Sprintf(giftBody, "kyb-1"))
		return c == 200
	},
	"ip-whitelist-checked-on-card-routes-only": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		h.ctl("PUT", "/merchants/"+alpha+"/ip-whitelist", `{"environment":"TEST","ips":["203.0.113.10"]}`).want(200)
		if c, _, _ := h.status("GET", "/cards", tok, ""); c != 403 {
			return true
		}
		c, _, _ := h.status("GET", "/betting/quote?amount=5000", tok, "")
		return c == 200
	},
	"ip-whitelist-ignored": func(h *sbx) bool {
		h.ctl("PUT", "/merchants/"+alpha+"/ip-whitelist", `{"environment":"TEST","ips":["203.0.113.10"]}`).want(200)
		c, _, _ := h.status("POST", "/auth/token", "", `{"merchantId":"`+alpha+`","secretKey":"`+alphaTest+`"}`)
		return c == 200
	},
	"body-unchecked-500-token-purchase": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		if c, _, _ := h.status("PATCH", "/cards/crd_x/status", tok, "null"); c >= 500 {
			return true // the card module still refuses
		}
		t, _, _ := h.status("POST", "/auth/token", "", "null")
		p, _, _ := h.status("POST", "/gift-cards/purchase", tok, `{"amount":5,"recipientEmail":"a@b.co"}`)
		return t >= 500 && p >= 500
	},
	"body-unchecked-500-card-module": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		if c, _, _ := h.status("POST", "/auth/token", "", "null"); c >= 500 {
			return true
		}
		c, _, _ := h.status("POST", "/cards/customers", tok, `{"firstName":"A"}`)
		return c >= 500
	},
	"body-not-object-500": func(h *sbx) bool {
		c, _, _ := h.status("POST", "/auth/token", "", `[{"merchantId":"x"}]`)
		return c >= 500
	},
	"body-wrong-type-500": func(h *sbx) bool {
		c, _, _ := h.status("POST", "/auth/token", "", `{"merchantId":{"value":"x"},"secretKey":"y"}`)
		return c >= 500
	},
	"body-content-type-unchecked": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		id := h.card(tok, h.customer(tok), "5").s("data.id")
		c, _, _ := h.status("PATCH", "/cards/"+id+"/status", tok, `{"status":"FROZEN"}`, "Content-Type: text/plain")
		return c == 200
	},
	"amount-overflow-500": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		id := h.card(tok, h.customer(tok), "5").s("data.id")
		c, _, _ := h.status("POST", "/cards/"+id+"/withdraw", tok, `{"amount":1e400}`)
		return c >= 500
	},
	"gift-amount-sign-ignored": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		c, _, _ := h.status("POST", "/gift-cards/purchase", tok, `{"amount":-25,"recipientEmail":"a@b.co","recipientName":"A"}`)
		return c == 200
	},
	"validation-string-on-purchase": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		if _, isStr := h.api("POST", "/cards/customers", tok, `{}`).want(400).get("message").(string); isStr {
			return true
		}
		_, isStr := h.api("POST", "/gift-cards/purchase", tok, `{"amount":25}`).want(400).get("message").(string)
		return isStr
	},
	"gift-401-not-enveloped": func(h *sbx) bool {
		if !h.api("GET", "/cards", "", nil).want(401).has("path") {
			return true
		}
		return !h.api("GET", "/betting/quote?amount=5000", "", nil).want(401).has("statusCode")
	},
	"secure-cache-public": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		id := h.card(tok, h.customer(tok), "5").s("data.id")
		return strings.Contains(h.api("GET", "/cards/"+id+"/secure", tok, nil).want(200).hdr.Get("Cache-Control"), "public")
	},
	"gift-purchase-no-voucher": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		return !h.api("POST", "/gift-cards/purchase", tok, fmt.Sprintf(giftBody, "nv-1")).want(200).has("data.voucher")
	},
	"gift-purchase-success-while-processing": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		r := h.api("POST", "/gift-cards/purchase", tok, fmt.Sprintf(giftBody, "sp-1")).want(200)
		return r.s("data.orderStatus") == "PROCESSING" && r.get("data.isSuccessful") == true
	},
	"gift-lookup-success-flag-inverted": func(h *sbx) bool {
		tok, _, txn := giftOrderOf(h)
		r := h.api("GET", "/gift-cards/transactions/"+txn, tok, nil).want(200)
		return (r.s("data.orderStatus") == "SUCCESS") != (r.get("data.isSuccessful") == true)
	},
	"gift-verify-success-flag-stale": func(h *sbx) bool {
		tok, ref, _ := giftOrderOf(h)
		r := h.api("GET", "/gift-cards/verify/"+ref, tok, nil).want(200)
		return r.s("orderStatus") == "SUCCESS" && r.get("isSuccessful") != true
	},
	"customer-list-first-page-only": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		for range 11 {
			h.customer(tok)
		}
		return len(h.api("GET", "/cards/customers", tok, nil).want(200).list("data")) < 11
	},
	"unknown-card-500": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		c, _, _ := h.status("PATCH", "/cards/crd_nosuch/status", tok, `{"status":"FROZEN"}`)
		return c >= 500
	},
	"card-list-first-page-only": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		cus := h.customer(tok)
		for range 21 {
			h.card(tok, cus, "1")
		}
		return len(h.api("GET", "/cards?limit=50", tok, nil).want(200).list("data")) < 21
	},
})
