package proxy_test

import (
	"strconv"
	"testing"
	"time"

	"github.com/merchant-harness/mph/proxy"
	"github.com/merchant-harness/mph/proxy/session"
	"github.com/merchant-harness/mph/sandbox"
	"github.com/merchant-harness/mph/sandbox/ratelimit"
)

// TestMisbehavingClient: each scripted mistake of a caller is reported,
// client side, under its rule; the sandbox stays clean.
func TestMisbehavingClient(t *testing.T) {
	cases := []struct {
		name  string
		rule  string
		limit bool // low read rate limit
		drive func(r *rig)
	}{
		{"no refresh: token used after expiry", "AUTH-14", false, func(r *rig) {
			r.login()
			r.clk.Advance(901 * time.Second)
			r.do(call{method: "GET", path: "/cards/config"})
		}},
		{"secret key as bearer", "AUTH-17", false, func(r *rig) {
			r.do(call{method: "PATCH", path: "/cards/crd_x/contact", body: `{"email":"a@example.com"}`,
				header: map[string]string{"Authorization": "Bearer " + demoKey}})
		}},
		{"secret key in a query", "AUTH-16", false, func(r *rig) {
			r.login()
			r.do(call{method: "GET", path: "/cards?search=" + demoKey})
		}},
		{"no bearer", "AUTH-09", false, func(r *rig) {
			r.do(call{method: "GET", path: "/cards/config", noAuth: true})
		}},
		{"basic scheme", "AUTH-10", false, func(r *rig) {
			r.do(call{method: "GET", path: "/cards/config", header: map[string]string{"Authorization": "Basic bWVyOnNr"}})
		}},
		{"one token exchange per call", "AUTH-15", false, func(r *rig) {
			for i := 0; i < 3; i++ {
				r.login()
				r.do(call{method: "GET", path: "/cards/config"})
			}
		}},
		{"X-Merchant-Id of another merchant", "AUTH-20", false, func(r *rig) {
			r.login()
			r.do(call{method: "GET", path: "/cards/config", header: map[string]string{"X-Merchant-Id": "mer_demo_bravo"}})
		}},
		{"amount with 3 decimals", "CLIENT-01", false, func(r *rig) {
			r.login()
			r.do(call{method: "POST", path: "/cards/crd_x/withdraw", body: `{"amount":1.005}`})
		}},
		{"body without JSON content type", "ENV-09", false, func(r *rig) {
			r.login()
			r.do(call{method: "PATCH", path: "/cards/crd_x/status", body: `{"status":"FROZEN"}`,
				header: map[string]string{"Content-Type": "text/plain"}})
		}},
		{"reference reused", "ERR-11", false, func(r *rig) {
			everyEndpoint(r, "twice")
			r.do(call{method: "POST", path: "/gift-cards/purchase", body: `{"productCode":"AMAZON_US","amount":25,"recipientEmail":"f@example.com","recipientName":"Friend","reference":"twice-gift"}`})
		}},
		{"retry before Retry-After", "RATE-03", true, func(r *rig) {
			r.login()
			for i := 0; i < 4; i++ {
				r.do(call{method: "GET", path: "/cards/config"})
			}
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			opts := sandbox.Options{}
			if tc.limit {
				opts.RateLimits = map[string]ratelimit.Limit{ratelimit.GroupRead: {Rate: 1, Burst: 1}}
			}
			r := newRig(t, opts, proxy.Options{})
			tc.drive(r)
			s := r.finish()
			if got := countBy(s, session.Client); got[tc.rule] == 0 {
				t.Fatalf("rule %s not reported; client violations %v\n%s", tc.rule, got, r.log.String())
			}
			if got := countBy(s, session.Server); len(got) > 0 {
				t.Errorf("server violations on the clean sandbox: %v\n%s", got, r.log.String())
			}
		})
	}
}

// TestPoliteRetryIsNotFlagged: waiting out Retry-After passes RATE-03.
func TestPoliteRetryIsNotFlagged(t *testing.T) {
	if testing.Short() {
		t.Skip("waits out a Retry-After")
	}
	r := newRig(t, sandbox.Options{RateLimits: map[string]ratelimit.Limit{ratelimit.GroupRead: {Rate: 1, Burst: 1}}}, proxy.Options{})
	r.login()
	r.do(call{method: "GET", path: "/cards/config"})
	a := r.do(call{method: "GET", path: "/cards/config"})
	if a.status != 429 {
		t.Fatalf("want a 429, got %d", a.status)
	}
	secs, _ := strconv.Atoi(a.header.Get("Retry-After"))
	time.Sleep(time.Duration(secs)*time.Second + 50*time.Millisecond)
	r.do(call{method: "GET", path: "/cards/config"})
	s := r.finish()
	var checked, bad int64
	for _, rs := range s.Rules {
		if rs.Rule == "RATE-03" {
			checked, bad = rs.Checked, rs.Violations
		}
	}
	if checked == 0 || bad != 0 {
		t.Fatalf("RATE-03 checked %d, violations %d\n%s", checked, bad, r.log.String())
	}
}
