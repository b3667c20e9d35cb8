package sandbox

import (
	"fmt"
	"strings"
)

// Probes of the faults of faults_issuance.go: each returns true when it
// observes the violated rule.
var _ = addProbes(map[string]func(h *sbx) bool{
	"issue-duplicate-reference-accepted": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		cust := h.customer(tok)
		h.card(tok, cust, "1", `,"reference":"dup-1"`)
		return h.api("POST", "/cards", tok, fmt.Sprintf(`{"customerId":%q,"nameOnCard":"A","amount":1,"reference":"dup-1"}`, cust)).code != 409
	},
	// issuance
	"issue-min-funding-off-by-cent": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		return h.api("POST", "/cards", tok, fmt.Sprintf(`{"customerId":%q,"nameOnCard":"A","amount":0.99}`, h.customer(tok))).code == 201
	},
	"issue-no-creation-fee": func(h *sbx) bool {
		setupCard(h, "2")
		return h.ctl("GET", "/merchants/"+alpha, nil).num("vaultBalance") != "9997.00"
	},
	"issue-unknown-customer-accepted": func(h *sbx) bool {
		return h.api("POST", "/cards", h.token(alpha, alphaTest), `{"customerId":"cus_nosuch","nameOnCard":"A","amount":1}`).code == 201
	},
	"issue-vault-check-excludes-fee": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		cust := h.customer(tok)
		h.ctl("PUT", "/merchants/"+alpha+"/balances", `{"environment":"TEST","vaultBalance":5}`).want(200)
		return h.api("POST", "/cards", tok, fmt.Sprintf(`{"customerId":%q,"nameOnCard":"A","amount":5}`, cust)).code == 201
	},
	"issue-vault-exact-refused": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		cust := h.customer(tok)
		h.ctl("PUT", "/merchants/"+alpha+"/balances", `{"environment":"TEST","vaultBalance":6}`).want(200)
		return h.api("POST", "/cards", tok, fmt.Sprintf(`{"customerId":%q,"nameOnCard":"A","amount":5}`, cust)).code != 201
	},
	"issue-vault-message-no-total": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		cust := h.customer(tok)
		h.ctl("PUT", "/merchants/"+alpha+"/balances", `{"environment":"TEST","vaultBalance":5}`).want(200)
		r := h.api("POST", "/cards", tok, fmt.Sprintf(`{"customerId":%q,"nameOnCard":"A","amount":5}`, cust))
		return r.code == 400 && !strings.Contains(msgOf(r), "6.00")
	},
})

// Probes of the issuance answer faults: a card issued with name, reference
// and funding, compared with what was given and with a fresh GET.
var _ = addProbes(map[string]func(h *sbx) bool{
	"issue-answer-id-unknown": func(h *sbx) bool {
		tok, id := setupCard(h, "1")
		return h.api("GET", "/cards/"+id, tok, nil).code != 200
	},
	"issue-answer-not-as-given": func(h *sbx) bool {
		r := issuedCard(h)
		return r.s("data.nameOnCard") != "Ada Lovelace" || r.s("data.reference") != "given-ref-1" || r.num("data.balanceAmount") != "2.50"
	},
})

func issuedCard(h *sbx) *resp {
	tok := h.token(alpha, alphaTest)
	return h.card(tok, h.customer(tok), "2.50", `,"reference":"given-ref-1"`)
}
