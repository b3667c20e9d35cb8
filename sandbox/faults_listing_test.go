package sandbox

import (
	"strings"
)

// Probes of the faults of faults_listing.go: each returns true when it
// observes the violated rule.
var _ = addProbes(map[string]func(h *sbx) bool{
	"card-list-all-active-only": func(h *sbx) bool {
		tok, id := setupCard(h, "1")
		h.api("PATCH", "/cards/"+id+"/status", tok, `{"status":"FROZEN"}`).want(200)
		for _, c := range h.api("GET", "/cards?status=ALL", tok, nil).want(200).list("data") {
			if c.(map[string]any)["id"] == id {
				return false
			}
		}
		return true
	},
	"card-list-ignores-limit": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		cust := h.customer(tok)
		h.card(tok, cust, "1")
		h.card(tok, cust, "1")
		return len(h.api("GET", "/cards?limit=1", tok, nil).want(200).list("data")) != 1
	},
	// listing, get, secure
	"card-list-no-default-limit": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		cust := h.customer(tok)
		for i := 0; i < 51; i++ {
			h.card(tok, cust, "1")
		}
		return len(h.api("GET", "/cards", tok, nil).want(200).list("data")) != 50
	},
	"card-list-search-ignores-last4": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		c := h.card(tok, h.customer(tok), "1", `,"reference":"ref-x"`)
		pan := c.s("data.maskedPan")
		return !strings.Contains(string(h.api("GET", "/cards?search="+pan[len(pan)-4:], tok, nil).want(200).body), c.s("data.id"))
	},
	"card-list-status-filter-ignored": func(h *sbx) bool {
		tok, id := setupCard(h, "1")
		h.card(tok, h.customer(tok), "1")
		h.api("PATCH", "/cards/"+id+"/status", tok, `{"status":"FROZEN"}`).want(200)
		for _, c := range h.api("GET", "/cards?status=ACTIVE", tok, nil).want(200).list("data") {
			if c.(map[string]any)["status"] != "ACTIVE" {
				return true
			}
		}
		return false
	},
})
