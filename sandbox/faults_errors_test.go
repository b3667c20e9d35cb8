package sandbox

import (
	"strings"
	"time"
)

// Probes of the faults of faults_errors.go: each returns true when it
// observes the violated rule.
var _ = addProbes(map[string]func(h *sbx) bool{
	"bearer-401-message-vague": func(h *sbx) bool {
		return !strings.Contains(strings.ToLower(msgOf(h.api("GET", "/cards", "", nil).want(401))), "bearer")
	},
	"error-envelope-no-path": func(h *sbx) bool {
		return !h.api("GET", "/cards", "", nil).want(401).has("path")
	},
	"error-reason-phrase-wrong": func(h *sbx) bool {
		return h.api("GET", "/cards", "", nil).want(401).s("error") != "Unauthorized"
	},
	"error-status-code-400": func(h *sbx) bool {
		return h.api("GET", "/cards", "", nil).want(401).num("statusCode") != "401"
	},
	"error-timestamp-http-date": func(h *sbx) bool {
		_, err := time.Parse(time.RFC3339, h.api("GET", "/cards", "", nil).want(401).s("timestamp"))
		return err != nil
	},
	"malformed-json-422": func(h *sbx) bool {
		return h.api("POST", "/cards/customers", h.token(alpha, alphaTest), `{"firstName":`).code != 400
	},
	"validation-message-not-array": func(h *sbx) bool {
		_, isArray := h.api("PATCH", "/cards/crd_x/status", h.token(alpha, alphaTest), `{}`).want(400).get("message").([]any)
		return !isArray
	},
})
