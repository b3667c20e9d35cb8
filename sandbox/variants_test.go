package sandbox

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/merchant-harness/mph/sandbox/variant"
	"github.com/merchant-harness/mph/sandbox/wording"
)

// variantProbes observe each setting: a probe returns true when the sandbox
// shows the setting's behaviour (never the clean sandbox). The maps of
// variants_*_test.go add to it.
var variantProbes = map[string]func(h *sbx) bool{}

// addVariantProbes adds a file's probes, refusing a setting probed twice.
func addVariantProbes(m map[string]func(h *sbx) bool) {
	for k, v := range m {
		if _, dup := variantProbes[k]; dup {
			panic("two probes for " + k)
		}
		variantProbes[k] = v
	}
}

func init() { addVariantProbes(baseProbes) }

// baseProbes are the probes of the 48 variants before dimensions.
var baseProbes = map[string]func(h *sbx) bool{
	"amounts-minimal-decimals": func(h *sbx) bool {
		return h.api("GET", "/cards/config", h.token(alpha, alphaTest), nil).want(200).num("data.creationFee") == "1"
	},
	"body-null-optional-noop": func(h *sbx) bool {
		tok, id := setupCard(h, "2")
		return h.api("PATCH", "/cards/"+id+"/contact", tok, "null").code == 200
	},
	"card-brand-mastercard": func(h *sbx) bool {
		tok, id := setupCard(h, "2")
		return h.api("GET", "/cards/"+id, tok, nil).want(200).s("data.cardBrand") == "MASTERCARD"
	},
	"card-color-theme-null": func(h *sbx) bool {
		tok, id := setupCard(h, "2")
		r := h.api("GET", "/cards/"+id, tok, nil).want(200)
		return r.has("data.colorTheme") && r.get("data.colorTheme") == nil
	},
	"card-duplicate-reference-replay": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		cus := h.customer(tok)
		h.card(tok, cus, "2", `,"reference":"dup-1"`)
		return h.api("POST", "/cards", tok, fmt.Sprintf(`{"customerId":%q,"nameOnCard":"A B","amount":2,"reference":"dup-1"}`, cus)).code == 200
	},
	"card-optional-fields-absent": func(h *sbx) bool {
		tok, id := setupCard(h, "2")
		return !h.api("GET", "/cards/"+id, tok, nil).want(200).has("data.colorTheme")
	},
	"cvv-four-digits": func(h *sbx) bool {
		tok, id := setupCard(h, "2")
		return len(h.api("GET", "/cards/"+id+"/secure", tok, nil).want(200).s("data.cvv")) == 4
	},
	"envelope-path-api-prefix": func(h *sbx) bool {
		return strings.HasPrefix(h.api("GET", "/cards", h.token(alpha, alphaTest), nil).want(200).s("path"), "/api/v1/merchant")
	},
	"envelope-path-with-query": func(h *sbx) bool {
		return strings.HasSuffix(h.api("GET", "/cards?limit=1", h.token(alpha, alphaTest), nil).want(200).s("path"), "?limit=1")
	},
	"envelope-timestamp-local-offset": func(h *sbx) bool {
		return strings.HasSuffix(h.api("GET", "/cards/config", h.token(alpha, alphaTest), nil).want(200).s("timestamp"), "+01:00")
	},
	"error-message-always-array": func(h *sbx) bool {
		_, isArr := h.api("GET", "/cards/crd_nosuch", h.token(alpha, alphaTest), nil).want(404).get("message").([]any)
		return isArr
	},
	"error-messages-reworded": func(h *sbx) bool {
		return msgOf(h.api("GET", "/cards/crd_nosuch", h.token(alpha, alphaTest), nil).want(404)) != wording.CardNotFound
	},
	"extra-members": func(h *sbx) bool {
		return h.api("GET", "/cards", h.token(alpha, alphaTest), nil).want(200).has("requestId")
	},
	"frozen-secure-403": func(h *sbx) bool {
		tok, id := setupCard(h, "2")
		h.api("PATCH", "/cards/"+id+"/status", tok, `{"status":"FROZEN"}`).want(200)
		return h.api("GET", "/cards/"+id+"/secure", tok, nil).code == 403
	},
	"gift-404-full-envelope": func(h *sbx) bool {
		return h.api("GET", "/gift-cards/verify/nosuch", h.token(alpha, alphaTest), nil).want(404).has("status")
	},
	"gift-duplicate-reference-replay": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		h.api("POST", "/gift-cards/purchase", tok, fmt.Sprintf(giftBody, "gd1")).want(200)
		return h.api("POST", "/gift-cards/purchase", tok, fmt.Sprintf(giftBody, "gd1")).code == 200
	},
	"gift-lookup-flat": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		txn := h.api("POST", "/gift-cards/purchase", tok, fmt.Sprintf(giftBody, "gl1")).want(200).s("data.transactionId")
		return h.api("GET", "/gift-cards/transactions/"+txn, tok, nil).want(200).has("orderStatus")
	},
	"gift-lookup-voucher-fields": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		txn := h.api("POST", "/gift-cards/purchase", tok, fmt.Sprintf(giftBody, "gv1")).want(200).s("data.transactionId")
		return h.api("GET", "/gift-cards/transactions/"+txn, tok, nil).want(200).has("data.voucherCode")
	},
	"gift-quote-flat": func(h *sbx) bool {
		return h.api("GET", "/gift-cards/quote?productCode=AMAZON_US&amount=25", h.token(alpha, alphaTest), nil).want(200).has("totalNgn")
	},
	"gift-verify-two-step": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		h.api("POST", "/gift-cards/purchase", tok, fmt.Sprintf(giftBody, "g2")).want(200)
		first := h.api("GET", "/gift-cards/verify/g2", tok, nil).want(200)
		second := h.api("GET", "/gift-cards/verify/g2", tok, nil).want(200)
		return first.s("orderStatus") == "PROCESSING" && first.get("voucher") == nil && second.s("orderStatus") == "SUCCESS"
	},
	"invalid-value-422": func(h *sbx) bool {
		tok, id := setupCard(h, "2")
		return h.api("PATCH", "/cards/"+id+"/status", tok, `{"status":"BOGUS"}`).code == 422
	},
	"issuance-balance-net-of-fund-fee": func(h *sbx) bool {
		tok, id := setupCard(h, "2")
		return h.api("GET", "/cards/"+id, tok, nil).want(200).num("data.balanceAmount") == "1.00"
	},
	"limits-frozen-refused": func(h *sbx) bool {
		tok, id := setupCard(h, "2")
		h.api("PATCH", "/cards/"+id+"/status", tok, `{"status":"FROZEN"}`).want(200)
		return h.api("PUT", "/cards/"+id+"/spend-limits", tok, `{"dailyLimit":5}`).code == 403
	},
	"list-default-active-only": func(h *sbx) bool {
		tok, id := setupCard(h, "2")
		h.api("PATCH", "/cards/"+id+"/status", tok, `{"status":"FROZEN"}`).want(200)
		for _, c := range h.api("GET", "/cards", tok, nil).want(200).list("data") {
			if c.(map[string]any)["id"] == id {
				return false
			}
		}
		return true
	},
	"list-max-limit-50": func(h *sbx) bool {
		return h.api("GET", "/cards?limit=60", h.token(alpha, alphaTest), nil).code == 400
	},
	"list-oldest-first": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		cus := h.customer(tok)
		first := h.card(tok, cus, "2").s("data.id")
		h.card(tok, cus, "2")
		return h.api("GET", "/cards", tok, nil).want(200).s("data.0.id") == first
	},
	"list-search-exact": func(h *sbx) bool {
		tok, _ := setupCard(h, "2")
		return len(h.api("GET", "/cards?search=lovelace", tok, nil).want(200).list("data")) == 0
	},
	"masked-pan-four-mask-chars": func(h *sbx) bool {
		tok, id := setupCard(h, "2")
		return regexp.MustCompile(`^[0-9]{6}\*{4}[0-9]{4}$`).MatchString(h.api("GET", "/cards/"+id, tok, nil).want(200).s("data.maskedPan"))
	},
	"masked-pan-grouped-bullets": func(h *sbx) bool {
		tok, id := setupCard(h, "2")
		return strings.Contains(h.api("GET", "/cards/"+id, tok, nil).want(200).s("data.maskedPan"), "••")
	},
	"merchant-header-unchecked": func(h *sbx) bool {
		return h.api("GET", "/cards/config", h.token(alpha, alphaTest), nil, "X-Merchant-Id: mer_other").code == 200
	},
	"minimums-as-business-errors": func(h *sbx) bool {
		tok, id := setupCard(h, "2")
		_, isStr := h.api("POST", "/cards/"+id+"/withdraw", tok, `{"amount":0.05}`).want(400).get("message").(string)
		return isStr
	},
	"not-shown-answers-unenveloped": func(h *sbx) bool {
		_, isArray := h.api("GET", "/cards/customers", h.token(alpha, alphaTest), nil).want(200).v.([]any)
		return isArray
	},
	"rate-limit-long-retry-after": func(h *sbx) bool {
		return retryAfterOf(h) == "60"
	},
	"rate-limit-no-retry-after": func(h *sbx) bool {
		return retryAfterOf(h) == ""
	},
	"spend-limits-put-replaces": func(h *sbx) bool {
		tok, id := setupCard(h, "2")
		h.api("PUT", "/cards/"+id+"/spend-limits", tok, `{"transactionLimit":20,"dailyLimit":60}`).want(200)
		return h.api("PUT", "/cards/"+id+"/spend-limits", tok, `{"transactionLimit":15}`).want(200).get("data.spendLimits.dailyLimit") == nil
	},
	"spend-limits-unset-zero": func(h *sbx) bool {
		tok, id := setupCard(h, "2")
		return fmt.Sprint(h.api("PUT", "/cards/"+id+"/spend-limits", tok, `{"transactionLimit":15}`).want(200).get("data.spendLimits.dailyLimit")) == "0.00"
	},
	"status-message-verbs": func(h *sbx) bool {
		tok, id := setupCard(h, "2")
		return h.api("PATCH", "/cards/"+id+"/status", tok, `{"status":"FROZEN"}`).want(200).s("data.message") == "Card has been frozen"
	},
	"status-same-refused": func(h *sbx) bool {
		tok, id := setupCard(h, "2")
		return h.api("PATCH", "/cards/"+id+"/status", tok, `{"status":"ACTIVE"}`).code == 400
	},
	"success-status-alternates": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		return h.api("POST", "/cards", tok, fmt.Sprintf(`{"customerId":%q,"nameOnCard":"A B","amount":2}`, h.customer(tok))).code == 200
	},
	"timestamps-microseconds": func(h *sbx) bool {
		return regexp.MustCompile(`\.[0-9]{6}Z$`).MatchString(h.api("GET", "/cards/config", h.token(alpha, alphaTest), nil).want(200).s("timestamp"))
	},
	"timestamps-utc-offset": func(h *sbx) bool {
		return strings.HasSuffix(h.api("GET", "/cards/config", h.token(alpha, alphaTest), nil).want(200).s("timestamp"), "+00:00")
	},
	"timestamps-whole-seconds": func(h *sbx) bool {
		return !strings.Contains(h.api("GET", "/cards/config", h.token(alpha, alphaTest), nil).want(200).s("timestamp"), ".")
	},
	"webhook-payload-shape": func(h *sbx) bool {
		got := simulateTo(h)
		return len(got) > 0 && strings.Contains(string(got[0].body), `"event":"virtualcard.transaction.decline`)
	},
	"webhook-redelivery": func(h *sbx) bool {
		return len(simulateTo(h)) == 2
	},
	"webhook-skip-reason-empty": func(h *sbx) bool {
		rv := newReceiver(h.t.(*testing.T), 200)
		h.ctl("PUT", "/merchants/mer_demo_alpha/webhook", map[string]string{"url": rv.srv.URL, "secret": "k"}).want(200)
		tok, id := setupCard(h, "2")
		r := h.api("POST", "/cards/"+id+"/simulate-webhook", tok, `{"event_type":"decline"}`).want(200)
		return r.get("data.dispatched") == true && r.get("data.skip_reason") == ""
	},
	"withdraw-above-balance-422": func(h *sbx) bool {
		tok, id := setupCard(h, "2")
		return h.api("POST", "/cards/"+id+"/withdraw", tok, `{"amount":50}`).code == 422
	},
	"withdraw-credits-full-amount": func(h *sbx) bool {
		tok, id := setupCard(h, "2")
		before := h.api("GET", "/cards/config", tok, nil).want(200).num("data.vaultBalance")
		h.api("POST", "/cards/"+id+"/withdraw", tok, `{"amount":1}`).want(200)
		after := h.api("GET", "/cards/config", tok, nil).want(200).num("data.vaultBalance")
		var b, a float64
		fmt.Sscan(before, &b)
		fmt.Sscan(after, &a)
		return a-b > 0.999
	},
	"withdraw-frozen-refused": func(h *sbx) bool {
		tok, id := setupCard(h, "2")
		h.api("PATCH", "/cards/"+id+"/status", tok, `{"status":"FROZEN"}`).want(200)
		return h.api("POST", "/cards/"+id+"/withdraw", tok, `{"amount":0.5}`).code == 403
	},
}

