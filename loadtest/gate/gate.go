// Package gate is what the release gate of a load command reads of its
// report, data only: the thresholds a run breached, the rules of the API
// document a rate-limit probe saw broken, and the thresholds no run of a
// scenario could measure. The commands map these to their exit codes.
package gate

import (
	"fmt"
	"strings"

	"github.com/merchant-harness/mph/loadtest/summary"
	"github.com/merchant-harness/mph/loadtest/threshold"
	"github.com/merchant-harness/mph/result"
)

// BreachReason names the breached gates, e.g. "threshold breached:
// all:success>=99% [default gate] (actual 0.000%)".
func BreachReason(rep *summary.Report) string {
	var failed []string
	for _, t := range rep.Thresholds {
		if !t.Pass {
			_, text, _ := strings.Cut(t.Format(), "  ")
			failed = append(failed, strings.TrimSpace(text))
		}
	}
	return "threshold breached: " + strings.Join(failed, "; ")
}

// Unmeasurable refuses a threshold on an endpoint the scenario never hits
// (it sends to eps): it could never be measured, and would pass or fail
// vacuously.
func Unmeasurable(ths []threshold.Threshold, scenario string, eps []string) error {
	for _, t := range ths {
		if t.Endpoint == "" || t.Endpoint == "all" {
			continue
		}
		hit := false
		for _, ep := range eps {
			hit = hit || ep == t.Endpoint
		}
		if !hit {
			return fmt.Errorf("--threshold %q: scenario %s never sends %s requests (it sends %s)", t.Raw, scenario, t.Endpoint, strings.Join(eps, ", "))
		}
	}
	return nil
}

// ProbeBreaches names the rules of the API document a rate-limit probe saw
// broken ("" when none): a 429 answer of any phase (ladders, blast,
// recovery, Retry-After, polite client, topology) without the error
// envelope, statusCode 429 and the reason phrase Too Many Requests
// (RATE-02), as the profile's rateLimits.envelope reads it, and a path
// whose target answered nothing but errors or redirects. What the probe
// measures beyond that (onset, ceiling, burst, Retry-After, recovery) the
// document does not state, so it is reported, never a failure.
func ProbeBreaches(p *summary.ProbeReport) string {
	if p == nil {
		return ""
	}
	var why []string
	for _, pp := range p.Paths {
		if pp.NoSuccess != "" {
			// A limit cannot be measured where nothing succeeds: like a
			// load run at 0% success, a failure, never "no limit found".
			why = append(why, pp.Endpoint+": "+pp.NoSuccess)
		}
		if b := breach429(pp.Endpoint, pp.RATE02); b != "" {
			why = append(why, b)
		}
	}
	if p.Topology != nil {
		if b := breach429("topology", p.Topology.RATE02); b != "" {
			why = append(why, b)
		}
	}
	return strings.Join(why, "; ")
}

// breach429 states the 429s of one part of the probe that broke RATE-02.
func breach429(where string, j summary.Judged429) string {
	if j.Broken == 0 {
		return ""
	}
	first := ""
	if len(j.Reasons) > 0 {
		first = " (first: " + result.Cut(strings.Join(strings.Fields(j.Reasons[0]), " "), 200) + ")"
	}
	return fmt.Sprintf("%s: %d of %d 429 answers break the error envelope (RATE-02)%s", where, j.Broken, j.Seen, first)
}
