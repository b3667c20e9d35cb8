package sandbox

import (
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/merchant-harness/mph/sandbox/variant"
	"gopkg.in/yaml.v3"
)

// Every dimension has a reference first, at least one other setting and at
// least one open point; setting names are unique across dimensions.
func TestDimensionsWellFormed(t *testing.T) {
	seen := map[string]string{}
	for _, d := range variant.Dimensions() {
		if len(d.Settings) < 2 || !d.Settings[0].Reference || len(d.OpenPoints) == 0 || d.Description == "" {
			t.Errorf("dimension %s: %d settings, reference first %v, open points %v", d.Name, len(d.Settings), d.Settings[0].Reference, d.OpenPoints)
		}
		for i, s := range d.Settings {
			if s.Reference != (i == 0) || s.Dimension != d.Name {
				t.Errorf("%s: setting %s misfiled (reference %v at %d, dimension %q)", d.Name, s.Name, s.Reference, i, s.Dimension)
			}
			if prev, dup := seen[s.Name]; dup {
				t.Errorf("setting %s in %s and %s", s.Name, prev, d.Name)
			}
			seen[s.Name] = d.Name
		}
		for _, o := range d.OpenPoints {
			if !strings.HasPrefix(o, "OPEN-") || strings.ToUpper(o) != o {
				t.Errorf("%s: open point %q is not OPEN-UPPER-KEBAB", d.Name, o)
			}
		}
	}
}

// Two settings of one dimension exclude each other; a reference name is
// accepted and changes nothing.
func TestSettingsOfOneDimensionExclude(t *testing.T) {
	if _, err := New(Options{Variants: []string{"timestamps-week-date", "timestamps-basic-format"}}); err == nil || !strings.Contains(err.Error(), "timestamp-form") {
		t.Fatalf("two settings of timestamp-form accepted: %v", err)
	}
	s, err := New(Options{Variants: []string{"timestamps-extended-millis-z"}})
	if err != nil || s.variants.Rewrites() {
		t.Fatalf("the reference setting: %v, rewrite %v", err, s.variants.Rewrites())
	}
}

// Over the first 20 seeds most settings are drawn at least once.
func TestSeedsCoverTheSettings(t *testing.T) {
	drawn := map[string]bool{}
	for seed := uint64(1); seed <= 20; seed++ {
		for _, n := range variant.SeedVariants(seed) {
			drawn[n] = true
		}
	}
	if n := len(drawn); n < len(variant.Variants())/2 {
		t.Fatalf("20 seeds draw %d of %d settings", n, len(variant.Variants()))
	}
}

// Profile overlays of settings of different dimensions set different keys,
// so a seed's overlays merge in any order.
func TestOverlaysOfDimensionsAreDisjoint(t *testing.T) {
	owner := map[string]string{} // leaf key -> dimension
	for _, v := range append(variant.Variants(), referenceSettings()...) {
		if strings.TrimSpace(v.Profile) == "" {
			continue
		}
		var m map[string]any
		if err := yaml.Unmarshal([]byte(v.Profile), &m); err != nil {
			t.Fatalf("%s: overlay: %v", v.Name, err)
		}
		for _, k := range leafKeys("", m) {
			if d, taken := owner[k]; taken && d != v.Dimension {
				t.Errorf("%s sets %s, which dimension %s sets too", v.Name, k, d)
			}
			owner[k] = v.Dimension
		}
	}
}

func referenceSettings() []variant.Variant {
	var out []variant.Variant
	for _, d := range variant.Dimensions() {
		out = append(out, d.Settings[0])
	}
	return out
}

func leafKeys(prefix string, m map[string]any) []string {
	var out []string
	for k, v := range m {
		if sub, ok := v.(map[string]any); ok && len(sub) > 0 {
			out = append(out, leafKeys(prefix+k+".", sub)...)
			continue
		}
		out = append(out, prefix+k)
	}
	sort.Strings(out)
	return out
}

