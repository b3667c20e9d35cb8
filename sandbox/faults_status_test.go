package sandbox

import "strings"

// Probes of the faults of faults_status.go: each returns true when it
// observes the violated rule.
var _ = addProbes(map[string]func(h *sbx) bool{
	"status-freeze-not-persisted": func(h *sbx) bool {
		tok, id := setupCard(h, "1")
		h.api("PATCH", "/cards/"+id+"/status", tok, `{"status":"FROZEN"}`).want(200)
		return h.api("GET", "/cards/"+id, tok, nil).s("data.status") != "FROZEN"
	},
	"status-freeze-sweeps-balance": func(h *sbx) bool {
		tok, id := setupCard(h, "2")
		h.api("PATCH", "/cards/"+id+"/status", tok, `{"status":"FROZEN"}`).want(200)
		return h.api("GET", "/cards/"+id, tok, nil).num("data.balanceAmount") != "2.00"
	},
	"status-unfreeze-not-persisted": func(h *sbx) bool {
		tok, id := setupCard(h, "1")
		h.api("PATCH", "/cards/"+id+"/status", tok, `{"status":"FROZEN"}`).want(200)
		h.api("PATCH", "/cards/"+id+"/status", tok, `{"status":"ACTIVE"}`).want(200)
		return h.api("GET", "/cards/"+id, tok, nil).s("data.status") != "ACTIVE"
	},
})

var _ = addProbes(map[string]func(h *sbx) bool{
	"status-message-silent": func(h *sbx) bool {
		tok, id := setupCard(h, "1")
		msg := h.api("PATCH", "/cards/"+id+"/status", tok, `{"status":"FROZEN"}`).want(200).s("data.message")
		return !strings.Contains(strings.ToLower(msg), "frozen")
	},
})
