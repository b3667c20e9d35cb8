package loadtest

import (
	"encoding/json"
	"fmt"
	"os"

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

// ReadReport reads a summary.json.
func ReadReport(path string) (*summary.Report, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var r summary.Report
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &r, nil
}
