package sandbox

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/merchant-harness/mph/requirements"
)

// TestFaultCatalogueEntries checks every fault of the catalogue: a unique
// kebab-case name, a description, requirement IDs that exist in
// requirements/catalog.yaml (and are testable: a fault of an untestable rule
// could never be killed), and that it can be selected on its own.
func TestFaultCatalogueEntries(t *testing.T) {
	fs := Faults()
	if len(fs) < 60 {
		t.Errorf("the catalogue has %d faults, issue 4 wants at least 60", len(fs))
	}
	seen := map[string]bool{}
	for _, f := range fs {
		if seen[f.Name] {
			t.Errorf("duplicate fault name %q", f.Name)
		}
		seen[f.Name] = true
		if f.Name != strings.ToLower(f.Name) || strings.ContainsAny(f.Name, " _") || strings.Trim(f.Name, "-") != f.Name {
			t.Errorf("fault name %q is not kebab-case", f.Name)
		}
		if strings.TrimSpace(f.Description) == "" {
			t.Errorf("fault %s has no description", f.Name)
		}
		if len(f.Requirements) == 0 {
			t.Errorf("fault %s names no requirement", f.Name)
		}
		for _, id := range f.Requirements {
			r, ok := requirements.Lookup(id)
			if !ok {
				t.Errorf("fault %s names unknown requirement %s", f.Name, id)
			} else if !r.Testable {
				t.Errorf("fault %s names untestable requirement %s", f.Name, id)
			}
		}
		s, err := New(Options{Faults: []string{f.Name}})
		if err != nil {
			t.Errorf("fault %s cannot be selected: %v", f.Name, err)
			continue
		}
		if s.faults == (faultSet{}) {
			t.Errorf("selecting fault %s sets no fault", f.Name)
		}
	}
	// Each fault sets its own flag: no two faults select the same behaviour.
	byFlags := map[faultSet]string{}
	for _, f := range fs {
		s, err := New(Options{Faults: []string{f.Name}})
		if err != nil {
			continue
		}
		if other, dup := byFlags[s.faults]; dup {
			t.Errorf("faults %s and %s set the same flags", other, f.Name)
		}
		byFlags[s.faults] = f.Name
	}
	if s, err := New(Options{}); err != nil || s.faults != (faultSet{}) {
		t.Errorf("a sandbox without faults has faults set (%v)", err)
	}
}

// Probes of the faults of faults_catalogue.go (see probes in faults_test.go):
// each returns true when it observes the violated rule.
func init() {
	for name, p := range moreProbes {
		probes[name] = p
	}
}

func setupCard(h *sbx, amount string) (tok, id string) {
	tok = h.token(alpha, alphaTest)
	return tok, h.card(tok, h.customer(tok), amount).s("data.id")
}

func txnApproved(h *sbx, id, amount string) bool {
	return h.ctl("POST", "/cards/"+id+"/transactions", `{"amount":`+amount+`}`).want(200).get("approved") == true
}

func msgOf(r *resp) string {
	if !r.has("message") {
		return ""
	}
	return fmt.Sprint(r.get("message"))
}

const giftBody = `{"amount":5,"recipientEmail":"a@b.co","recipientName":"A","reference":%q}`