// retryAfterOf provokes a 429 and returns its Retry-After header.
func retryAfterOf(h *sbx) string {
	h.ctl("PUT", "/rate-limits", `{"read":{"rate":0.01,"burst":1}}`).want(200)
	tok := h.token(alpha, alphaTest)
	h.api("GET", "/cards", tok, nil).want(200)
	return h.api("GET", "/cards", tok, nil).want(429).hdr.Get("Retry-After")
}

// simulateTo configures a receiver, simulates a decline and returns what
// the receiver got.
func simulateTo(h *sbx) []delivered {
	rv := newReceiver(h.t.(*testing.T), 200)
	h.ctl("PUT", "/merchants/mer_demo_alpha/webhook", map[string]string{"url": rv.srv.URL, "secret": "k"}).want(200)
	tok, id := setupCard(h, "2")
	h.api("POST", "/cards/"+id+"/simulate-webhook", tok, `{"event_type":"decline"}`).want(200)
	return rv.all()
}

func TestVariantCatalogue(t *testing.T) {
	vs := variant.Variants()
	if len(vs) < 30 {
		t.Fatalf("catalogue has %d variants, want at least 30", len(vs))
	}
	for i, v := range vs {
		if v.Name == "" || v.Description == "" || v.Document == "" {
			t.Errorf("incomplete variant %+v", v)
		}
		if i > 0 && vs[i-1].Name >= v.Name {
			t.Errorf("catalogue not sorted or duplicate at %s", v.Name)
		}
		if variantProbes[v.Name] == nil {
			t.Errorf("variant %s has no probe", v.Name)
		}
		if _, isFault := probes[v.Name]; isFault {
			t.Errorf("%s is both a fault and a variant", v.Name)
		}
	}
	if _, err := New(Options{Variants: []string{"no-such-variant"}}); err == nil {
		t.Fatal("unknown variant accepted")
	}
}

func TestVariantsAreObservable(t *testing.T) {
	for _, v := range variant.Variants() {
		probe := variantProbes[v.Name]
		if probe == nil {
			continue
		}
		t.Run(v.Name, func(t *testing.T) {
			if probe(newSbx(t, Options{})) {
				t.Fatalf("the clean sandbox already shows %s", v.Name)
			}
			if !probe(newSbx(t, Options{Variants: []string{v.Name}})) {
				t.Fatalf("variant %s switched on but not observable", v.Name)
			}
		})
	}
}

func TestVariantsDocumented(t *testing.T) {
	b, err := os.ReadFile("../docs/variants.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range variant.Variants() {
		if !strings.Contains(string(b), "| `"+v.Name+"` |") {
			t.Errorf("docs/variants.md has no row for %s", v.Name)
		}
	}
}
