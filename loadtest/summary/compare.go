package summary

import (
	"fmt"
)

// MetricDelta is one metric of one endpoint in both runs.
type MetricDelta struct {
	Metric      string        `json:"metric"`
	Unit        string        `json:"unit"` // ms, ratio, req/s, P(slower)
	Baseline    float64       `json:"baseline"`
	Current     float64       `json:"current"`
	Delta       float64       `json:"delta"`              // current - baseline
	Relative    float64       `json:"relative,omitempty"` // delta / baseline (latency, throughput)
	BaselineCI  [2]float64    `json:"baselineCI,omitempty"`
	CurrentCI   [2]float64    `json:"currentCI,omitempty"`
	BlockCI     [2][2]float64 `json:"blockCI,omitempty"` // block-bootstrap intervals: baseline, current
	Worse       bool          `json:"worse"`
	Significant bool          `json:"significant"`
	Evidence    string        `json:"evidence"` // the test's figure
	Limit       string        `json:"limit,omitempty"`
	Regression  bool          `json:"regression"`
}

// EndpointComparison compares one endpoint.
type EndpointComparison struct {
	Endpoint    string        `json:"endpoint"`
	BaselineN   uint64        `json:"baselineRequests"`
	CurrentN    uint64        `json:"currentRequests"`
	Superiority float64       `json:"probabilityCurrentSlower"` // P(current latency > baseline latency), 0.5 = no shift
	RankZ       float64       `json:"rankZ"`
	RankP       float64       `json:"rankP"` // two-sided
	Metrics     []MetricDelta `json:"metrics"`
}

// RunInfo identifies a compared run.
type RunInfo struct {
	Path     string `json:"path"`
	Scenario string `json:"scenario,omitempty"`
	Target   string `json:"target,omitempty"`
	Schedule string `json:"schedule,omitempty"`
	Start    string `json:"start"`
	Window   float64
}

// Comparison is the result of compare.
type Comparison struct {
	Baseline    RunInfo              `json:"baseline"`
	Current     RunInfo              `json:"current"`
	Method      string               `json:"method"`
	Limits      []string             `json:"limits"`
	Defaults    bool                 `json:"defaultLimits"` // the limits are compare's defaults (no --max-regression)
	Warnings    []string             `json:"warnings,omitempty"`
	Endpoints   []EndpointComparison `json:"endpoints"`
	Regressions []string             `json:"regressions"`
	Regressed   bool                 `json:"regressed"`
}

// Change states the metric's move from baseline to current in its unit.
func (m MetricDelta) Change() string {
	switch m.Unit {
	case "P(slower)":
		return fmt.Sprintf("P(current slower) = %.3f (%+.1fpp from ½)", m.Current, m.Delta*100)
	case "ms":
		return fmt.Sprintf("%s → %s (%+.1f%%)", Ms(m.Baseline), Ms(m.Current), m.Relative*100)
	case "req/s":
		return fmt.Sprintf("%.1f → %.1f req/s (%+.1f%%)", m.Baseline, m.Current, m.Relative*100)
	}
	return fmt.Sprintf("%.3f%% → %.3f%% (%+.3fpp)", m.Baseline*100, m.Current*100, m.Delta*100)
}

// Verdict is the comparison's one-line outcome.
func (c *Comparison) Verdict() string {
	if c.Regressed {
		return fmt.Sprintf("REGRESSION: %d metric(s) significantly worse beyond their limit", len(c.Regressions))
	}
	if len(c.Limits) == 0 {
		return "no --max-regression limits: report only"
	}
	return "no significant regression beyond the limits"
}
