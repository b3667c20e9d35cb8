package sandbox

import (
	"encoding/json"

	"github.com/merchant-harness/mph/sandbox/fault"
)

// Probes of the faults of faults_config.go: each returns true when it
// observes the violated rule.
var _ = addProbes(map[string]func(h *sbx) bool{
	"config-environment-always-test": func(h *sbx) bool {
		return h.api("GET", "/cards/config", h.token(alpha, alphaLive), nil).want(200).s("data.environment") != "LIVE"
	},
	// configuration and customers
	"config-vault-stale": func(h *sbx) bool {
		tok, _ := setupCard(h, "2")
		return h.api("GET", "/cards/config", tok, nil).num("data.vaultBalance") != "9997.00"
	},
})

// The probe of config-amounts-as-strings: every amount but minFunding is
// not a JSON number.
var _ = addProbes(map[string]func(h *sbx) bool{
	"config-amounts-as-strings": func(h *sbx) bool {
		r := h.api("GET", "/cards/config", h.token(alpha, alphaTest), nil).want(200)
		for _, m := range fault.ConfigAmountMembers {
			if _, isNum := r.get("data." + m).(json.Number); isNum {
				return false
			}
		}
		return true
	},
})
