package sandbox

import (
	"fmt"
	"strings"
)

func init() { addVariantProbes(refusalProbes) }

// vaultShortMessage provokes scenario 1 and returns its message.
func vaultShortMessage(h *sbx) string {
	tok := h.token(alpha, alphaTest)
	body := fmt.Sprintf(`{"customerId":%q,"nameOnCard":"Ada Lovelace","amount":20000}`, h.customer(tok))
	return msgOf(h.api("POST", "/cards", tok, body).want(400))
}

// isString reports whether the answer's message is one string.
func isString(r *resp) bool {
	_, ok := r.get("message").(string)
	return ok
}

// freezeCard issues a card and freezes it.
func freezeCard(h *sbx) (tok, id string) {
	tok, id = setupCard(h, "2")
	h.api("PATCH", "/cards/"+id+"/status", tok, `{"status":"FROZEN"}`).want(200)
	return tok, id
}

// register posts a customer with the given members changed.
func register(h *sbx, tok string, change map[string]any) *resp {
	body := map[string]any{}
	for k, v := range validCustomer {
		body[k] = v
	}
	for k, v := range change {
		body[k] = v
	}
	return h.api("POST", "/cards/customers", tok, body)
}

var refusalProbes = map[string]func(h *sbx) bool{
	"messages-everyday-phrasing": func(h *sbx) bool { return msgOf(unknownCard(h)) == "Card doesn't exist" },
	"messages-german":            func(h *sbx) bool { return msgOf(unknownCard(h)) == "Virtuelle Karte nicht gefunden" },
	"message-amounts-currency-first": func(h *sbx) bool {
		return strings.Contains(vaultShortMessage(h), "available USD 10000.00")
	},
	"message-amounts-grouped": func(h *sbx) bool {
		return strings.Contains(vaultShortMessage(h), "available 10,000.00 USD")
	},
	"message-amounts-decimal-comma": func(h *sbx) bool {
		return strings.Contains(vaultShortMessage(h), "available 10.000,00 USD")
	},
	"validation-messages-reworded": func(h *sbx) bool {
		tok, id := setupCard(h, "2")
		return strings.Contains(msgOf(h.api("POST", "/cards/"+id+"/withdraw", tok, `{}`).want(400)), "amount is required")
	},
	"status-message-blocked": func(h *sbx) bool {
		tok, id := setupCard(h, "2")
		return h.api("PATCH", "/cards/"+id+"/status", tok, `{"status":"FROZEN"}`).want(200).s("data.message") == "Card blocked"
	},
	"status-message-activated": func(h *sbx) bool {
		tok, id := freezeCard(h)
		return h.api("PATCH", "/cards/"+id+"/status", tok, `{"status":"ACTIVE"}`).want(200).s("data.message") == "Card activated successfully"
	},
	"withdraw-above-balance-409": func(h *sbx) bool {
		tok, id := setupCard(h, "2")
		return h.api("POST", "/cards/"+id+"/withdraw", tok, `{"amount":50}`).code == 409
	},
	"frozen-secure-409": func(h *sbx) bool {
		tok, id := freezeCard(h)
		return h.api("GET", "/cards/"+id+"/secure", tok, nil).code == 409
	},
	"frozen-secure-423": func(h *sbx) bool {
		tok, id := freezeCard(h)
		return h.api("GET", "/cards/"+id+"/secure", tok, nil).code == 423
	},
	"empty-enum-as-invalid-value": func(h *sbx) bool {
		tok, id := setupCard(h, "2")
		return isString(h.api("PATCH", "/cards/"+id+"/status", tok, `{"status":""}`).want(400))
	},
	"wrong-type-string-message": func(h *sbx) bool {
		tok, id := setupCard(h, "2")
		return isString(h.api("POST", "/cards/"+id+"/withdraw", tok, `{"amount":true}`).want(400))
	},
	"status-same-409": func(h *sbx) bool {
		tok, id := setupCard(h, "2")
		return h.api("PATCH", "/cards/"+id+"/status", tok, `{"status":"ACTIVE"}`).code == 409
	},
	"request-content-type-ignored": func(h *sbx) bool {
		tok, id := setupCard(h, "2")
		return h.raw("POST", h.s.base+"/cards/"+id+"/withdraw", `{"amount":0.5}`, "Authorization: Bearer "+tok, "Content-Type: text/plain").code == 200
	},
	"request-content-type-415": func(h *sbx) bool {
		tok, id := setupCard(h, "2")
		return h.raw("POST", h.s.base+"/cards/"+id+"/withdraw", `{"amount":0.5}`, "Authorization: Bearer "+tok, "Content-Type: text/plain").code == 415
	},
	"numeric-strings-accepted": func(h *sbx) bool {
		tok, id := setupCard(h, "2")
		return h.api("POST", "/cards/"+id+"/withdraw", tok, `{"amount":"0.50"}`).code == 200
	},
	"spend-limits-non-positive-unsets": func(h *sbx) bool {
		tok, id := setupCard(h, "2")
		return h.api("PUT", "/cards/"+id+"/spend-limits", tok, `{"dailyLimit":-1}`).code == 200
	},
	"customer-country-2-letters-accepted": func(h *sbx) bool {
		return register(h, h.token(alpha, alphaTest), map[string]any{"country": "NG"}).code == 201
	},
	"customer-birth-date-basic-accepted": func(h *sbx) bool {
		return register(h, h.token(alpha, alphaTest), map[string]any{"dateOfBirth": "19900131"}).code == 201
	},
	"contact-mobile-unchecked": func(h *sbx) bool {
		tok, id := setupCard(h, "2")
		return h.api("PATCH", "/cards/"+id+"/contact", tok, `{"mobile":"call me"}`).code == 200
	},
	"long-path-414": func(h *sbx) bool {
		return h.api("GET", "/cards/"+strings.Repeat("x", 3000), h.token(alpha, alphaTest), nil).code == 414
	},
	"live-simulation-400": func(h *sbx) bool {
		return h.api("POST", "/cards/crd_x/simulate-webhook", h.token(alpha, alphaLive), `{"event_type":"decline"}`).code == 400
	},
	"checks-body-before-auth": func(h *sbx) bool {
		return h.api("POST", "/cards/crd_x/withdraw", "", `{"amount":`).code == 400
	},
	"checks-existence-before-auth": func(h *sbx) bool {
		return h.api("GET", "/cards/crd_nosuch", "", nil).code == 404
	},
	"checks-card-before-body": func(h *sbx) bool {
		return h.api("POST", "/cards/crd_nosuch/withdraw", h.token(alpha, alphaTest), `{}`).code == 404
	},
	"checks-business-before-validation": func(h *sbx) bool {
		return h.api("POST", "/cards", h.token(alpha, alphaTest), `{"customerId":"cus_nosuch"}`).code == 404
	},
}
