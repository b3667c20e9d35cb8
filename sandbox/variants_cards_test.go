package sandbox

import (
	"fmt"
	"time"
)

func init() { addVariantProbes(cardProbes) }

// getCard reads a fresh card.
func getCard(h *sbx) *resp {
	tok, id := setupCard(h, "2")
	return h.api("GET", "/cards/"+id, tok, nil).want(200)
}

// issue posts an issuance body's members for a new customer.
func issue(h *sbx, tok, cust, members string) *resp {
	return h.api("POST", "/cards", tok, fmt.Sprintf(`{"customerId":%q,%s}`, cust, members))
}

// limitsAfter sets limits in body on a fresh card and returns the answer.
func limitsAfter(h *sbx, body string) *resp {
	tok, id := setupCard(h, "2")
	return h.api("PUT", "/cards/"+id+"/spend-limits", tok, body)
}

// listSearch lists cards matching search after issuing one named name.
func listSearch(h *sbx, name, search string) int {
	tok := h.token(alpha, alphaTest)
	issue(h, tok, h.customer(tok), fmt.Sprintf(`"nameOnCard":%q,"amount":2`, name)).want(201)
	return len(h.api("GET", "/cards?search="+search, tok, nil).want(200).list("data"))
}

var cardProbes = map[string]func(h *sbx) bool{
	"card-descriptive-fields-null": func(h *sbx) bool {
		r := getCard(h)
		return r.has("data.cardBrand") && r.get("data.cardBrand") == nil && r.get("data.billingAddress") == nil
	},
	"card-billing-address-partial": func(h *sbx) bool {
		return getCard(h).get("data.billingAddress.state") == nil
	},
	"card-listing-summary": func(h *sbx) bool {
		tok, _ := setupCard(h, "2")
		l := h.api("GET", "/cards", tok, nil).want(200).list("data")
		_, hasBilling := l[0].(map[string]any)["billingAddress"]
		return !hasBilling && getCard(h).has("data.billingAddress")
	},
	"created-status-pending-first": func(h *sbx) bool {
		return getCard(h).s("data.createdStatus") == "PENDING"
	},
	"created-status-other-value": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		cus := h.customer(tok)
		for range 20 {
			if h.card(tok, cus, "2").s("data.createdStatus") == "ISSUED" {
				return true
			}
		}
		return false
	},
	"card-brand-title-case": func(h *sbx) bool { return getCard(h).s("data.cardBrand") == "Visa" },
	"secure-descriptive-fields-absent": func(h *sbx) bool {
		tok, id := setupCard(h, "2")
		r := h.api("GET", "/cards/"+id+"/secure", tok, nil).want(200)
		return !r.has("data.maskedPan") && r.has("data.cardNumber")
	},
	"secure-reference-null": func(h *sbx) bool {
		tok, id := setupCard(h, "2")
		return h.api("GET", "/cards/"+id+"/secure", tok, nil).want(200).get("data.reference") == nil
	},
	"config-exchange-rate-null": func(h *sbx) bool {
		r := h.api("GET", "/cards/config", h.token(alpha, alphaTest), nil).want(200)
		return r.has("data.exchangeRate") && r.get("data.exchangeRate") == nil
	},
	"config-exchange-rate-absent": func(h *sbx) bool {
		return !h.api("GET", "/cards/config", h.token(alpha, alphaTest), nil).want(200).has("data.exchangeRate")
	},
	"extra-members-nested": func(h *sbx) bool { return getCard(h).has("data.x-trace") },
	"not-shown-answers-envelope-b": func(h *sbx) bool {
		r := h.api("GET", "/cards/customers", h.token(alpha, alphaTest), nil).want(200)
		return r.has("success") && r.get("success") == true
	},
	"customer-record-minimal": func(h *sbx) bool {
		r := register(h, h.token(alpha, alphaTest), nil).want(201)
		return r.has("data.customerId") && !r.has("data.firstName")
	},
	"customer-id-numeric": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		id := register(h, tok, nil).want(201).get("data.customerId")
		if !isNumber(id) {
			return false
		}
		return h.api("POST", "/cards", tok, fmt.Sprintf(`{"customerId":%v,"nameOnCard":"Ada","amount":2}`, id)).code == 201
	},
	"issuance-answer-sparse": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		r := h.card(tok, h.customer(tok), "2")
		return r.has("data.id") && !r.has("data.balanceAmount")
	},
	"success-status-registration-200": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		r := register(h, tok, nil)
		return r.code == 200 && issue(h, tok, r.s("data.customerId"), `"nameOnCard":"Ada","amount":2`).code == 201
	},
	"success-status-always-200": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		r := register(h, tok, nil)
		return r.code == 200 && issue(h, tok, r.s("data.customerId"), `"nameOnCard":"Ada","amount":2`).code == 200
	},
	"withdraw-fee-from-card": func(h *sbx) bool {
		tok, id := setupCard(h, "2")
		return h.api("POST", "/cards/"+id+"/withdraw", tok, `{"amount":1}`).want(200).num("data.card.balanceAmount") == "0.95"
	},
	"fund-fee-percent": func(h *sbx) bool { return getCard(h).num("data.balanceAmount") == "1.98" },
	"spend-limits-put-restores-defaults": func(h *sbx) bool {
		return fmt.Sprint(limitsAfter(h, `{"transactionLimit":15}`).want(200).get("data.spendLimits.dailyLimit")) == "2500.00"
	},
	"spend-limits-unset-minus-one": func(h *sbx) bool {
		return fmt.Sprint(limitsAfter(h, `{"transactionLimit":15}`).want(200).get("data.spendLimits.dailyLimit")) == "-1.00"
	},
	"spend-limit-max-5000":  func(h *sbx) bool { return limitsAfter(h, `{"allTimeLimit":6000}`).code == 400 },
	"spend-limits-ordered":  func(h *sbx) bool { return limitsAfter(h, `{"transactionLimit":20,"dailyLimit":10}`).code == 400 },
	"card-funding-max-100":  func(h *sbx) bool { return issueAmount(h, "150") == 400 },
	"card-funding-max-1000": func(h *sbx) bool { return issueAmount(h, "1500") == 400 },
	"card-name-max-21": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		return issue(h, tok, h.customer(tok), `"nameOnCard":"Augusta Ada King Lovelace","amount":2`).code == 400
	},
	"card-name-letters-only": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		return issue(h, tok, h.customer(tok), `"nameOnCard":"Ada 2","amount":2`).code == 400
	},
	"card-name-embossing": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		cus := h.customer(tok)
		return issue(h, tok, cus, `"nameOnCard":"Ada 2","amount":2`).code == 400 &&
			issue(h, tok, cus, `"nameOnCard":"Augusta Ada King Lovelace","amount":2`).code == 400
	},
	"card-name-upper-case": func(h *sbx) bool { return getCard(h).s("data.nameOnCard") == "ADA LOVELACE" },
	"card-reference-max-20-alphanumeric": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		return issue(h, tok, h.customer(tok), `"nameOnCard":"Ada","amount":2,"reference":"mph-run-1-card-0001"`).code == 400
	},
	"cards-per-customer-5":  func(h *sbx) bool { return nthCardRefused(h, 6) },
	"cards-per-customer-10": func(h *sbx) bool { return nthCardRefused(h, 11) },
	"updated-at-on-every-read": func(h *sbx) bool {
		tok, id := setupCard(h, "2")
		h.fake.Advance(time.Minute)
		r := h.api("GET", "/cards/"+id, tok, nil).want(200)
		return r.s("data.updatedAt") != r.s("data.createdAt")
	},
	"secure-cache-private":        func(h *sbx) bool { return secureCache(h) == "private, max-age=0" },
	"secure-cache-spring-default": func(h *sbx) bool { return secureCache(h) == "no-cache, no-store, max-age=0, must-revalidate" },
	"secure-cache-header-absent":  func(h *sbx) bool { return secureCache(h) == "" },
	"customer-unique-id-number": func(h *sbx) bool {
		return secondRegistration(h, map[string]any{"email": "b@example.com", "phoneNumber": "08012345679"}) == 409
	},
	"customer-unique-phone": func(h *sbx) bool {
		return secondRegistration(h, map[string]any{"email": "b@example.com", "idNumber": "B1"}) == 409
	},
	"customer-unique-email": func(h *sbx) bool {
		return secondRegistration(h, map[string]any{"phoneNumber": "08012345679", "idNumber": "B1"}) == 409
	},
	"customer-unique-identity": func(h *sbx) bool {
		return secondRegistration(h, map[string]any{"phoneNumber": "08012345679", "idNumber": "B1"}) == 409
	},
	"customer-phone-validated": func(h *sbx) bool {
		return register(h, h.token(alpha, alphaTest), map[string]any{"phoneCountryCode": "+1", "phoneNumber": "5550100"}).code == 400
	},
	"customer-names-letters-only": func(h *sbx) bool {
		return register(h, h.token(alpha, alphaTest), map[string]any{"lastName": "Harness2"}).code == 400
	},
	"customer-approval-delayed": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		return issue(h, tok, h.customer(tok), `"nameOnCard":"Ada","amount":2`).code == 400
	},
	"customer-list-oldest-first": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		first := h.customer(tok)
		register(h, tok, map[string]any{"email": "b@example.com"}).want(201)
		return h.api("GET", "/cards/customers", tok, nil).want(200).s("data.0.customerId") == first
	},
	"listings-lag-2s": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		h.api("GET", "/cards", tok, nil).want(200)
		h.card(tok, h.customer(tok), "2")
		return len(h.api("GET", "/cards", tok, nil).want(200).list("data")) == 0
	},
	"vault-balance-lag-2s": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		before := h.api("GET", "/cards/config", tok, nil).want(200).num("data.vaultBalance")
		h.card(tok, h.customer(tok), "2")
		return h.api("GET", "/cards/config", tok, nil).want(200).num("data.vaultBalance") == before
	},
	"list-by-name": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		cus := h.customer(tok)
		amy := issue(h, tok, cus, `"nameOnCard":"Amy","amount":2`).want(201).s("data.id")
		issue(h, tok, cus, `"nameOnCard":"Zed","amount":2`).want(201)
		return h.api("GET", "/cards", tok, nil).want(200).s("data.0.id") == amy
	},
	"list-limit-clamped-50": func(h *sbx) bool {
		return h.api("GET", "/cards?limit=500", h.token(alpha, alphaTest), nil).code == 200
	},
	"search-customer-name":  func(h *sbx) bool { return listSearch(h, "Grace Hopper", "hopper") == 0 },
	"search-prefix":         func(h *sbx) bool { return listSearch(h, "Ada Lovelace", "lovelace") == 0 },
	"search-any-word":       func(h *sbx) bool { return listSearch(h, "Ada Lovelace", "grace%20lovelace") == 1 },
	"search-case-sensitive": func(h *sbx) bool { return listSearch(h, "Ada Lovelace", "LOVELACE") == 0 },
}

func issueAmount(h *sbx, amount string) int {
	tok := h.token(alpha, alphaTest)
	return issue(h, tok, h.customer(tok), `"nameOnCard":"Ada","amount":`+amount).code
}

// nthCardRefused issues cards to one customer and reports whether the nth
// is refused.
func nthCardRefused(h *sbx, n int) bool {
	tok := h.token(alpha, alphaTest)
	cus := h.customer(tok)
	for i := 1; i < n; i++ {
		if issue(h, tok, cus, `"nameOnCard":"Ada","amount":2`).code != 201 {
			return false
		}
	}
	return issue(h, tok, cus, `"nameOnCard":"Ada","amount":2`).code == 400
}

func secureCache(h *sbx) string {
	tok, id := setupCard(h, "2")
	return h.api("GET", "/cards/"+id+"/secure", tok, nil).want(200).hdr.Get("Cache-Control")
}

// secondRegistration registers validCustomer, then one with change, and
// returns the second's status.
func secondRegistration(h *sbx, change map[string]any) int {
	tok := h.token(alpha, alphaTest)
	register(h, tok, nil).want(201)
	return register(h, tok, change).code
}
