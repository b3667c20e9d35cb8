package loadreport

import (
	"embed"
	"fmt"
	"html/template"
	"io"
	"strings"

	"github.com/merchant-harness/mph/loadtest/summary"
	"github.com/merchant-harness/mph/report"
)

//go:embed templates/*.tmpl
var loadTemplates embed.FS

var compareTmpl = template.Must(template.New("load_compare.html.tmpl").Funcs(template.FuncMap{
	"delta": summary.MetricDelta.Change,
	"ci": func(m summary.MetricDelta, base bool) string {
		if m.Unit != "ms" {
			return ""
		}
		c := m.CurrentCI
		if base {
			c = m.BaselineCI
		}
		return ms(c[0]) + "–" + ms(c[1])
	},
	"pct": func(v float64) string { return fmt.Sprintf("%.1f%%", v*100) },
	"p":   func(v float64) string { return fmt.Sprintf("%.3g", v) },
}).ParseFS(loadTemplates, "templates/load_compare.html.tmpl"))

// CompareMarkdown renders a comparison for a CI step summary.
func CompareMarkdown(c *summary.Comparison) report.Reporter {
	return report.Text(func() string { return compareMarkdown(c) })
}

// CompareHTML renders a comparison as a self-contained page (no script, no CDN).
func CompareHTML(c *summary.Comparison) report.Reporter {
	return func(w io.Writer) error { return compareTmpl.Execute(w, c) }
}

// Markdown renders the comparison for a CI step summary.
func compareMarkdown(c *summary.Comparison) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# mph load compare\n\n")
	fmt.Fprintf(&b, "**%s**\n\n", c.Verdict())
	for _, r := range []struct {
		label string
		ri    summary.RunInfo
	}{{"baseline", c.Baseline}, {"current", c.Current}} {
		fmt.Fprintf(&b, "- %s: `%s` — %s, %s, started %s, window %.1fs\n", r.label, r.ri.Path, r.ri.Scenario, r.ri.Schedule, r.ri.Start, r.ri.Window)
	}
	if len(c.Limits) > 0 {
		def := ""
		if c.Defaults {
			def = " (the defaults; --max-regression overrides them)"
		}
		fmt.Fprintf(&b, "- limits: `%s`%s\n", strings.Join(c.Limits, ","), def)
	}
	for _, w := range c.Warnings {
		fmt.Fprintf(&b, "- warning: %s\n", w)
	}
	for _, r := range c.Regressions {
		fmt.Fprintf(&b, "- **regression**: %s\n", r)
	}
	for _, e := range c.Endpoints {
		fmt.Fprintf(&b, "\n## %s\n\n%d → %d requests; rank test: P(current slower) = %.3f, z = %.2f, p = %.3g\n\n",
			e.Endpoint, e.BaselineN, e.CurrentN, e.Superiority, e.RankZ, e.RankP)
		b.WriteString("| metric | baseline → current | evidence | significant | limit | verdict |\n| :- | :- | :- | :- | :- | :- |\n")
		for _, m := range e.Metrics {
			verdict := ""
			switch {
			case m.Regression:
				verdict = "**REGRESSION**"
			case m.Significant && m.Worse:
				verdict = "worse (within limit)"
			case m.Significant:
				verdict = "better"
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s |\n", m.Metric, m.Change(), m.Evidence, yesNo(m.Significant), m.Limit, verdict)
		}
	}
	fmt.Fprintf(&b, "\n_Method_: %s\n", c.Method)
	return b.String()
}
