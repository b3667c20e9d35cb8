package loadreport

import (
	"fmt"
	"io"

	"github.com/merchant-harness/mph/loadtest/summary"
	"github.com/merchant-harness/mph/report"
)

// Console writes the brief a load command prints: one line per endpoint,
// the generator-bound warnings (the latency describes the load generator
// more than the server) and the thresholds.
func Console(rep *summary.Report) report.Reporter {
	return func(w io.Writer) error {
		fmt.Fprintf(w, "%-8s %9s %10s %10s %9s %8s %7s %9s %9s %9s %9s\n", "endpoint", "requests", "offered/s", "achieved/s", "success", "invalid", "429", "p50", "p99", "max", "lag p99")
		for _, s := range rep.Endpoints {
			fmt.Fprintf(w, "%-8s %9d %10.1f %10.1f %8.2f%% %8d %6.2f%% %8.2fms %8.2fms %8.2fms %8.2fms\n", s.Endpoint, s.Requests, s.OfferedRate, s.AchievedRate,
				s.SuccessRatio*100, s.Invalid, s.Rate429*100, s.Latency.P50, s.Latency.P99, s.Latency.Max, s.SendLag.P99)
		}
		for _, lw := range summary.LagWarnings(rep.Endpoints) {
			fmt.Fprintf(w, "WARNING generator-bound: %s\n", lw)
		}
		for _, t := range rep.Thresholds {
			if _, err := fmt.Fprintln(w, t.Format()); err != nil {
				return err
			}
		}
		return nil
	}
}
