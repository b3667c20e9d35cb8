package sandbox

import (
	"regexp"
	"strings"
	"testing"
	"time"
)

func init() { addVariantProbes(moreProbes) }

// twoTransactions sets a daily limit of 10, approves 8 now and reports
// whether another 8 is approved after advancing the clock by d.
func twoTransactions(h *sbx, d time.Duration) bool {
	tok, id := setupCard(h, "50")
	h.api("PUT", "/cards/"+id+"/spend-limits", tok, `{"dailyLimit":10}`).want(200)
	if !txnApproved(h, id, "8") {
		return false
	}
	h.fake.Advance(d)
	return txnApproved(h, id, "8")
}

var moreProbes = map[string]func(h *sbx) bool{
	"reason-phrases-upper-case": func(h *sbx) bool { return unknownCard(h).s("error") == "NOT FOUND" },
	"gift-amount-5-to-100": func(h *sbx) bool {
		body := `{"amount":150,"recipientEmail":"a@b.co","recipientName":"A"}`
		return h.api("POST", "/gift-cards/purchase", h.token(alpha, alphaTest), body).code == 400
	},
	"ip-whitelist-calls-only": func(h *sbx) bool {
		r := h.api("POST", "/auth/token", "", map[string]string{"merchantId": delta, "secretKey": deltaTest})
		return r.code == 200 && h.api("GET", "/cards/config", r.s("data.accessToken"), nil).code == 403
	},
	"token-missing-member-401": func(h *sbx) bool {
		return h.api("POST", "/auth/token", "", `{"merchantId":"`+alpha+`"}`).code == 401
	},
	"amounts-rounded-to-cents": func(h *sbx) bool {
		tok, id := setupCard(h, "2")
		return h.api("POST", "/cards/"+id+"/withdraw", tok, `{"amount":0.505}`).code == 200
	},
	"callback-url-normalised": func(h *sbx) bool {
		return strings.HasSuffix(simulateDecline(h, newReceiver(h.t.(*testing.T), 200)).s("data.callback_url"), "/")
	},
	"simulate-reference-random": func(h *sbx) bool {
		r := simulateDecline(h, nil).s("data.reference")
		return strings.HasPrefix(r, "SIMULATE_") && !strings.HasPrefix(r, "SIMULATE_DECLINE_")
	},
	"bearer-challenge-header": func(h *sbx) bool {
		return strings.HasPrefix(h.api("GET", "/cards", "", nil).want(401).hdr.Get("WWW-Authenticate"), "Bearer")
	},
	"token-merchant-id-internal":       func(h *sbx) bool { return strings.HasPrefix(tokenAnswer(h).s("data.merchantId"), "mch_") },
	"token-answer-without-merchant-id": func(h *sbx) bool { return !tokenAnswer(h).has("data.merchantId") },
	"secret-key-bearer-accepted": func(h *sbx) bool {
		_, id := setupCard(h, "2")
		return h.api("PATCH", "/cards/"+id+"/contact", alphaTest, `{"email":"x@y.co"}`).code == 200
	},
	"kyb-at-token-exchange": func(h *sbx) bool {
		return h.api("POST", "/auth/token", "", map[string]string{"merchantId": bravo, "secretKey": bravoLive}).code == 403
	},
	"rate-limit-per-client-ip": func(h *sbx) bool {
		h.ctl("PUT", "/rate-limits", `{"read":{"rate":0.01,"burst":1}}`).want(200)
		h.api("GET", "/cards", h.token(alpha, alphaTest), nil).want(200)
		return h.rawLenient("GET", h.s.base+"/cards", "Authorization: Bearer "+h.token(bravo, bravoTest)).code == 429
	},
	"card-masked-pan-null-while-new": func(h *sbx) bool {
		r := getCard(h)
		return r.has("data.maskedPan") && r.get("data.maskedPan") == nil
	},
	"billing-country-lower-case": func(h *sbx) bool { return getCard(h).s("data.billingAddress.country") == "us" },
	"card-id-uuid": func(h *sbx) bool {
		return regexp.MustCompile(`^crd_[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-a[0-9a-f]{3}-[0-9a-f]{12}$`).MatchString(getCard(h).s("data.id"))
	},
	"card-issued-frozen": func(h *sbx) bool { return getCard(h).s("data.status") == "FROZEN" },
	"nulls-omitted": func(h *sbx) bool {
		return !limitsAfter(h, `{"transactionLimit":15}`).want(200).has("data.spendLimits.dailyLimit")
	},
	"spend-limits-unset-absent": func(h *sbx) bool {
		return !limitsAfter(h, `{"transactionLimit":15}`).want(200).has("data.spendLimits.dailyLimit")
	},
	"spend-limit-day-utc-plus-1":  func(h *sbx) bool { return twoTransactions(h, 11*time.Hour+30*time.Minute) },
	"spend-limit-day-utc-minus-5": func(h *sbx) bool { return !twoTransactions(h, 12*time.Hour+30*time.Minute) },
	"transaction-webhooks-without-declines": func(h *sbx) bool {
		rv := newReceiver(h.t.(*testing.T), 200)
		h.ctl("PUT", "/merchants/mer_demo_alpha/webhook", map[string]string{"url": rv.srv.URL, "secret": "k"}).want(200)
		_, id := setupCard(h, "2")
		return !txnApproved(h, id, "5") && len(rv.all()) == 0
	},
	"betting-quote-flat": func(h *sbx) bool {
		return h.api("GET", "/betting/quote?amount=5000", h.token(alpha, alphaTest), nil).want(200).has("totalDebit")
	},
	"gift-purchase-success-at-once": func(h *sbx) bool {
		return purchase(h, h.token(alpha, alphaTest), "gs1").want(200).s("data.orderStatus") == "SUCCESS"
	},
	"gift-purchases-per-recipient-3": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		for _, ref := range []string{"v1", "v2", "v3"} {
			purchase(h, tok, ref).want(200)
		}
		return purchase(h, tok, "v4").code == 400
	},
	"errors-401-three-members": func(h *sbx) bool {
		r := h.api("GET", "/cards", "", nil).want(401)
		return r.has("statusCode") && !r.has("status") && !r.has("path")
	},
	"malformed-id-400": func(h *sbx) bool {
		return h.api("GET", "/cards/bad!id", h.token(alpha, alphaTest), nil).code == 400
	},
	"live-simulation-card-first": func(h *sbx) bool {
		return h.api("POST", "/cards/crd_x/simulate-webhook", h.token(alpha, alphaLive), `{"event_type":"decline"}`).code == 404
	},
	"success-messages-terse": func(h *sbx) bool {
		tok, id := setupCard(h, "2")
		return h.api("POST", "/cards/"+id+"/withdraw", tok, `{"amount":1}`).want(200).s("data.message") == "OK"
	},
	"customer-fields-snake-case": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		snake := map[string]any{"phone_country_code": "+234", "date_of_birth": "1990-01-31", "id_type": "passport", "id_number": "A1", "postal_code": "100001"}
		return register(h, tok, nil).code == 400 && register(h, tok, snake).code == 201
	},
}
