package loadreport

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/merchant-harness/mph/loadtest/metrics"
	"github.com/merchant-harness/mph/loadtest/summary"
	"github.com/merchant-harness/mph/report"
)

var ms = summary.Ms

// Markdown renders a load report (run, merge, probe, capacity) for CI.
func Markdown(r *summary.Report) report.Reporter {
	return report.Text(func() string { return loadMarkdown(r) })
}

// CapacityMarkdown renders the capacity section alone.
func CapacityMarkdown(c *summary.CapacityReport) report.Reporter {
	return report.Text(func() string { return capacityMarkdown(c) })
}

func loadMarkdown(r *summary.Report) string {
	var b strings.Builder
	title := "mph load"
	if r.Scenario != "" {
		title += " — " + r.Scenario
	}
	fmt.Fprintf(&b, "# %s (%s)\n\n", title, r.Kind)
	for _, it := range runFacts(r) {
		b.WriteString("- " + it.markdown() + "\n")
	}
	if len(r.Endpoints) > 0 {
		b.WriteString("\n## Endpoints\n\n" + latencyNote + "\n\n")
		endpointTable(r.Endpoints).markdown(&b)
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
		b.WriteString(probeMarkdown(r.Probe))
	}
	if r.Capacity != nil {
		b.WriteString(capacityMarkdown(r.Capacity))
	}
	return b.String()
}

const latencyNote = "Latency is open-model: from each request's intended send time to the end of its response (send lag included). Service latency is from the actual send. Success counts valid answers only: an answer with another status than the one the API document states, a Content-Type other than application/json, or a body failing its schema (checked for 1 in 100 answers and every non-2xx) is invalid."

// fact is one bullet of a report's header: an optional bold lead, text,
// an optional code span and a tail.
type fact struct {
	Bold, Text, Code, Tail string
}

func (f fact) markdown() string {
	s := f.Text
	if f.Bold != "" {
		s = "**" + f.Bold + "**" + s
	}
	if f.Code != "" {
		s += "`" + f.Code + "`"
	}
	return s + f.Tail
}

// runFacts lists what the report states about the run before its tables.
func runFacts(r *summary.Report) []fact {
	var out []fact
	if r.Target != "" {
		f := fact{Text: "target: ", Code: r.Target}
		if r.Embedded {
			f.Tail = " (embedded sandbox)"
		}
		out = append(out, f)
	}
	if v := strings.TrimSpace(strings.TrimPrefix(r.Tool, "mph load")); v != "" {
		out = append(out, fact{Text: "harness version: ", Code: v})
	}
	if r.Schedule != "" {
		out = append(out, fact{Text: "schedule: " + r.Schedule})
	}
	if r.Shard != "" {
		out = append(out, fact{Text: "shard: " + r.Shard})
	}
	start := fmt.Sprintf("start: %s, measured window %.1fs", r.Start.UTC().Format(time.RFC3339), r.WindowSeconds)
	if r.WarmupN > 0 {
		start += fmt.Sprintf(", %d warm-up requests excluded", r.WarmupN)
	}
	out = append(out, fact{Text: start})
	return append(out, runWarnings(r)...)
}

func runWarnings(r *summary.Report) []fact {
	var out []fact
	if r.Interrupted {
		out = append(out, fact{Bold: "interrupted", Text: fmt.Sprintf(": figures cover what was collected (%d scheduled requests not sent)", r.Unsent)})
	}
	if r.Aborted != "" {
		out = append(out, fact{Bold: "aborted", Text: " on breach of ", Code: r.Aborted})
	}
	if r.TokenFetches > 0 {
		out = append(out, fact{Text: fmt.Sprintf("token refreshes during the run: %d", r.TokenFetches)})
	}
	if len(r.ForcedMerge) > 0 {
		out = append(out, fact{Bold: "forced merge", Text: " (--force): the inputs are not the shards of one run, so the merged figures may mean nothing: " +
			strings.Join(r.ForcedMerge, "; ")})
	}
	for _, n := range r.Notes {
		out = append(out, fact{Text: n})
	}
	for _, w := range summary.LagWarnings(r.Endpoints) {
		out = append(out, fact{Bold: "generator-bound", Text: ": " + w})
	}
	if len(r.Sources) > 0 {
		out = append(out, fact{Text: fmt.Sprintf("merged from %d inputs", len(r.Sources))})
	}
	return out
}

func endpointTable(eps []metrics.Summary) table {
	t := table{
		Head: []string{"endpoint", "requests", "offered/s", "achieved/s", "2xx/s", "success", "invalid", "429", "codes",
			"p50", "p90", "p95", "p99", "p99.9", "max", "svc p99", "lag p99", "bytes in"},
		Align: "| :- | -: | -: | -: | -: | -: | -: | -: | :- | -: | -: | -: | -: | -: | -: | -: | -: | -: |",
	}
	for _, s := range eps {
		l := s.Latency
		t.Rows = append(t.Rows, row(s.Endpoint, fmt.Sprint(s.Requests), fmt.Sprintf("%.1f", s.OfferedRate),
			fmt.Sprintf("%.1f", s.AchievedRate), fmt.Sprintf("%.1f", s.Throughput), fmt.Sprintf("%.2f%%", s.SuccessRatio*100),
			fmt.Sprint(s.Invalid), fmt.Sprintf("%.2f%%", s.Rate429*100), codesString(s.StatusCodes),
			ms(l.P50), ms(l.P90), ms(l.P95), ms(l.P99), ms(l.P999), ms(l.Max), ms(s.ServiceLatency.P99), ms(s.SendLag.P99), fmt.Sprint(s.BytesIn)))
	}
	return t
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

// capacityHeadline is the capacity section's verdict: bold lead and tail.
func capacityHeadline(c *summary.CapacityReport) (string, string) {
	if c.Confirmed {
		return fmt.Sprintf("Capacity: %.0f req/s", c.Capacity), " (confirmed)"
	}
	return "No confirmed capacity", " " + c.Note
}

func capacityTable(c *summary.CapacityReport) table {
	t := table{Head: []string{"phase", "rate", "achieved", "p99", "errors", "pass", "why"}, Align: "| :- | -: | -: | -: | -: | :- | :- |"}
	for _, s := range c.Steps {
		t.Rows = append(t.Rows, row(s.Phase, fmt.Sprintf("%.0f", s.Rate), fmt.Sprintf("%.1f", s.Achieved), ms(s.P99Ms),
			fmt.Sprintf("%.2f%%", s.Errors*100), fmt.Sprint(s.Pass), s.Why))
	}
	return t
}

func capacityMarkdown(c *summary.CapacityReport) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\n## Capacity search\n\nSLO: %s\n\n", c.SLO)
	lead, tail := capacityHeadline(c)
	fmt.Fprintf(&b, "**%s**%s\n\n", lead, tail)
	capacityTable(c).markdown(&b)
	if c.Note != "" && c.Confirmed {
		fmt.Fprintf(&b, "\n%s\n", c.Note)
	}
	return b.String()
}
