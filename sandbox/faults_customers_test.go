package sandbox

import (
	"strings"
)

// Probes of the faults of faults_customers.go: each returns true when it
// observes the violated rule.
var _ = addProbes(map[string]func(h *sbx) bool{
	"customer-email-optional": func(h *sbx) bool {
		body := map[string]any{}
		for k, v := range validCustomer {
			body[k] = v
		}
		delete(body, "email")
		return h.api("POST", "/cards/customers", h.token(alpha, alphaTest), body).code == 201
	},
	"customer-list-drops-newest": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		id := h.customer(tok)
		return !strings.Contains(string(h.api("GET", "/cards/customers", tok, nil).want(200).body), id)
	},
})

var _ = addProbes(map[string]func(h *sbx) bool{
	"customer-not-approved": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		cust := h.api("POST", "/cards/customers", tok, validCustomer).want(201).s("data.customerId")
		body := `{"customerId":"` + cust + `","nameOnCard":"Ada Lovelace","amount":1}`
		return h.api("POST", "/cards", tok, body).code != 201
	},
	"customer-id-missing": func(h *sbx) bool {
		return !h.api("POST", "/cards/customers", h.token(alpha, alphaTest), validCustomer).want(201).has("data.customerId")
	},
})
