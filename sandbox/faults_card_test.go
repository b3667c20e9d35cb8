package sandbox

// Probes of the faults of faults_card.go: each returns true when it
// observes the violated rule.
var _ = addProbes(map[string]func(h *sbx) bool{
	"card-reference-lookup-broken": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		h.card(tok, h.customer(tok), "1", `,"reference":"by-ref-1"`)
		return h.api("GET", "/cards/by-ref-1", tok, nil).code != 200
	},
	"card-secure-reveals-frozen": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		id := h.card(tok, h.customer(tok), "2").s("data.id")
		h.api("PATCH", "/cards/"+id+"/status", tok, `{"status":"FROZEN"}`).want(200)
		return h.api("GET", "/cards/"+id+"/secure", tok, nil).code == 200
	},
	"secure-expiration-date-mismatch": func(h *sbx) bool {
		tok, id := setupCard(h, "1")
		r := h.api("GET", "/cards/"+id+"/secure", tok, nil).want(200)
		return r.s("data.expirationDate") != r.s("data.expiryMonth")+"/"+r.s("data.expiryYear")[2:]
	},
})
