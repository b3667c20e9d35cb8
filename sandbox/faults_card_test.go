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
	"secure-card-id-wrong": func(h *sbx) bool {
		tok, id := setupCard(h, "1")
		return h.api("GET", "/cards/"+id+"/secure", tok, nil).want(200).get("data.cardId") != id
	},
	"secure-masked-pan-other-digits": func(h *sbx) bool {
		tok, id := setupCard(h, "1")
		card := h.api("GET", "/cards/"+id, tok, nil).want(200)
		return h.api("GET", "/cards/"+id+"/secure", tok, nil).want(200).get("data.maskedPan") != card.get("data.maskedPan")
	},
	"secure-card-number-ungrouped": func(h *sbx) bool {
		return !groupedPAN(secureOf(h).get("data.cardNumber"))
	},
	"secure-pan-ungrouped": func(h *sbx) bool {
		return !groupedPAN(secureOf(h).get("data.pan"))
	},
	"secure-cvv-number": func(h *sbx) bool {
		_, ok := secureOf(h).get("data.cvv").(string)
		return !ok
	},
	"secure-expiry-month-number": func(h *sbx) bool {
		m, ok := secureOf(h).get("data.expiryMonth").(string)
		return !ok || len(m) != 2
	},
	"secure-expiry-year-two-digits": func(h *sbx) bool {
		y, ok := secureOf(h).get("data.expiryYear").(string)
		return !ok || len(y) != 4
	},
	"secure-billing-address-missing": func(h *sbx) bool {
		return !secureOf(h).has("data.billingAddress")
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
	"card-type-physical": func(h *sbx) bool {
		return fetchedCard(h).s("data.cardType") != "VIRTUAL"
	},
	"card-currency-ngn": func(h *sbx) bool {
		return fetchedCard(h).s("data.currency") != "USD"
	},
	"card-timestamps-local-offset": func(h *sbx) bool {
		r := fetchedCard(h)
		return !strings.HasSuffix(r.s("data.createdAt"), "Z") || !strings.HasSuffix(r.s("data.updatedAt"), "Z")
	},
})

func fetchedCard(h *sbx) *resp {
	tok, id := setupCard(h, "1")
	return h.api("GET", "/cards/"+id, tok, nil).want(200)
}
