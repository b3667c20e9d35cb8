package sandbox

// Probes of the faults of faults_withdraw.go: each returns true when it
// observes the violated rule.
var _ = addProbes(map[string]func(h *sbx) bool{
	"card-withdraw-no-vault-credit": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		id := h.card(tok, h.customer(tok), "2").s("data.id")
		h.api("POST", "/cards/"+id+"/withdraw", tok, `{"amount":1}`).want(200)
		return h.api("GET", "/cards/config", tok, nil).num("data.vaultBalance") != "9997.95"
	},
	"card-withdraw-over-balance": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		id := h.card(tok, h.customer(tok), "2").s("data.id")
		return h.api("POST", "/cards/"+id+"/withdraw", tok, `{"amount":3}`).code == 200
	},
	// withdrawal, status, limits, transactions
	"withdraw-min-off-by-cent": func(h *sbx) bool {
		tok, id := setupCard(h, "1")
		return h.api("POST", "/cards/"+id+"/withdraw", tok, `{"amount":0.09}`).code == 200
	},
	"withdraw-not-persisted": func(h *sbx) bool {
		tok, id := setupCard(h, "2")
		h.api("POST", "/cards/"+id+"/withdraw", tok, `{"amount":1}`).want(200)
		return h.api("GET", "/cards/"+id, tok, nil).num("data.balanceAmount") != "1.00"
	},
})
