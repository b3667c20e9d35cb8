// Package summary holds the data a load command produces: run, merge,
// probe, capacity and comparison results, as written to summary.json and
// compare.json. It computes nothing from traffic and renders no markup: the
// load engine (package loadtest) fills these values and package report
// renders them.
package summary

import (
	"fmt"

	"github.com/merchant-harness/mph/loadtest/metrics"
)

// Ms formats a duration in milliseconds for people: 0, 1.23ms, 45.6ms, 1.23s.
func Ms(v float64) string {
	switch {
	case v == 0:
		return "0"
	case v < 10:
		return fmt.Sprintf("%.2fms", v)
	case v < 1000:
		return fmt.Sprintf("%.1fms", v)
	}
	return fmt.Sprintf("%.2fs", v/1000)
}

// LagShareLimit: when the send lag is at least this share of the
// open-model latency (at p50 or p99), the figure describes the generator
// more than the server.
const LagShareLimit = 0.25

// LagWarnings names the endpoints whose open-model latency is largely the
// generator's own send lag.
func LagWarnings(eps []metrics.Summary) []string {
	var out []string
	for _, s := range eps {
		if s.Requests == 0 {
			continue
		}
		for _, q := range []struct {
			name     string
			lag, lat float64
		}{{"p50", s.SendLag.P50, s.Latency.P50}, {"p99", s.SendLag.P99, s.Latency.P99}} {
			if q.lat > 0 && q.lag/q.lat >= LagShareLimit {
				out = append(out, fmt.Sprintf("%s: send lag %s is %.0f%% of the open-model %s %s; that latency describes the generator more than the server (service %s %s)",
					s.Endpoint, Ms(q.lag), 100*q.lag/q.lat, q.name, Ms(q.lat), q.name, Ms(map[string]float64{"p50": s.ServiceLatency.P50, "p99": s.ServiceLatency.P99}[q.name])))
				break
			}
		}
	}
	return out
}
