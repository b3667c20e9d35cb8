package sandbox

import (
	"fmt"
	"strings"
)

// Probes of the faults of faults_tenancy.go: each returns true when it
// observes the violated rule.
var _ = addProbes(map[string]func(h *sbx) bool{
	"card-cross-merchant-freeze": func(h *sbx) bool {
		btok := h.token(bravo, bravoTest)
		bid := h.card(btok, h.customer(btok), "1").s("data.id")
		return h.api("PATCH", "/cards/"+bid+"/status", h.token(alpha, alphaTest), `{"status":"FROZEN"}`).code != 404
	},
	"card-cross-merchant-lookup": func(h *sbx) bool {
		btok := h.token(bravo, bravoTest)
		bid := h.card(btok, h.customer(btok), "1").s("data.id")
		return h.api("GET", "/cards/"+bid+"/secure", h.token(alpha, alphaTest), nil).code != 404
	},
	"card-cross-merchant-read": func(h *sbx) bool {
		btok := h.token(bravo, bravoTest)
		id := h.card(btok, h.customer(btok), "2").s("data.id")
		return h.api("GET", "/cards/"+id, h.token(alpha, alphaTest), nil).code == 200
	},
	"card-list-tenant-leak": func(h *sbx) bool {
		_, bid := func() (string, string) {
			btok := h.token(bravo, bravoTest)
			return btok, h.card(btok, h.customer(btok), "1").s("data.id")
		}()
		return strings.Contains(string(h.api("GET", "/cards?limit=100", h.token(alpha, alphaTest), nil).want(200).body), bid)
	},
	"customer-list-tenant-leak": func(h *sbx) bool {
		id := h.customer(h.token(bravo, bravoTest))
		return strings.Contains(string(h.api("GET", "/cards/customers", h.token(alpha, alphaTest), nil).want(200).body), id)
	},
	"gift-verify-tenant-leak": func(h *sbx) bool {
		h.api("POST", "/gift-cards/purchase", h.token(bravo, bravoTest), fmt.Sprintf(giftBody, "gb1")).want(200)
		return h.api("GET", "/gift-cards/verify/gb1", h.token(alpha, alphaTest), nil).code != 404
	},
})
