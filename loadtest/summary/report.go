package summary

import (
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/merchant-harness/mph/loadtest/metrics"
	"github.com/merchant-harness/mph/loadtest/threshold"
)

// Report is what a run (or a merge) writes: summary.json is its JSON form.
type Report struct {
	Tool          string             `json:"tool"`
	Kind          string             `json:"kind"` // run, merge, probe, capacity
	Scenario      string             `json:"scenario,omitempty"`
	Target        string             `json:"target,omitempty"`
	Embedded      bool               `json:"embeddedSandbox,omitempty"`
	Schedule      string             `json:"schedule,omitempty"`
	Shard         string             `json:"shard,omitempty"`
	Plan          *RunPlan           `json:"plan,omitempty"`
	ForcedMerge   []string           `json:"forcedMerge,omitempty"` // mismatches a --force merge ignored
	Start         time.Time          `json:"start"`
	End           time.Time          `json:"end"`
	WindowSeconds float64            `json:"windowSeconds"`
	Warmup        string             `json:"warmup,omitempty"`
	WarmupN       uint64             `json:"warmupExcluded,omitempty"`
	Interrupted   bool               `json:"interrupted,omitempty"`
	Aborted       string             `json:"abortedOnBreach,omitempty"`
	Unsent        uint64             `json:"unsent,omitempty"`
	TokenFetches  int64              `json:"tokenRefreshes,omitempty"`
	Attack        map[string]string  `json:"attack,omitempty"`
	Notes         []string           `json:"notes,omitempty"`
	Sources       []string           `json:"sources,omitempty"` // merged inputs
	Thresholds    []threshold.Result `json:"thresholds,omitempty"`
	Breached      bool               `json:"breached"`
	// GeneratorBound: some endpoint's open-model latency is largely the
	// generator's send lag (each endpoint says which in its own flag).
	GeneratorBound bool              `json:"generatorBound"`
	Endpoints      []metrics.Summary `json:"endpoints"`
	Probe          *ProbeReport      `json:"probe,omitempty"`
	Capacity       *CapacityReport   `json:"capacity,omitempty"`
	ResultsFile    string            `json:"resultsFile,omitempty"`
}

// RunPlan is what a run was asked to do: the schedule's parameters, the
// common start instant and the shard. Merge checks that its inputs share a
// plan and together cover every shard of it.
type RunPlan struct {
	Rate       float64   `json:"rate"` // whole run, all shards together
	Pace       string    `json:"pace"`
	Duration   string    `json:"duration"`
	Warmup     string    `json:"warmup,omitempty"`
	StartAt    time.Time `json:"startAt,omitempty"` // the common --start-at; zero when the run started at once
	ShardIndex int       `json:"shardIndex"`
	ShardCount int       `json:"shardCount"`
}

// ReadReport reads a summary.json.
func ReadReport(path string) (*Report, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var r Report
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &r, nil
}
