package sandbox

import (
	"regexp"
	"strings"
)

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

// Probes of the secure member faults: the secure details of a fresh card,
// compared with the card it reveals.
var _ = addProbes(map[string]func(h *sbx) bool{
	"secure-identity-wrong": func(h *sbx) bool {
		tok, id := setupCard(h, "1")
		card := h.api("GET", "/cards/"+id, tok, nil).want(200)
		r := h.api("GET", "/cards/"+id+"/secure", tok, nil).want(200)
		return r.get("data.cardId") != id || r.get("data.maskedPan") != card.get("data.maskedPan")
	},
	"secure-formats-wrong": func(h *sbx) bool {
		r := secureOf(h)
		_, cvvStr := r.get("data.cvv").(string)
		m, monthStr := r.get("data.expiryMonth").(string)
		y, _ := r.get("data.expiryYear").(string)
		return !groupedPAN(r.get("data.cardNumber")) || !groupedPAN(r.get("data.pan")) || !cvvStr || !monthStr || len(m) != 2 ||
			len(y) != 4 || !r.has("data.billingAddress")
	},
})

func secureOf(h *sbx) *resp {
	tok, id := setupCard(h, "1")
	return h.api("GET", "/cards/"+id+"/secure", tok, nil).want(200)
}

func groupedPAN(v any) bool {
	s, _ := v.(string)
	return regexp.MustCompile(`^[0-9]{4} [0-9]{4} [0-9]{4} [0-9]{4}$`).MatchString(s)
}

// Probes of the card member faults: a card as answered by GET /cards/{id}.
var _ = addProbes(map[string]func(h *sbx) bool{
	"card-id-prefix-wrong": func(h *sbx) bool {
		tok, id := setupCard(h, "1")
		return !strings.HasPrefix(id, "crd_") || h.api("GET", "/cards", tok, nil).want(200).s("data.0.id") != id
	},
	"card-members-wrong": func(h *sbx) bool {
		r := fetchedCard(h)
		return r.s("data.cardType") != "VIRTUAL" || r.s("data.currency") != "USD" ||
			!strings.HasSuffix(r.s("data.createdAt"), "Z") || !strings.HasSuffix(r.s("data.updatedAt"), "Z")
	},
})

func fetchedCard(h *sbx) *resp {
	tok, id := setupCard(h, "1")
	return h.api("GET", "/cards/"+id, tok, nil).want(200)
}
