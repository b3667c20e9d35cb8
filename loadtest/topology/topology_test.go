package topology

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/merchant-harness/mph/httpclient"
	"github.com/merchant-harness/mph/loadtest"
	"github.com/merchant-harness/mph/loadtest/internal/testtarget"
	"github.com/merchant-harness/mph/loadtest/summary"
	"github.com/merchant-harness/mph/report"
	"github.com/merchant-harness/mph/report/loadreport"
	"github.com/merchant-harness/mph/sandbox"
	"github.com/merchant-harness/mph/sandbox/ratelimit"
)

func TestParseRateLimitPolicy(t *testing.T) {
	for _, tc := range []struct {
		in      string
		q, w    float64
		wantNil bool
	}{
		{in: `"default";q=100;w=60`, q: 100, w: 60},
		{in: `100;w=60, 1000;w=3600`, q: 100, w: 60},
		{in: `"burst";q=10`, q: 10},
		{in: "", wantNil: true},
	} {
		p := ParseRateLimitPolicy(tc.in)
		if tc.wantNil {
			if p != nil {
				t.Errorf("%q: %+v, want nil", tc.in, p)
			}
			continue
		}
		if p == nil || p.Quota != tc.q || p.WindowSeconds != tc.w {
			t.Errorf("%q: %+v, want q=%v w=%v", tc.in, p, tc.q, tc.w)
		}
	}
}

func TestLimiterKey(t *testing.T) {
	const tok, mer = "second token, same merchant", "second merchant"
	for _, tc := range []struct {
		path    string
		limited map[string]bool
		want    string
	}{
		{loadtest.EPList, map[string]bool{tok: false, mer: false}, "token"},
		{loadtest.EPList, map[string]bool{tok: true, mer: false}, "merchant"},
		{loadtest.EPList, map[string]bool{tok: true, mer: true}, "client"},
		{loadtest.EPList, map[string]bool{tok: true}, "merchant or client"},
		{loadtest.EPToken, map[string]bool{mer: true}, "client"},
		{loadtest.EPToken, map[string]bool{mer: false}, "merchant"},
		{loadtest.EPToken, map[string]bool{}, "unknown"},
	} {
		if got, _ := limiterKey(tc.path, tc.limited); got != tc.want {
			t.Errorf("%s %v: %q, want %q", tc.path, tc.limited, got, tc.want)
		}
	}
}

func within(got, want, tol float64) bool { return math.Abs(got-want) <= tol*want }

// On a sandbox whose list and secure paths share one per-merchant bucket
// (30/s, burst 30) and whose token exchange has its own per-client bucket
// (20/s, burst 20), the topology finds the two groups, their keys, bursts
// and refill rates. The per-path figures it starts from are deliberately off.
func TestTopologyOnSharedLimiters(t *testing.T) {
	if testing.Short() {
		t.Skip("integration")
	}
	tg := testtarget.Sandbox(t, sandbox.Options{
		RateLimits:        map[string]ratelimit.Limit{"token": {Rate: 20, Burst: 20}, "read": {Rate: 30, Burst: 30}, "secure": {Rate: 500, Burst: 500}},
		RateLimitTopology: ratelimit.Topology{Shared: [][]string{{"read", "secure"}}},
	})
	probes := []summary.PathProbe{
		{Endpoint: loadtest.EPToken, LimitFound: true, Ceiling: 24, Burst: 12},
		{Endpoint: loadtest.EPList, LimitFound: true, Ceiling: 36, Burst: 18},
		{Endpoint: loadtest.EPSecure, LimitFound: true, Ceiling: 36, Burst: 18},
	}
	topo, err := Probe(context.Background(), tg, probes, Options{Attack: loadtest.AttackOptions{LoadOptions: httpclient.LoadOptions{MaxConnections: 64}}, Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	md := rendered(t, loadreport.TopologyMarkdown(topo))
	t.Log(md)
	if len(topo.Groups) != 2 {
		t.Fatalf("%d groups, want 2", len(topo.Groups))
	}
	want := map[string]struct {
		key           string
		burst, refill float64
	}{
		"list, secure": {"merchant", 30, 30},
		"token":        {"client", 20, 20},
	}
	for _, g := range topo.Groups {
		k := strings.Join(g.Paths, ", ")
		w, ok := want[k]
		if !ok {
			t.Errorf("unexpected group %q", k)
			continue
		}
		if g.Key != w.key {
			t.Errorf("%s: key %q, want %q (%s)", k, g.Key, w.key, g.KeyEvidence)
		}
		// Shared machine: the fast bursts are not instantaneous, so allow ±35%.
		if !within(g.Burst, w.burst, 0.35) || !within(g.Refill, w.refill, 0.35) {
			t.Errorf("%s: burst %.0f refill %.1f, want %v and %v ± 35%%", k, g.Burst, g.Refill, w.burst, w.refill)
		}
		if g.RetryAfter == "" || g.TokensAtRetryAfter < 1 || g.Headers["X-Ratelimit-Limit"] == "" {
			t.Errorf("%s: Retry-After %q (%.1f tokens), headers %v", k, g.RetryAfter, g.TokensAtRetryAfter, g.Headers)
		}
	}
	verdicts := map[string]string{}
	for _, p := range topo.Pairs {
		verdicts[p.Saturated+">"+p.Watched] = p.Verdict
	}
	if verdicts["list>secure"] != "shared" || verdicts["list>token"] != "independent" || verdicts["secure>token"] != "independent" {
		t.Errorf("pair verdicts %v", verdicts)
	}
	if !strings.Contains(md, "| list, secure | merchant |") {
		t.Errorf("limiter-groups table missing its row")
	}
}

// With buckets keyed by access token, a second token of the same merchant
// is not refused while the first is saturated: the key is the token.
func TestTopologyFindsTokenKey(t *testing.T) {
	if testing.Short() {
		t.Skip("integration")
	}
	tg := testtarget.Sandbox(t, sandbox.Options{
		RateLimits:        map[string]ratelimit.Limit{"read": {Rate: 30, Burst: 30}},
		RateLimitTopology: ratelimit.Topology{Key: ratelimit.KeyToken},
	})
	topo, err := Probe(context.Background(), tg, []summary.PathProbe{{Endpoint: loadtest.EPList, LimitFound: true, Ceiling: 30, Burst: 30}},
		Options{Attack: loadtest.AttackOptions{LoadOptions: httpclient.LoadOptions{MaxConnections: 64}}, Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	if len(topo.Groups) != 1 || topo.Groups[0].Key != "token" {
		t.Fatalf("groups %+v, want list keyed by token\n%s", topo.Groups, rendered(t, loadreport.TopologyMarkdown(topo)))
	}
}

// rendered runs a reporter into a string.
func rendered(t *testing.T, r report.Reporter) string {
	t.Helper()
	b, err := r.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
