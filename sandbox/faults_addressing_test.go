package sandbox

import (
	"strings"
)

// Probes of the faults of faults_addressing.go: each returns true when it
// observes the violated rule.
var _ = addProbes(map[string]func(h *sbx) bool{
	"card-created-status-pending": func(h *sbx) bool {
		tok, id := setupCard(h, "2")
		return h.api("GET", "/cards/"+id, tok, nil).want(200).s("data.createdStatus") != "COMPLETED"
	},
	"card-get-leaks-credentials": func(h *sbx) bool {
		tok, id := setupCard(h, "2")
		r := h.api("GET", "/cards/"+id, tok, nil).want(200)
		return r.has("data.cardNumber") || r.has("data.cvv")
	},
	"card-not-found-message-generic": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		msg := strings.ToLower(msgOf(h.api("POST", "/cards/crd_nosuch/withdraw", tok, `{"amount":0.5}`).want(404)))
		return !strings.Contains(msg, "card") || !strings.Contains(msg, "not found")
	},
	"card-writes-by-reference-404": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		h.card(tok, h.customer(tok), "2", `,"reference":"ref-w1"`)
		if h.api("GET", "/cards/ref-w1", tok, nil).code != 200 {
			return false
		}
		return h.api("POST", "/cards/ref-w1/withdraw", tok, `{"amount":0.5}`).code == 404
	},
	"limits-reset-on-update": func(h *sbx) bool {
		tok, id := setupCard(h, "2")
		h.api("PUT", "/cards/"+id+"/spend-limits", tok, `{"transactionLimit":20,"dailyLimit":60}`).want(200)
		r := h.api("PUT", "/cards/"+id+"/spend-limits", tok, `{"transactionLimit":15}`).want(200)
		return r.num("data.spendLimits.dailyLimit") != "60.00" || r.get("data.spendLimits.monthlyLimit") != nil
	},
})
