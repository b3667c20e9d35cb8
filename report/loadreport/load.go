package loadreport

import (
	"github.com/merchant-harness/mph/loadtest/summary"
	"github.com/merchant-harness/mph/report"
)

// JSON writes a load report as summary.json.
func JSON(r *summary.Report) report.Reporter { return report.JSON(r) }

// CompareJSON writes a comparison as compare.json.
func CompareJSON(c *summary.Comparison) report.Reporter { return report.JSON(c) }

// Write redacts the load report (in place) and writes summary.json,
// summary.md and report.html into dir.
func Write(dir string, r *summary.Report) error {
	if err := Redact(r); err != nil {
		return err
	}
	return report.WriteAll(dir, map[string]report.Reporter{
		"summary.json": JSON(r),
		"summary.md":   Markdown(r),
		"report.html":  HTML(r),
	})
}
