package sandbox

import "encoding/json"

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

// Probes of the config member faults: the member is not a JSON number.
var _ = addProbes(func() map[string]func(h *sbx) bool {
	m := map[string]func(h *sbx) bool{}
	for _, f := range configNumberFaults {
		member := f.member
		m["config-"+kebab(member)+"-string"] = func(h *sbx) bool {
			_, isNum := h.api("GET", "/cards/config", h.token(alpha, alphaTest), nil).want(200).get("data." + member).(json.Number)
			return !isNum
		}
	}
	return m
}())