var moreProbes = map[string]func(h *sbx) bool{
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
	"error-reason-phrase-wrong": func(h *sbx) bool {
		return h.api("GET", "/cards", "", nil).want(401).s("error") != "Unauthorized"
	},
	"validation-message-not-array": func(h *sbx) bool {
		_, isArray := h.api("PATCH", "/cards/crd_x/status", h.token(alpha, alphaTest), `{}`).want(400).get("message").([]any)
		return !isArray
	},
	"malformed-json-422": func(h *sbx) bool {
		return h.api("POST", "/cards/customers", h.token(alpha, alphaTest), `{"firstName":`).code != 400
	},
	"bearer-401-message-vague": func(h *sbx) bool {
		return !strings.Contains(strings.ToLower(msgOf(h.api("GET", "/cards", "", nil).want(401))), "bearer")
	},

	// authentication
	"auth-forged-signature-accepted": func(h *sbx) bool {
		parts := strings.Split(h.token(alpha, alphaTest), ".")
		sig := []byte(parts[2])
		if sig[0] == 'A' {
			sig[0] = 'B'
		} else {
			sig[0] = 'A'
		}
		return h.api("GET", "/cards", parts[0]+"."+parts[1]+"."+string(sig), nil).code == 200
	},
	"auth-quotes-without-token": func(h *sbx) bool {
		return h.api("GET", "/betting/quote?amount=5000", "", nil).code == 200
	},
	"auth-wrong-secret-accepted": func(h *sbx) bool {
		return h.api("POST", "/auth/token", "", map[string]string{"merchantId": alpha, "secretKey": "sk_test_wrong"}).code == 200
	},
	"auth-kyb-check-skipped": func(h *sbx) bool {
		return h.api("GET", "/cards/config", h.token(bravo, bravoLive), nil).code == 200
	},
	"auth-ip-whitelist-per-call-skipped": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		h.ctl("PUT", "/merchants/"+alpha+"/ip-whitelist", `{"environment":"TEST","ips":["203.0.113.10"]}`).want(200)
		return h.api("GET", "/cards", tok, nil).code == 200
	},
	"token-lifetime-600s": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		h.fake.Advance(14 * time.Minute)
		return h.api("GET", "/cards", tok, nil).code != 200
	},

	// configuration and customers
	"config-vault-stale": func(h *sbx) bool {
		tok, _ := setupCard(h, "2")
		return h.api("GET", "/cards/config", tok, nil).num("data.vaultBalance") != "9997.00"
	},
	"config-environment-always-test": func(h *sbx) bool {
		return h.api("GET", "/cards/config", h.token(alpha, alphaLive), nil).want(200).s("data.environment") != "LIVE"
	},
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
	"customer-list-tenant-leak": func(h *sbx) bool {
		id := h.customer(h.token(bravo, bravoTest))
		return strings.Contains(string(h.api("GET", "/cards/customers", h.token(alpha, alphaTest), nil).want(200).body), id)
	},

	// issuance
	"issue-min-funding-off-by-cent": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		return h.api("POST", "/cards", tok, fmt.Sprintf(`{"customerId":%q,"nameOnCard":"A","amount":0.99}`, h.customer(tok))).code == 201
	},
	"issue-no-creation-fee": func(h *sbx) bool {
		setupCard(h, "2")
		return h.ctl("GET", "/merchants/"+alpha, nil).num("vaultBalance") != "9997.00"
	},
	"issue-vault-check-excludes-fee": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		cust := h.customer(tok)
		h.ctl("PUT", "/merchants/"+alpha+"/balances", `{"environment":"TEST","vaultBalance":5}`).want(200)
		return h.api("POST", "/cards", tok, fmt.Sprintf(`{"customerId":%q,"nameOnCard":"A","amount":5}`, cust)).code == 201
	},
	"issue-vault-exact-refused": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		cust := h.customer(tok)
		h.ctl("PUT", "/merchants/"+alpha+"/balances", `{"environment":"TEST","vaultBalance":6}`).want(200)
		return h.api("POST", "/cards", tok, fmt.Sprintf(`{"customerId":%q,"nameOnCard":"A","amount":5}`, cust)).code != 201
	},
	"issue-vault-message-no-total": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		cust := h.customer(tok)
		h.ctl("PUT", "/merchants/"+alpha+"/balances", `{"environment":"TEST","vaultBalance":5}`).want(200)
		r := h.api("POST", "/cards", tok, fmt.Sprintf(`{"customerId":%q,"nameOnCard":"A","amount":5}`, cust))
		return r.code == 400 && !strings.Contains(msgOf(r), "6.00")
	},
	"issue-unknown-customer-accepted": func(h *sbx) bool {
		return h.api("POST", "/cards", h.token(alpha, alphaTest), `{"customerId":"cus_nosuch","nameOnCard":"A","amount":1}`).code == 201
	},
	"issue-duplicate-reference-accepted": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		cust := h.customer(tok)
		h.card(tok, cust, "1", `,"reference":"dup-1"`)
		return h.api("POST", "/cards", tok, fmt.Sprintf(`{"customerId":%q,"nameOnCard":"A","amount":1,"reference":"dup-1"}`, cust)).code != 409
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
	"card-list-search-ignores-last4": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		c := h.card(tok, h.customer(tok), "1", `,"reference":"ref-x"`)
		pan := c.s("data.maskedPan")
		return !strings.Contains(string(h.api("GET", "/cards?search="+pan[len(pan)-4:], tok, nil).want(200).body), c.s("data.id"))
	},
	"card-list-tenant-leak": func(h *sbx) bool {
		_, bid := func() (string, string) {
			btok := h.token(bravo, bravoTest)
			return btok, h.card(btok, h.customer(btok), "1").s("data.id")
		}()
		return strings.Contains(string(h.api("GET", "/cards?limit=100", h.token(alpha, alphaTest), nil).want(200).body), bid)
	},
	"card-reference-lookup-broken": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		h.card(tok, h.customer(tok), "1", `,"reference":"by-ref-1"`)
		return h.api("GET", "/cards/by-ref-1", tok, nil).code != 200
	},
	"secure-expiration-date-mismatch": func(h *sbx) bool {
		tok, id := setupCard(h, "1")
		r := h.api("GET", "/cards/"+id+"/secure", tok, nil).want(200)
		return r.s("data.expirationDate") != r.s("data.expiryMonth")+"/"+r.s("data.expiryYear")[2:]
	},
	"card-cross-merchant-freeze": func(h *sbx) bool {
		btok := h.token(bravo, bravoTest)
		bid := h.card(btok, h.customer(btok), "1").s("data.id")
		return h.api("PATCH", "/cards/"+bid+"/status", h.token(alpha, alphaTest), `{"status":"FROZEN"}`).code != 404
	},

	// withdrawal, status, limits, transactions
	"withdraw-min-off-by-cent": func(h *sbx) bool {
		tok, id := setupCard(h, "1")
		return h.api("POST", "/cards/"+id+"/withdraw", tok, `{"amount":0.09}`).code == 200
	},
	"withdraw-not-persisted": func(h *sbx) bool {
		tok, id := setupCard(h, "2")
		h.api("POST", "/cards/"+id+"/withdraw", tok, `{"amount":1}`).want(200)
		return h.api("GET", "/cards/"+id, tok, nil).num("data.balanceAmount") != "1.00"
	},
	"status-freeze-not-persisted": func(h *sbx) bool {
		tok, id := setupCard(h, "1")
		h.api("PATCH", "/cards/"+id+"/status", tok, `{"status":"FROZEN"}`).want(200)
		return h.api("GET", "/cards/"+id, tok, nil).s("data.status") != "FROZEN"
	},
	"status-unfreeze-not-persisted": func(h *sbx) bool {
		tok, id := setupCard(h, "1")
		h.api("PATCH", "/cards/"+id+"/status", tok, `{"status":"FROZEN"}`).want(200)
		h.api("PATCH", "/cards/"+id+"/status", tok, `{"status":"ACTIVE"}`).want(200)
		return h.api("GET", "/cards/"+id, tok, nil).s("data.status") != "ACTIVE"
	},
	"status-freeze-sweeps-balance": func(h *sbx) bool {
		tok, id := setupCard(h, "2")
		h.api("PATCH", "/cards/"+id+"/status", tok, `{"status":"FROZEN"}`).want(200)
		return h.api("GET", "/cards/"+id, tok, nil).num("data.balanceAmount") != "2.00"
	},
	"limits-not-applied": func(h *sbx) bool {
		tok, id := setupCard(h, "10")
		h.api("PUT", "/cards/"+id+"/spend-limits", tok, `{"transactionLimit":1}`).want(200)
		return txnApproved(h, id, "2")
	},
	"limit-at-limit-declined": func(h *sbx) bool {
		tok, id := setupCard(h, "10")
		h.api("PUT", "/cards/"+id+"/spend-limits", tok, `{"transactionLimit":1}`).want(200)
		return !txnApproved(h, id, "1")
	},
	"limit-daily-not-cumulative": func(h *sbx) bool {
		tok, id := setupCard(h, "10")
		h.api("PUT", "/cards/"+id+"/spend-limits", tok, `{"dailyLimit":3}`).want(200)
		txnApproved(h, id, "2")
		return txnApproved(h, id, "2")
	},
	"limit-daily-never-resets": func(h *sbx) bool {
		tok, id := setupCard(h, "10")
		h.api("PUT", "/cards/"+id+"/spend-limits", tok, `{"dailyLimit":3}`).want(200)
		txnApproved(h, id, "3")
		h.fake.Advance(24 * time.Hour)
		return !txnApproved(h, id, "1")
	},
	"limit-alltime-resets-monthly": func(h *sbx) bool {
		tok, id := setupCard(h, "10")
		h.api("PUT", "/cards/"+id+"/spend-limits", tok, `{"allTimeLimit":3}`).want(200)
		txnApproved(h, id, "3")
		h.fake.Advance(31 * 24 * time.Hour)
		return txnApproved(h, id, "1")
	},
	"txn-frozen-decline-debits": func(h *sbx) bool {
		tok, id := setupCard(h, "5")
		h.api("PATCH", "/cards/"+id+"/status", tok, `{"status":"FROZEN"}`).want(200)
		txnApproved(h, id, "1")
		return h.api("GET", "/cards/"+id, tok, nil).num("data.balanceAmount") != "5.00"
	},
	"txn-unfreeze-still-declines": func(h *sbx) bool {
		tok, id := setupCard(h, "5")
		h.api("PATCH", "/cards/"+id+"/status", tok, `{"status":"FROZEN"}`).want(200)
		h.api("PATCH", "/cards/"+id+"/status", tok, `{"status":"ACTIVE"}`).want(200)
		return !txnApproved(h, id, "1")
	},

	// contact and webhooks
	"contact-plus-mobile-refused": func(h *sbx) bool {
		tok, id := setupCard(h, "1")
		return h.api("PATCH", "/cards/"+id+"/contact", tok, `{"mobile":"+2348031234567"}`).code != 200
	},
	"contact-live-refused": func(h *sbx) bool {
		tok := h.token(alpha, alphaLive)
		id := h.card(tok, h.customer(tok), "1").s("data.id")
		return h.api("PATCH", "/cards/"+id+"/contact", tok, `{"email":"a@b.co"}`).code != 200
	},
	"webhook-reversal-kind-wrong": func(h *sbx) bool {
		tok, id := setupCard(h, "1")
		return h.api("POST", "/cards/"+id+"/simulate-webhook", tok, `{"event_type":"reversal"}`).want(200).s("data.event_type") != "virtualcard.transaction.reversed"
	},
	"webhook-reference-prefix-wrong": func(h *sbx) bool {
		tok, id := setupCard(h, "1")
		return !strings.HasPrefix(h.api("POST", "/cards/"+id+"/simulate-webhook", tok, `{"event_type":"authorization"}`).want(200).s("data.reference"), "SIMULATE_")
	},
	"webhook-live-allowed": func(h *sbx) bool {
		tok := h.token(alpha, alphaLive)
		id := h.card(tok, h.customer(tok), "1").s("data.id")
		return h.api("POST", "/cards/"+id+"/simulate-webhook", tok, `{"event_type":"authorization"}`).code == 200
	},
	"webhook-delivered-kind-wrong": func(h *sbx) bool {
		rv := newReceiver(h.t.(*testing.T), 200)
		h.ctl("PUT", "/merchants/"+alpha+"/webhook", map[string]string{"url": rv.srv.URL, "secret": "k"}).want(200)
		tok, id := setupCard(h, "1")
		h.api("POST", "/cards/"+id+"/simulate-webhook", tok, `{"event_type":"authorization"}`).want(200)
		got := rv.all()
		if len(got) != 1 {
			return true
		}
		var p struct{ Type string }
		_ = json.Unmarshal(got[0].body, &p)
		return p.Type != "virtualcard.transaction.authorization"
	},
	"webhook-txn-not-delivered": func(h *sbx) bool {
		rv := newReceiver(h.t.(*testing.T), 200)
		h.ctl("PUT", "/merchants/"+alpha+"/webhook", map[string]string{"url": rv.srv.URL, "secret": "k"}).want(200)
		_, id := setupCard(h, "5")
		txnApproved(h, id, "1")
		return len(rv.all()) == 0
	},

	// gift cards and quotes
	"gift-verify-never-reconciles": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		h.api("POST", "/gift-cards/purchase", tok, fmt.Sprintf(giftBody, "g1")).want(200)
		return h.api("GET", "/gift-cards/verify/g1", tok, nil).want(200).s("orderStatus") != "SUCCESS"
	},
	"gift-verify-by-txn-id-404": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		txn := h.api("POST", "/gift-cards/purchase", tok, fmt.Sprintf(giftBody, "g1")).want(200).s("data.transactionId")
		return h.api("GET", "/gift-cards/verify/"+txn, tok, nil).code != 200
	},
	"gift-purchase-not-debited": func(h *sbx) bool {
		h.api("POST", "/gift-cards/purchase", h.token(alpha, alphaTest), fmt.Sprintf(giftBody, "g1")).want(200)
		return h.ctl("GET", "/merchants/"+alpha, nil).num("ngnBalance") == "5000000.00"
	},
	"gift-recipient-name-optional": func(h *sbx) bool {
		return h.api("POST", "/gift-cards/purchase", h.token(alpha, alphaTest), `{"amount":5,"recipientEmail":"a@b.co"}`).code == 200
	},
	"gift-cost-differs-from-quote": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		total := h.api("GET", "/gift-cards/quote?productCode=AMAZON_US&amount=5", tok, nil).want(200).num("data.totalNgn")
		return h.api("POST", "/gift-cards/purchase", tok, fmt.Sprintf(giftBody, "g1")).want(200).num("data.costNgn") != total
	},
	"gift-hold-ignored": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		h.api("POST", "/gift-cards/purchase", tok, fmt.Sprintf(giftBody, "g1")).want(200)
		h.ctl("PUT", "/gift-orders/g1/hold", `{"hold":true}`).want(200)
		return h.api("GET", "/gift-cards/verify/g1", tok, nil).want(200).s("orderStatus") != "PROCESSING"
	},
	"gift-verify-tenant-leak": func(h *sbx) bool {
		h.api("POST", "/gift-cards/purchase", h.token(bravo, bravoTest), fmt.Sprintf(giftBody, "gb1")).want(200)
		return h.api("GET", "/gift-cards/verify/gb1", h.token(alpha, alphaTest), nil).code != 404
	},
	"betting-quote-missing": func(h *sbx) bool {
		return h.api("GET", "/betting/quote?amount=5000", h.token(alpha, alphaTest), nil).code != 200
	},

	// rate limits
	"rate-limit-never": func(h *sbx) bool {
		h.ctl("PUT", "/rate-limits", `{"read":{"rate":0.01,"burst":1}}`).want(200)
		tok := h.token(alpha, alphaTest)
		h.api("GET", "/cards", tok, nil).want(200)
		return h.api("GET", "/cards", tok, nil).code != 429
	},
	"rate-limit-no-refill": func(h *sbx) bool {
		h.ctl("PUT", "/rate-limits", `{"read":{"rate":20,"burst":1}}`).want(200)
		tok := h.token(alpha, alphaTest)
		refused := false
		for i := 0; i < 20 && !refused; i++ {
			refused = h.api("GET", "/cards", tok, nil).code == 429
		}
		if !refused {
			h.t.Fatal("no 429 at 20 calls per second with a burst of 1")
		}
		h.ctl("POST", "/clock/advance", `{"seconds":1}`).want(200) // twenty tokens' worth of refill
		return h.api("GET", "/cards", tok, nil).code == 429
	},
}
