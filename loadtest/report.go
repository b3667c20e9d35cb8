package loadtest

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
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
	Endpoints     []metrics.Summary  `json:"endpoints"`
	Probe         *ProbeReport       `json:"probe,omitempty"`
	Capacity      *CapacityReport    `json:"capacity,omitempty"`
	ResultsFile   string             `json:"resultsFile,omitempty"`
}

// FromOutcome builds a report from a run.
func FromOutcome(o *Outcome) *Report {
	return &Report{
		Tool: "mph load", Kind: "run", Schedule: o.Schedule, Start: o.Start, End: o.End,
		WindowSeconds: o.Window.Seconds(), WarmupN: o.WarmupN, Interrupted: o.Interrupted,
		Aborted: o.Aborted, Unsent: o.Unsent, TokenFetches: o.TokenFetch,
		Thresholds: o.Thresholds, Breached: threshold.Breached(o.Thresholds), Endpoints: o.Summaries,
	}
}

// Write redacts the report (in place) and writes summary.json, summary.md
// and report.html into dir.
func (r *Report) Write(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := r.redactInPlace(); err != nil {
		return err
	}
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	if err := writeFileAtomic(filepath.Join(dir, "summary.json"), b); err != nil {
		return err
	}
	if err := writeFileAtomic(filepath.Join(dir, "summary.md"), []byte(r.Markdown())); err != nil {
		return err
	}
	return writeFileAtomic(filepath.Join(dir, "report.html"), []byte(r.HTML()))
}

func writeFileAtomic(path string, b []byte) error {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
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

func codesString(m map[string]uint64) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		label := k
		if k == "0" {
			label = "err"
		}
		parts = append(parts, fmt.Sprintf("%s:%d", label, m[k]))
	}
	return strings.Join(parts, " ")
}

// Markdown renders the report for CI.
func (r *Report) Markdown() string {
	var b strings.Builder
	title := "mph load"
	if r.Scenario != "" {
		title += " — " + r.Scenario
	}
	fmt.Fprintf(&b, "# %s (%s)\n\n", title, r.Kind)
	if r.Target != "" {
		fmt.Fprintf(&b, "- target: `%s`", r.Target)
		if r.Embedded {
			b.WriteString(" (embedded sandbox)")
		}
		b.WriteString("\n")
	}
	if v := strings.TrimSpace(strings.TrimPrefix(r.Tool, "mph load")); v != "" {
		fmt.Fprintf(&b, "- harness version: `%s`\n", v)
	}
	if r.Schedule != "" {
		fmt.Fprintf(&b, "- schedule: %s\n", r.Schedule)
	}
	if r.Shard != "" {
		fmt.Fprintf(&b, "- shard: %s\n", r.Shard)
	}
	fmt.Fprintf(&b, "- start: %s, measured window %.1fs", r.Start.UTC().Format(time.RFC3339), r.WindowSeconds)
	if r.WarmupN > 0 {
		fmt.Fprintf(&b, ", %d warm-up requests excluded", r.WarmupN)
	}
	b.WriteString("\n")
	if r.Interrupted {
		fmt.Fprintf(&b, "- **interrupted**: figures cover what was collected (%d scheduled requests not sent)\n", r.Unsent)
	}
	if r.Aborted != "" {
		fmt.Fprintf(&b, "- **aborted** on breach of `%s`\n", r.Aborted)
	}
	if r.TokenFetches > 0 {
		fmt.Fprintf(&b, "- token refreshes during the run: %d\n", r.TokenFetches)
	}
	for _, n := range r.Notes {
		fmt.Fprintf(&b, "- %s\n", n)
	}
	for _, w := range LagWarnings(r.Endpoints) {
		fmt.Fprintf(&b, "- **generator-bound**: %s\n", w)
	}
	if len(r.Sources) > 0 {
		fmt.Fprintf(&b, "- merged from %d inputs\n", len(r.Sources))
	}
	if len(r.Endpoints) > 0 {
		b.WriteString("\n## Endpoints\n\nLatency is open-model: from each request's intended send time to the end of its response (send lag included). Service latency is from the actual send. Success counts valid answers only: an answer with another status than the one the API document states, a Content-Type other than application/json, or a body failing its schema (checked for 1 in 100 answers and every non-2xx) is invalid.\n\n")
		b.WriteString("| endpoint | requests | offered/s | achieved/s | 2xx/s | success | invalid | 429 | codes | p50 | p90 | p95 | p99 | p99.9 | max | svc p99 | lag p99 | bytes in |\n")
		b.WriteString("| :- | -: | -: | -: | -: | -: | -: | -: | :- | -: | -: | -: | -: | -: | -: | -: | -: | -: |\n")
		for _, s := range r.Endpoints {
			l := s.Latency
			fmt.Fprintf(&b, "| %s | %d | %.1f | %.1f | %.1f | %.2f%% | %d | %.2f%% | %s | %s | %s | %s | %s | %s | %s | %s | %s | %d |\n",
				s.Endpoint, s.Requests, s.OfferedRate, s.AchievedRate, s.Throughput, s.SuccessRatio*100, s.Invalid, s.Rate429*100,
				codesString(s.StatusCodes), ms(l.P50), ms(l.P90), ms(l.P95), ms(l.P99), ms(l.P999), ms(l.Max),
				ms(s.ServiceLatency.P99), ms(s.SendLag.P99), s.BytesIn)
		}
	}
	if len(r.Thresholds) > 0 {
		b.WriteString("\n## Thresholds\n\n")
		for _, t := range r.Thresholds {
			fmt.Fprintf(&b, "- %s\n", t.Format())
		}
		if r.Breached {
			b.WriteString("\n**Release gate: FAILED**\n")
		} else {
			b.WriteString("\nRelease gate: passed\n")
		}
	}
	if r.Probe != nil {
		b.WriteString(r.Probe.Markdown())
	}
	if r.Capacity != nil {
		b.WriteString(r.Capacity.Markdown())
	}
	return b.String()
}

func ms(v float64) string {
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
