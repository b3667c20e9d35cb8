package proxy_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"sort"
	"testing"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/merchant-harness/mph/proxy"
	"github.com/merchant-harness/mph/sandbox"
)

// TestProxyOverhead measures the latency the proxy adds at a fixed rate:
// the embedded sandbox (rate limits off) is attacked directly and through
// the proxy in interleaved rounds, so both see the same machine load.
// Opt-in (MPH_PROXY_BENCH=1); MPH_PROXY_BENCH_RATE, _ROUNDS and _SECONDS
// tune it. The numbers go to bench/PROXY.md by hand, dated with the command.
func TestProxyOverhead(t *testing.T) {
	if os.Getenv("MPH_PROXY_BENCH") == "" {
		t.Skip("set MPH_PROXY_BENCH=1 to measure the proxy's overhead")
	}
	rate, rounds, secs := envInt("MPH_PROXY_BENCH_RATE", 500), envInt("MPH_PROXY_BENCH_ROUNDS", 5), envInt("MPH_PROXY_BENCH_SECONDS", 10)
	ctx := context.Background()
	sbx, err := sandbox.Start(ctx, "127.0.0.1:0", sandbox.Options{DisableRateLimits: true})
	if err != nil {
		t.Fatal(err)
	}
	defer sbx.Close()
	px, err := proxy.New(proxy.Options{Upstream: sbx.BaseURL})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(px)
	defer srv.Close()
	token := benchToken(t, sbx.BaseURL)
	via := map[string]string{"direct": sbx.BaseURL, "proxy": srv.URL + px.BasePath()}
	p50 := map[string][]time.Duration{}
	p99 := map[string][]time.Duration{}
	for i := 0; i < rounds; i++ {
		for _, name := range []string{"direct", "proxy"} {
			m := attack(via[name], token, rate, time.Duration(secs)*time.Second)
			if m.Success < 0.999 {
				t.Fatalf("%s round %d: success %.4f %v", name, i, m.Success, m.Errors)
			}
			p50[name] = append(p50[name], m.Latencies.P50)
			p99[name] = append(p99[name], m.Latencies.P99)
			t.Logf("round %d %-6s p50 %v p90 %v p99 %v (%d requests)", i+1, name, m.Latencies.P50, m.Latencies.P90, m.Latencies.P99, m.Requests)
		}
	}
	cctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	px.Close(cctx)
	snap := px.Tally().Snapshot()
	d50, x50 := median(p50["direct"]), median(p50["proxy"])
	d99, x99 := median(p99["direct"]), median(p99["proxy"])
	t.Logf("RESULT rate %d/s, %d rounds of %ds: p50 direct %v proxy %v added %v (%.2fx); p99 direct %v proxy %v added %v; proxy checked %d exchanges, %d violations",
		rate, rounds, secs, d50, x50, x50-d50, float64(x50)/float64(d50), d99, x99, x99-d99, snap.Exchanges, snap.Server+snap.Client)
	if snap.Server+snap.Client != 0 {
		t.Errorf("violations during the benchmark: %+v", snap.Rules)
	}
	if x50-d50 > 5*time.Millisecond {
		t.Errorf("p50 added %v: far above the ~1 ms budget", x50-d50)
	}
}

// attack sends a mix of authenticated reads: config, listing, one card.
func attack(base, token string, rate int, dur time.Duration) vegeta.Metrics {
	h := http.Header{"Authorization": {"Bearer " + token}}
	targets := []vegeta.Target{
		{Method: "GET", URL: base + "/cards/config", Header: h},
		{Method: "GET", URL: base + "/cards?limit=5", Header: h},
	}
	atk := vegeta.NewAttacker(vegeta.Timeout(10*time.Second), vegeta.KeepAlive(true))
	var m vegeta.Metrics
	for res := range atk.Attack(vegeta.NewStaticTargeter(targets...), vegeta.Rate{Freq: int(rate), Per: time.Second}, dur, "bench") {
		m.Add(res)
	}
	m.Close()
	return m
}

func benchToken(t *testing.T, base string) string {
	r := &rig{t: t, base: base}
	return r.login()
}

func envInt(name string, def int) int {
	var v int
	if _, err := fmt.Sscan(os.Getenv(name), &v); err != nil || v <= 0 {
		return def
	}
	return v
}

func median(ds []time.Duration) time.Duration {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}