// Settings of different dimensions that touch the same answer compose: each
// keeps its effect beside the others.
func TestSettingsCompose(t *testing.T) {
	for _, c := range []struct {
		settings []string
		check    func(h *sbx) string // "" when both effects show
	}{
		{[]string{"timestamps-week-date", "envelope-timestamp-local-offset"}, func(h *sbx) string {
			return wantEq(configTS(h), "2026-W11-7T13:00:00.000+01:00") + wantEq(cardCreatedAt(h), "2026-W11-7T12:00:00.000Z")
		}},
		{[]string{"timestamps-offset-hhmm", "envelope-timestamp-negative-offset"}, func(h *sbx) string {
			return wantEq(configTS(h), "2026-03-15T07:00:00.000-0500") + wantSuffix(cardCreatedAt(h), "+0000")
		}},
		{[]string{"timestamps-basic-format", "envelope-timestamp-no-designator"}, func(h *sbx) string {
			return wantEq(configTS(h), "20260315T120000.000") + wantEq(cardCreatedAt(h), "20260315T120000.000Z")
		}},
		{[]string{"messages-german", "error-message-always-array", "reason-phrases-lower-case", "content-type-problem-json-errors"}, func(h *sbx) string {
			r := unknownCard(h)
			return wantEq(fmt.Sprint(r.get("message")), "[Virtuelle Karte nicht gefunden]") + wantEq(r.s("error"), "not found") +
				wantEq(r.hdr.Get("Content-Type"), "application/problem+json")
		}},
		{[]string{"error-messages-reworded", "message-amounts-grouped", "numbers-exponent"}, func(h *sbx) string {
			m := vaultShortMessage(h)
			return wantContains(m, "only 10,000.00 USD is available") + wantEq(unknownCard(h).num("statusCode"), "4.04e2")
		}},
		{[]string{"withdraw-above-balance-409", "reason-phrases-rfc9110", "wrong-type-string-message"}, func(h *sbx) string {
			tok, id := setupCard(h, "2")
			r := h.api("POST", "/cards/"+id+"/withdraw", tok, `{"amount":50}`)
			w := h.api("POST", "/cards/"+id+"/withdraw", tok, `{"amount":true}`)
			return wantEq(fmt.Sprintf("%v %v", r.code, r.s("error")), "409 Conflict") + wantEq(fmt.Sprint(isString(w)), "true")
		}},
		{[]string{"base-path-behind-prefix", "envelope-path-with-query"}, func(h *sbx) string {
			return wantEq(h.api("GET", "/cards?limit=1", h.token(alpha, alphaTest), nil).want(200).s("path"), "/payments/v1/merchant/cards?limit=1")
		}},
		{[]string{"masked-pan-grouped-dashes", "card-descriptive-fields-null", "created-status-pending-first", "card-brand-title-case"}, func(h *sbx) string {
			r := getCard(h)
			return wantSuffix(r.s("data.maskedPan"), "XX-XXXX-"+r.s("data.maskedPan")[15:]) + wantEq(fmt.Sprint(r.get("data.cardBrand")), "<nil>") +
				wantEq(r.s("data.createdStatus"), "PENDING")
		}},
		{[]string{"not-shown-answers-envelope-b", "customer-id-numeric", "customer-record-minimal", "success-status-always-200"}, func(h *sbx) string {
			tok := h.token(alpha, alphaTest)
			r := register(h, tok, nil)
			id := r.get("data.customerId")
			c := h.api("POST", "/cards", tok, fmt.Sprintf(`{"customerId":%v,"nameOnCard":"Ada","amount":2}`, id))
			return wantEq(fmt.Sprintf("%v %v %v %v", r.code, isNumber(id), r.has("data.firstName"), r.get("success")), "200 true false true") + wantEq(fmt.Sprint(c.code), "200")
		}},
		{[]string{"gift-lookup-flat", "gift-lookup-voucher-card-number", "gift-status-pending", "gift-processing-order-sparse"}, func(h *sbx) string {
			tok := h.token(alpha, alphaTest)
			p := purchase(h, tok, "gx").want(200)
			h.api("GET", "/gift-cards/verify/gx", tok, nil).want(200)
			l := h.api("GET", "/gift-cards/transactions/gx", tok, nil).want(200)
			return wantEq(fmt.Sprintf("%v %v", p.s("data.orderStatus"), p.has("data.voucher")), "PENDING false") + wantEq(fmt.Sprint(l.has("voucher.cardNumber")), "true")
		}},
		{[]string{"rate-limit-gateway-json-message", "retry-after-http-date"}, func(h *sbx) string {
			r := rateLimited(h)
			_, err := time.Parse(time.RFC1123, r.hdr.Get("Retry-After"))
			return wantEq(string(r.body), `{"message":"Too Many Requests"}`) + wantEq(fmt.Sprint(err), "<nil>")
		}},
		{[]string{"list-oldest-first", "search-customer-name", "search-prefix", "listings-lag-2s"}, func(h *sbx) string {
			tok := h.token(alpha, alphaTest)
			cus := h.customer(tok)
			first := issue(h, tok, cus, `"nameOnCard":"Zed","amount":2`).want(201).s("data.id")
			issue(h, tok, cus, `"nameOnCard":"Amy","amount":2`).want(201)
			r := h.api("GET", "/cards?search=ada", tok, nil).want(200)
			return wantEq(fmt.Sprint(len(r.list("data")) == 2 && r.s("data.0.id") == first), "true")
		}},
		{[]string{"token-jwe-compact", "token-type-lower-case", "merchant-header-requests-only"}, func(h *sbx) string {
			r := tokenAnswer(h)
			tok := r.s("data.accessToken")
			return wantEq(fmt.Sprintf("%v %v", strings.Count(tok, "."), r.s("data.tokenType")), "4 bearer") +
				wantEq(fmt.Sprint(h.api("GET", "/cards/config", tok, nil, "X-Merchant-Id: mer_other").code), "401")
		}},
	} {
		t.Run(strings.Join(c.settings, "+"), func(t *testing.T) {
			if msg := c.check(newSbx(t, Options{Variants: c.settings})); msg != "" {
				t.Fatal(msg)
			}
		})
	}
}

