package sandbox

import (
	"fmt"
	"strings"
)

// Probes of the faults of faults_envelopes.go: each returns true when it
// observes the violated rule.
var _ = addProbes(map[string]func(h *sbx) bool{
	"envelope-json-as-text-plain": func(h *sbx) bool {
		return !strings.HasPrefix(h.api("GET", "/cards", h.token(alpha, alphaTest), nil).want(200).hdr.Get("Content-Type"), "application/json")
	},
	// envelopes and errors
	"envelope-a-status-ok": func(h *sbx) bool {
		return h.api("GET", "/cards", h.token(alpha, alphaTest), nil).want(200).get("status") != "success"
	},
	"envelope-b-success-string": func(h *sbx) bool {
		tok, id := setupCard(h, "2")
		_, isBool := h.api("PATCH", "/cards/"+id+"/contact", tok, `{"email":"a@b.co"}`).want(200).get("success").(bool)
		return !isBool
	},
	"envelope-path-no-version-root": func(h *sbx) bool {
		return h.api("GET", "/cards", h.token(alpha, alphaTest), nil).want(200).s("path") != "/v1/merchant/cards"
	},
	"gift-verify-enveloped": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		h.api("POST", "/gift-cards/purchase", tok, fmt.Sprintf(giftBody, "g1")).want(200)
		r := h.api("GET", "/gift-cards/verify/g1", tok, nil).want(200)
		return r.has("data") || !r.has("orderStatus")
	},
})
