package loadtest

import (
	"github.com/merchant-harness/mph/loadtest/summary"
	"github.com/merchant-harness/mph/loadtest/threshold"
)

// FromOutcome builds a report from a run.
func FromOutcome(o *Outcome) *summary.Report {
	return &summary.Report{
		Tool: "mph load", Kind: "run", Schedule: o.Schedule, Start: o.Start, End: o.End,
		WindowSeconds: o.Window.Seconds(), WarmupN: o.WarmupN, Interrupted: o.Interrupted,
		Aborted: o.Aborted, Unsent: o.Unsent, TokenFetches: o.TokenFetch,
		Thresholds: o.Thresholds, Breached: threshold.Breached(o.Thresholds), Endpoints: o.Summaries,
		GeneratorBound: summary.GeneratorBound(o.Summaries),
	}
}
