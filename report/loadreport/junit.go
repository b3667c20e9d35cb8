package loadreport

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"

	"github.com/merchant-harness/mph/loadtest/summary"
	"github.com/merchant-harness/mph/report"
)

// JUnit writes the thresholds of a load report as a JUnit file.
func JUnit(rep *summary.Report, version string) report.Reporter {
	return func(w io.Writer) error {
		out, err := xml.MarshalIndent(loadJUnit(rep, version), "", "  ")
		if err != nil {
			return err
		}
		_, err = io.WriteString(w, xml.Header+string(out)+"\n")
		return err
	}
}

// loadJUnit builds the thresholds of a load report as JUnit test cases
// (classname load.<scenario>, name the threshold as given).
func loadJUnit(rep *summary.Report, version string) report.JUnitSuites {
	ts := report.JUnitSuite{
		Name: "mph load " + rep.Kind + " " + rep.Scenario, Timestamp: rep.Start.UTC().Format("2006-01-02T15:04:05"),
		Time: rep.End.Sub(rep.Start).Seconds(),
		Properties: []report.JUnitProperty{
			{Name: "target", Value: report.StripUserinfo(rep.Target)},
			{Name: "harness-version", Value: version},
			{Name: "schedule", Value: rep.Schedule},
			{Name: "interrupted", Value: fmt.Sprint(rep.Interrupted)},
		},
	}
	for _, t := range rep.Thresholds {
		c := report.JUnitCase{Name: t.Threshold, Classname: "load." + rep.Scenario}
		line := t.Format()
		if !t.Pass {
			ts.Failures++
			c.Failure = &report.JUnitProblem{Message: line, Type: "threshold-breached", Body: line}
		} else {
			c.SystemOut = line
		}
		if rep.Interrupted {
			c.SystemOut = strings.TrimSpace(c.SystemOut + "\nthe run was interrupted: figures cover what was collected")
		}
		ts.Cases = append(ts.Cases, c)
	}
	ts.Tests = len(ts.Cases)
	return report.JUnitSuites{Name: ts.Name, Tests: ts.Tests, Failures: ts.Failures, Time: ts.Time, Suites: []report.JUnitSuite{ts}}
}
