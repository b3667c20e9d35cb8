package proxy_test

import (
	"strings"
	"testing"
	"time"

	"github.com/merchant-harness/mph/api"
	"github.com/merchant-harness/mph/proxy"
	"github.com/merchant-harness/mph/proxy/session"
	"github.com/merchant-harness/mph/sandbox"
	"github.com/merchant-harness/mph/sandbox/ratelimit"
)

// everyEndpoint drives each endpoint of the document once, as a
// well-behaved client: one token, JSON bodies, amounts in cents, fresh
// references.
func everyEndpoint(r *rig, ref string) {
	r.t.Helper()
	r.login()
	steps := []call{
		{method: "GET", path: "/cards/config"},
		{method: "POST", path: "/cards/customers", body: `{"firstName":"Ada","lastName":"Lovelace","email":"ada@example.com","phoneNumber":"08012345678","phoneCountryCode":"+234","dateOfBirth":"1990-01-31","idType":"passport","idNumber":"A1234567","address":"1 Marina","city":"Lagos","state":"LA","postalCode":"100001","country":"NGA"}`},
		{method: "GET", path: "/cards/customers"},
	}
	for _, s := range steps {
		if a := r.do(s); a.status != 200 && a.status != 201 {
			r.t.Fatalf("%s %s: %d", s.method, s.path, a.status)
		}
	}
	cust := r.do(call{method: "GET", path: "/cards/customers"})
	list, _ := cust.body["data"].([]any)
	if len(list) == 0 {
		r.t.Fatal("no customer")
	}
	id, _ := list[len(list)-1].(map[string]any)["customerId"].(string)
	card := ref + "-card"
	steps = []call{
		{method: "POST", path: "/cards", body: `{"customerId":"` + id + `","nameOnCard":"Ada Lovelace","amount":25.00,"reference":"` + card + `"}`},
		{method: "GET", path: "/cards?status=ALL&limit=5"},
		{method: "GET", path: "/cards/" + card},
		{method: "GET", path: "/cards/" + card + "/secure"},
		{method: "POST", path: "/cards/" + card + "/withdraw", body: `{"amount":1.25}`},
		{method: "PUT", path: "/cards/" + card + "/spend-limits", body: `{"transactionLimit":100,"dailyLimit":200.5}`},
		{method: "PATCH", path: "/cards/" + card + "/status", body: `{"status":"FROZEN"}`},
		{method: "PATCH", path: "/cards/" + card + "/status", body: `{"status":"ACTIVE"}`},
		{method: "PATCH", path: "/cards/" + card + "/contact", body: `{"email":"ada@example.org","mobile":"+2348012345678"}`},
		{method: "POST", path: "/cards/" + card + "/simulate-webhook", body: `{"event_type":"authorization"}`},
		{method: "GET", path: "/gift-cards/quote?productCode=AMAZON_US&amount=25"},
		{method: "POST", path: "/gift-cards/purchase", body: `{"productCode":"AMAZON_US","amount":25,"recipientEmail":"f@example.com","recipientName":"Friend","reference":"` + ref + `-gift"}`},
		{method: "GET", path: "/gift-cards/verify/" + ref + "-gift"},
		{method: "GET", path: "/betting/quote?amount=5000.00&provider=BET9JA"},
	}
	for _, s := range steps {
		if a := r.do(s); a.status != 200 && a.status != 201 {
			r.t.Fatalf("%s %s: %d %v", s.method, s.path, a.status, a.body)
		}
	}
	gift := r.do(call{method: "GET", path: "/gift-cards/verify/" + ref + "-gift"})
	if txn, _ := gift.body["transactionId"].(string); txn != "" {
		r.do(call{method: "GET", path: "/gift-cards/transactions/" + txn})
	}
	// Documented errors: unknown card, unknown gift order.
	r.do(call{method: "GET", path: "/cards/crd_missing"})
	r.do(call{method: "GET", path: "/gift-cards/verify/no-such-order"})
}

func TestCleanSandboxHasNoViolations(t *testing.T) {
	r := newRig(t, sandbox.Options{}, proxy.Options{})
	everyEndpoint(r, "clean")
	s := r.finish()
	if s.Server+s.Client != 0 {
		t.Fatalf("violations on a clean sandbox with a good client:\n%s", r.log.String())
	}
	seen := map[string]bool{}
	for _, e := range s.Endpoints {
		seen[e.Endpoint] = e.Exchanges > 0
	}
	for _, ep := range api.Endpoints(nil) {
		if !seen[ep.Key()] {
			t.Errorf("endpoint %s not exercised", ep.Key())
		}
	}
	rules := map[string]bool{}
	for _, rs := range s.Rules {
		rules[string(rs.Side)+"/"+rs.Rule] = rs.Checked > 0
	}
	for _, want := range []string{"server/ENV-07", "server/ENV-01", "server/ENV-03", "server/ENV-08", "server/VER-03",
		"server/ERR-01", "server/ERR-02", "server/ERR-03", "server/ERR-05", "server/SECURE-11", "server/GET-01",
		"client/AUTH-09", "client/AUTH-14", "client/AUTH-16", "client/AUTH-17", "client/ENV-09", "client/CLIENT-01", "client/ERR-11"} {
		if !rules[want] {
			t.Errorf("rule %s never checked", want)
		}
	}
}

