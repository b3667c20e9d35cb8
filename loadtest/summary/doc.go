// Package summary holds the data a load command produces: run, merge,
// probe, capacity and comparison results, as written to summary.json and
// compare.json, and reads a summary.json back (ReadReport). It computes
// nothing from traffic and renders no markup: the load engine (package
// loadtest) fills these values and package report renders them.
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
// more than the server (metrics.Summary.GeneratorBound).
const LagShareLimit = metrics.LagShareLimit

// GeneratorBound reports whether any endpoint's (or the aggregate's)
// open-model latency is largely the generator's own send lag.
func GeneratorBound(eps []metrics.Summary) bool {
	for _, s := range eps {
		if s.GeneratorBound {
			return true
		}
	}
	return false
}

// LagWarnings names the endpoints whose open-model latency is largely the
// generator's own send lag.
func LagWarnings(eps []metrics.Summary) []string {
	var out []string
	for _, s := range eps {
		q, share := s.LagShare()
		if q == "" {
			continue
		}
		lag, lat, svc := s.SendLag.P50, s.Latency.P50, s.ServiceLatency.P50
		if q == "p99" {
			lag, lat, svc = s.SendLag.P99, s.Latency.P99, s.ServiceLatency.P99
		}
		out = append(out, fmt.Sprintf("%s: send lag %s is %.0f%% of the open-model %s %s; that latency describes the generator more than the server (service %s %s)",
			s.Endpoint, Ms(lag), 100*share, q, Ms(lat), q, Ms(svc)))
	}
	return out
}
