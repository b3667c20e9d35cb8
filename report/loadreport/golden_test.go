package loadreport

import (
	"flag"
	"testing"

	"github.com/merchant-harness/mph/loadtest/metrics"
	"github.com/merchant-harness/mph/loadtest/summary"
	"github.com/merchant-harness/mph/loadtest/threshold"
	"github.com/merchant-harness/mph/report/internal/golden"
)

var update = flag.Bool("update", false, "rewrite the golden files of the rendered load reports (testdata/golden)")

// goldenLoadRun is a load run with a generator-bound endpoint, a note and
// thresholds, one of them breached.
func goldenLoadRun(t *testing.T) *summary.Report {
	t.Helper()
	r := syntheticReport(t)
	r.Target, r.Embedded = "http://127.0.0.1:8080/v1/merchant", true
	r.Notes = []string{"setup: secure: created 1 customer and 20 cards funded with 1.00 USD each"}
	r.Endpoints = append(r.Endpoints, metrics.Summary{Endpoint: "secure", Requests: 100,
		Latency: metrics.LatencyStats{P50: 0.84, P99: 2}, ServiceLatency: metrics.LatencyStats{P50: 0.21, P99: 1.5}, SendLag: metrics.LatencyStats{P50: 0.6, P99: 0.7}})
	r.Thresholds = []threshold.Result{
		{Threshold: "secure:p99<1ms", Endpoint: "secure", Actual: 2, Limit: 1, Unit: "ms"},
		{Threshold: "all:success>=99%", Endpoint: "all", Actual: 100, Limit: 99, Unit: "%", Pass: true, Default: true},
	}
	r.Breached = true
	return r
}

// TestGoldenReports: the rendered forms of the load reports are the files
// of testdata/golden (go test ./report/loadreport -run TestGoldenReports
// -update rewrites them); a change to a renderer shows in review as a
// change of its output.
func TestGoldenReports(t *testing.T) {
	load := goldenLoadRun(t)
	for name, render := range map[string]func() ([]byte, error){
		"load.summary.md":  func() ([]byte, error) { return Markdown(load).Bytes() },
		"load.report.html": func() ([]byte, error) { return HTML(load).Bytes() },
		"load.console.txt": func() ([]byte, error) { return Console(load).Bytes() },
	} {
		t.Run(name, func(t *testing.T) {
			got, err := render()
			if err != nil {
				t.Fatal(err)
			}
			golden.Check(t, "report/loadreport", name, got, *update)
		})
	}
}