// TestFaultsAreReported: in front of a sandbox breaking one rule, the
// proxy reports that rule, server side.
func TestFaultsAreReported(t *testing.T) {
	cases := []struct {
		fault string
		rule  string
		drive func(r *rig)
	}{
		{"envelope-a-status-ok", "ENV-01", func(r *rig) { r.do(call{method: "GET", path: "/cards/config"}) }},
		{"envelope-b-success-string", "ENV-03", func(r *rig) { everyEndpoint(r, "f1") }},
		{"envelope-path-no-version-root", "VER-03", func(r *rig) { r.do(call{method: "GET", path: "/cards/config"}) }},
		{"gift-verify-enveloped", "ENV-04", func(r *rig) { everyEndpoint(r, "f2") }},
		{"error-reason-phrase-wrong", "ERR-03", func(r *rig) { r.do(call{method: "GET", path: "/cards/crd_missing"}) }},
		{"error-timestamp-http-date", "ERR-01", func(r *rig) { r.do(call{method: "GET", path: "/cards/crd_missing"}) }},
		{"malformed-json-422", "ERR-21", func(r *rig) {
			r.do(call{method: "POST", path: "/cards/crd_x/withdraw", body: `{"amount":`})
		}},
		{"token-lifetime-600s", "AUTH-13", func(r *rig) {
			r.clk.Advance(700 * time.Second)
			r.do(call{method: "GET", path: "/cards/config"})
		}},
		{"issue-duplicate-reference-accepted", "ERR-11", func(r *rig) {
			everyEndpoint(r, "dup")
			cust := r.do(call{method: "GET", path: "/cards/customers"})
			list, _ := cust.body["data"].([]any)
			id, _ := list[0].(map[string]any)["customerId"].(string)
			r.do(call{method: "POST", path: "/cards", body: `{"customerId":"` + id + `","nameOnCard":"Ada Lovelace","amount":25.00,"reference":"dup-card"}`})
		}},
		{"auth-expired-token-accepted", "AUTH-12", func(r *rig) {
			r.clk.Advance(910 * time.Second)
			r.do(call{method: "GET", path: "/cards/config"})
		}},
		{"auth-quotes-without-token", "AUTH-09", func(r *rig) {
			r.do(call{method: "GET", path: "/betting/quote?amount=5000.00&provider=BET9JA", noAuth: true})
		}},
		{"auth-ignore-merchant-header", "AUTH-20", func(r *rig) {
			r.do(call{method: "GET", path: "/cards/config", header: map[string]string{"X-Merchant-Id": "mer_demo_bravo"}})
		}},
		{"card-list-ignores-limit", "LIST-08", func(r *rig) {
			everyEndpoint(r, "lim1")
			everyEndpoint(r, "lim2")
			r.do(call{method: "GET", path: "/cards?limit=1"})
		}},
		{"card-list-status-filter-ignored", "LIST-03", func(r *rig) {
			everyEndpoint(r, "flt")
			r.do(call{method: "GET", path: "/cards?status=FROZEN"})
		}},
		{"webhook-reversal-kind-wrong", "WEBHOOK-05", func(r *rig) {
			everyEndpoint(r, "rev")
			r.do(call{method: "POST", path: "/cards/rev-card/simulate-webhook", body: `{"event_type":"reversal"}`})
		}},
		{"config-environment-always-test", "CONFIG-02", func(r *rig) {
			live := sandbox.DemoMerchants()[0]
			a := r.do(call{method: "POST", path: "/auth/token", noAuth: true,
				body: `{"merchantId":"` + live.ID + `","secretKey":"` + live.LiveKey + `"}`})
			data, _ := a.body["data"].(map[string]any)
			r.token, _ = data["accessToken"].(string)
			r.do(call{method: "GET", path: "/cards/config"})
		}},
		{"rate-limit-bare-429", "RATE-02", func(r *rig) {
			for i := 0; i < 5; i++ {
				r.do(call{method: "GET", path: "/cards/config"})
			}
		}},
	}
	for _, tc := range cases {
		t.Run(tc.fault, func(t *testing.T) {
			opts := sandbox.Options{Faults: []string{tc.fault}}
			if tc.rule == "RATE-02" {
				opts.RateLimits = map[string]ratelimit.Limit{ratelimit.GroupRead: {Rate: 1, Burst: 1}}
			}
			var popts proxy.Options
			if tc.rule == "AUTH-20" {
				// Where X-Merchant-Id is checked is not shown: the lenient
				// default judges no single place, so the sandbox's choice
				// (both places) is declared.
				p := api.DefaultProfile()
				p.Auth.MerchantIDHeader = "both"
				popts.Profile = p
			}
			r := newRig(t, opts, popts)
			r.login()
			tc.drive(r)
			s := r.finish()
			if got := countBy(s, session.Server); got[tc.rule] == 0 {
				t.Fatalf("fault %s: rule %s not reported; server violations %v\n%s", tc.fault, tc.rule, got, r.log.String())
			}
			if !strings.Contains(r.log.String(), " server "+tc.rule+" ") {
				t.Errorf("no live log line for %s:\n%s", tc.rule, r.log.String())
			}
		})
	}
}
