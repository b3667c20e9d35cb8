package sandbox

// Probes of the faults of faults_contact.go: each returns true when it
// observes the violated rule.
var _ = addProbes(map[string]func(h *sbx) bool{
	"contact-live-refused": func(h *sbx) bool {
		tok := h.token(alpha, alphaLive)
		id := h.card(tok, h.customer(tok), "1").s("data.id")
		return h.api("PATCH", "/cards/"+id+"/contact", tok, `{"email":"a@b.co"}`).code != 200
	},
	// contact and webhooks
	"contact-plus-mobile-refused": func(h *sbx) bool {
		tok, id := setupCard(h, "1")
		return h.api("PATCH", "/cards/"+id+"/contact", tok, `{"mobile":"+2348031234567"}`).code != 200
	},
})