func wantEq(got, want string) string {
	if got != want {
		return fmt.Sprintf("got %q, want %q; ", got, want)
	}
	return ""
}

func wantSuffix(got, suffix string) string {
	if !strings.HasSuffix(got, suffix) {
		return fmt.Sprintf("%q does not end in %q; ", got, suffix)
	}
	return ""
}

func wantContains(got, sub string) string {
	if !strings.Contains(got, sub) {
		return fmt.Sprintf("%q lacks %q; ", got, sub)
	}
	return ""
}

// Every one of the first 20 seeds makes a sandbox that serves the whole API:
// no 5xx, JSON answers, and the documented flow goes through whatever the
// settings drawn (a composition of the settings' hooks and rewrites).
func TestSeedsServeTheWholeAPI(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		t.Run(fmt.Sprint("seed-", seed), func(t *testing.T) {
			h := newSbx(t, Options{Variants: variant.SeedVariants(seed)})
			if msg := documentedFlow(h); msg != "" {
				t.Fatalf("seed %d (%s): %s", seed, strings.Join(variant.SeedVariants(seed), " "), msg)
			}
		})
	}
}

// documentedFlow runs the API's main flow with inputs every setting
// accepts; it returns what went wrong ("" when nothing did).
func documentedFlow(h *sbx) string {
	ok := func(r *resp, what string) string {
		if r.code != 200 && r.code != 201 {
			return fmt.Sprintf("%s: %d %s; ", what, r.code, r.body)
		}
		return ""
	}
	tr := tokenAnswer(h)
	tok, _ := find(tr.v, "accessToken").(string)
	msg := ok(h.api("GET", "/cards/config", tok, nil), "config")
	cust := h.api("POST", "/cards/customers", tok, map[string]any{
		"firstName": "Ada", "lastName": "Lovelace", "email": "ada@mailbox.ng", "phoneNumber": "8031234567", "phoneCountryCode": "+234",
		"dateOfBirth": "1990-01-31", "idType": "passport", "idNumber": "A12345678", "address": "1 Main St", "city": "Lagos",
		"state": "LA", "postalCode": "100001", "country": "NGA", "phone_country_code": "+234", "date_of_birth": "1990-01-31",
		"id_type": "passport", "id_number": "A12345678", "postal_code": "100001"})
	msg += ok(cust, "registration")
	h.fake.Advance(3 * time.Second)
	issued := h.api("POST", "/cards", tok, fmt.Sprintf(`{"customerId":%s,"nameOnCard":"Ada Lovelace","amount":20,"reference":"card1"}`, jsonOf(find(cust.v, "customerId"))))
	msg += ok(issued, "issuance")
	if msg != "" {
		return msg
	}
	id, _ := find(issued.v, "id").(string)
	h.fake.Advance(3 * time.Second)
	card, _ := h.api("GET", "/cards/"+id, tok, nil).v.(map[string]any)
	if d, ok := card["data"].(map[string]any); ok {
		card = d
	}
	if card["status"] == "FROZEN" {
		msg += ok(h.api("PATCH", "/cards/"+id+"/status", tok, `{"status":"ACTIVE"}`), "activate")
	}
	for _, c := range []struct{ method, path, body, what string }{
		{"GET", "/cards/" + id, "", "get"},
		{"GET", "/cards", "", "list"},
		{"GET", "/cards?search=lovelace&status=ALL&limit=10", "", "search"},
		{"POST", "/cards/" + id + "/withdraw", `{"amount":1}`, "withdraw"},
		{"PUT", "/cards/" + id + "/spend-limits", `{"transactionLimit":10,"dailyLimit":10,"monthlyLimit":20,"allTimeLimit":20}`, "limits"},
		{"PATCH", "/cards/" + id + "/status", `{"status":"FROZEN"}`, "freeze"},
		{"PATCH", "/cards/" + id + "/status", `{"status":"ACTIVE"}`, "unfreeze"},
		{"GET", "/cards/card1/secure", "", "secure by reference"},
		{"PATCH", "/cards/" + id + "/contact", `{"email":"ada@mailbox.ng"}`, "contact"},
		{"POST", "/cards/" + id + "/simulate-webhook", `{"event_type":"decline"}`, "simulate"},
		{"GET", "/cards/customers", "", "customers"},
		{"GET", "/gift-cards/quote?productCode=AMAZON_US&amount=25", "", "gift quote"},
		{"GET", "/betting/quote?amount=5000", "", "betting quote"},
		{"POST", "/gift-cards/purchase", `{"amount":25,"recipientEmail":"grace@mailbox.ng","recipientName":"Grace","reference":"gift1"}`, "purchase"},
	} {
		msg += ok(h.api(c.method, c.path, tok, c.body), c.what)
	}
	status := ""
	for range 5 {
		h.fake.Advance(time.Second)
		v := h.api("GET", "/gift-cards/verify/gift1", tok, nil)
		msg += ok(v, "verify")
		status, _ = find(v.v, "orderStatus").(string)
	}
	if status != "SUCCESS" {
		msg += "verify never reconciled: " + status + "; "
	}
	if r := h.api("GET", "/cards/crd_nosuch", tok, nil); r.code != 404 {
		msg += fmt.Sprintf("unknown card: %d; ", r.code)
	}
	return msg
}

// find returns the first value of member key in v, depth first.
func find(v any, key string) any {
	switch x := v.(type) {
	case map[string]any:
		if f, ok := x[key]; ok {
			return f
		}
		for _, c := range x {
			if f := find(c, key); f != nil {
				return f
			}
		}
	case []any:
		for _, c := range x {
			if f := find(c, key); f != nil {
				return f
			}
		}
	}
	return nil
}

func jsonOf(v any) string {
	if s, ok := v.(string); ok {
		return fmt.Sprintf("%q", s)
	}
	return fmt.Sprint(v)
}
