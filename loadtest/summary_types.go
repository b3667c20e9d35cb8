package loadtest

import "github.com/merchant-harness/mph/loadtest/summary"

// The result types live in package summary, which package report renders
// without importing the load engine; these names keep the engine's API.
type (
	Report             = summary.Report
	RunPlan            = summary.RunPlan
	ProbeReport        = summary.ProbeReport
	PathProbe          = summary.PathProbe
	ProbeStep          = summary.ProbeStep
	PoliteResult       = summary.PoliteResult
	Topology           = summary.Topology
	LimiterGroup       = summary.LimiterGroup
	PairCheck          = summary.PairCheck
	KeyCheck           = summary.KeyCheck
	RateLimitPolicy    = summary.RateLimitPolicy
	CapacityReport     = summary.CapacityReport
	CapacityStep       = summary.CapacityStep
	Comparison         = summary.Comparison
	EndpointComparison = summary.EndpointComparison
	MetricDelta        = summary.MetricDelta
	RunInfo            = summary.RunInfo
)
