// Package report turns a Ginkgo suite report of the conformance run into the
// harness's own summaries: a console summary, a JUnit file and a JSON file in
// which harness errors are kept apart from failures, and a self-contained
// HTML page. Three outcomes are never mixed: failed (the target broke a rule),
// skipped (a precondition is missing, with the reason) and harness error (the
// harness could not run the check).
package report

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/onsi/ginkgo/v2/reporters"
	"github.com/onsi/ginkgo/v2/types"

	"github.com/merchant-harness/mph/redact"
)

// Outcome of one spec.
type Outcome string

// Outcomes.
const (
	Passed       Outcome = "passed"
	Failed       Outcome = "failed"
	Skipped      Outcome = "skipped"
	HarnessError Outcome = "harness-error"
	Pending      Outcome = "pending"
)

// HarnessErrorPrefix starts the failure message of a harness error, and
// HarnessErrorEntry names the report entry the suites attach to one.
const (
	HarnessErrorPrefix = "[harness-error] "
	HarnessErrorEntry  = "harness-error"
)

// Classify returns the outcome of a spec report.
func Classify(s types.SpecReport) Outcome {
	switch s.State {
	case types.SpecStatePassed:
		return Passed
	case types.SpecStateSkipped:
		return Skipped
	case types.SpecStatePending:
		return Pending
	case types.SpecStateTimedout:
		// The check did not finish in time (a slow target or the run's
		// deadline): it could not run, so nothing was shown to fail.
		return HarnessError
	case types.SpecStateFailed:
		if isHarness(s) {
			return HarnessError
		}
		return Failed
	}
	// Panicked, interrupted, aborted: the harness could not run the check.
	return HarnessError
}

func isHarness(s types.SpecReport) bool {
	if strings.HasPrefix(s.Failure.Message, HarnessErrorPrefix) {
		return true
	}
	for _, e := range s.ReportEntries {
		if e.Name == HarnessErrorEntry {
			return true
		}
	}
	return false
}

// Spec is one spec's line in a summary.
type Spec struct {
	Text     string        `json:"text"`
	Outcome  Outcome       `json:"outcome"`
	Message  string        `json:"message,omitempty"`
	Labels   []string      `json:"labels,omitempty"`
	Location string        `json:"location,omitempty"`
	Duration time.Duration `json:"durationNs"`
	Details  string        `json:"details,omitempty"` // redacted HTTP exchanges of a failure
}

// Reason groups skipped specs by their reason.
type Reason struct {
	Reason string   `json:"reason"`
	Specs  []string `json:"specs"`
}

// Summary of a run.
type Summary struct {
	Suite         string        `json:"suite"`
	Start         time.Time     `json:"start"`
	Duration      time.Duration `json:"durationNs"`
	Passed        int           `json:"passed"`
	Failed        int           `json:"failed"`
	Skipped       int           `json:"skipped"`
	HarnessErrors int           `json:"harnessErrors"`
	Pending       int           `json:"pending"`
	NotSelected   int           `json:"notSelected"` // filtered out by label filter or focus
	SkipReasons   []Reason      `json:"skipReasons,omitempty"`
	Specs         []Spec        `json:"specs"`
	// SuiteErrors are failures outside any spec (set-up, pre-flight).
	SuiteErrors []string `json:"suiteErrors,omitempty"`
	// RequirementsChecked are the requirement IDs a passed or failed spec
	// of this run verified (skipped specs check nothing), sorted.
	RequirementsChecked []string `json:"requirementsChecked"`
}

// OK reports whether nothing failed and no harness error occurred.
func (s Summary) OK() bool { return s.Failed == 0 && s.HarnessErrors == 0 && len(s.SuiteErrors) == 0 }

// FullText is the spec's hierarchy and text.
func FullText(s types.SpecReport) string {
	return strings.TrimSpace(strings.Join(append(append([]string{}, s.ContainerHierarchyTexts...), s.LeafNodeText), " "))
}

// Summarize builds the summary of a suite report.
func Summarize(r types.Report) Summary {
	sum := Summary{Suite: r.SuiteDescription, Start: r.StartTime, Duration: r.RunTime}
	reasons := map[string][]string{}
	checked := map[string]bool{}
	for _, s := range r.SpecReports {
		if s.LeafNodeType != types.NodeTypeIt {
			if s.State.Is(types.SpecStateFailureStates) {
				sum.SuiteErrors = append(sum.SuiteErrors, fmt.Sprintf("%s: %s", s.LeafNodeType, redact.Safe(firstLine(s.Failure.Message))))
			}
			continue
		}
		o := Classify(s)
		if o == Skipped && s.Failure.Message == "" {
			sum.NotSelected++ // not selected by --label-filter / --focus
			continue
		}
		sp := Spec{
			Text:     FullText(s),
			Outcome:  o,
			Labels:   s.Labels(),
			Location: s.LeafNodeLocation.String(),
			Duration: s.RunTime,
		}
		switch o {
		case Passed:
			sum.Passed++
		case Failed:
			sum.Failed++
			sp.Message = redact.Safe(s.Failure.Message)
		case HarnessError:
			sum.HarnessErrors++
			msg := s.Failure.Message
			if msg == "" {
				msg = s.Failure.ForwardedPanic
			}
			if s.State == types.SpecStatePanicked {
				msg = "panic: " + s.Failure.ForwardedPanic + "\n" + msg
			}
			sp.Message = redact.Safe(msg)
		case Skipped:
			sum.Skipped++
			sp.Message = redact.Safe(s.Failure.Message)
			reasons[sp.Message] = append(reasons[sp.Message], sp.Text)
		case Pending:
			sum.Pending++
		}
		for _, e := range s.ReportEntries {
			if e.Name == "http-exchanges" {
				sp.Details = redact.Safe(e.StringRepresentation())
			}
		}
		sum.Specs = append(sum.Specs, sp)
		if o == Passed || o == Failed {
			checked = addRequirementIDs(checked, sp.Labels)
		}
	}
	sum.RequirementsChecked = sortedKeys(checked)
	for r, specs := range reasons {
		sum.SkipReasons = append(sum.SkipReasons, Reason{Reason: r, Specs: specs})
	}
	sort.Slice(sum.SkipReasons, func(i, j int) bool {
		if len(sum.SkipReasons[i].Specs) != len(sum.SkipReasons[j].Specs) {
			return len(sum.SkipReasons[i].Specs) > len(sum.SkipReasons[j].Specs)
		}
		return sum.SkipReasons[i].Reason < sum.SkipReasons[j].Reason
	})
	return sum
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// WriteConsole prints the end-of-run summary.
func (s Summary) WriteConsole(w io.Writer, reportPaths ...string) {
	fmt.Fprintf(w, "\n== Conformance summary: %d passed, %d failed, %d skipped, %d harness errors", s.Passed, s.Failed, s.Skipped, s.HarnessErrors)
	if s.Pending > 0 {
		fmt.Fprintf(w, ", %d pending", s.Pending)
	}
	if s.NotSelected > 0 {
		fmt.Fprintf(w, ", %d not selected", s.NotSelected)
	}
	fmt.Fprintf(w, " (%s)\n", s.Duration.Round(time.Millisecond))
	for _, e := range s.SuiteErrors {
		fmt.Fprintf(w, "  suite error: %s\n", e)
	}
	if s.Failed > 0 {
		fmt.Fprintln(w, "Failed (the target broke a rule):")
		for _, sp := range s.Specs {
			if sp.Outcome == Failed {
				fmt.Fprintf(w, "  ✗ %s\n      %s\n", sp.Text, firstLine(sp.Message))
			}
		}
	}
	if s.HarnessErrors > 0 {
		fmt.Fprintln(w, "Harness errors (the check could not run):")
		for _, sp := range s.Specs {
			if sp.Outcome == HarnessError {
				fmt.Fprintf(w, "  ! %s\n      %s\n", sp.Text, strings.TrimPrefix(firstLine(sp.Message), HarnessErrorPrefix))
			}
		}
	}
	if len(s.SkipReasons) > 0 {
		fmt.Fprintln(w, "Skipped, by reason:")
		for _, r := range s.SkipReasons {
			fmt.Fprintf(w, "  %3d × %s\n", len(r.Specs), r.Reason)
		}
	}
	for _, p := range reportPaths {
		if p != "" {
			fmt.Fprintf(w, "Report: %s\n", p)
		}
	}
}

func ensureDir(path string) error {
	if d := filepath.Dir(path); d != "" {
		return os.MkdirAll(d, 0o755)
	}
	return nil
}

// WriteJSON writes Ginkgo's JSON report format (an array with one
// types.Report, so Ginkgo tooling reads it; harness errors are recognisable
// there by the "harness-error" report entry and the "[harness-error] "
// failure prefix) and, next to it, the harness summary with the three
// outcomes counted apart (<name>.summary.json).
func WriteJSON(r types.Report, path string) error {
	r = safeReport(r)
	if err := ensureDir(path); err != nil {
		return err
	}
	if err := writeRedactedJSON(path, []types.Report{r}); err != nil {
		return err
	}
	return writeRedactedJSON(SummaryPath(path), Summarize(r))
}

// SummaryPath is where WriteJSON puts the summary for a report path.
func SummaryPath(jsonPath string) string {
	return strings.TrimSuffix(jsonPath, filepath.Ext(jsonPath)) + ".summary.json"
}

func writeRedactedJSON(path string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	// Everything in the report was redacted at the source; mask every string
	// again as a second line of defence (numbers such as durations are kept).
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		return err
	}
	b, err = json.Marshal(redactStrings(doc))
	if err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o644)
}

// readableKeys hold code-authored spec texts and labels: kept as written.
var readableKeys = map[string]bool{
	"LeafNodeText": true, "ContainerHierarchyTexts": true, "LeafNodeLabels": true,
	"ContainerHierarchyLabels": true, "SuiteDescription": true, "SuiteLabels": true,
	"text": true, "labels": true,
}

func redactStrings(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			if readableKeys[k] {
				continue
			}
			t[k] = redactStrings(x)
		}
	case []any:
		for i, x := range t {
			t[i] = redactStrings(x)
		}
	case string:
		return redact.Safe(t)
	}
	return v
}

// WriteJUnit writes a JUnit report in which harness errors are <error
// type="harness-error"> and assertion failures <failure>.
func WriteJUnit(r types.Report, path string) error {
	r = safeReport(r)
	if err := ensureDir(path); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(path), ".junit-*.xml")
	if err != nil {
		return err
	}
	tmp := f.Name()
	f.Close()
	if err := reporters.GenerateJUnitReportWithConfig(r, tmp, reporters.JunitReportConfig{OmitTimelinesForSpecState: types.SpecStatePassed | types.SpecStateSkipped}); err != nil {
		return err
	}
	defer os.Remove(tmp)
	b, err := os.ReadFile(tmp)
	if err != nil {
		return err
	}
	var suites reporters.JUnitTestSuites
	if err := xml.Unmarshal(b, &suites); err != nil {
		return err
	}
	harness := map[string]bool{}
	for _, s := range r.SpecReports {
		if s.LeafNodeType == types.NodeTypeIt && Classify(s) == HarnessError {
			harness[s.Failure.Message] = true
		}
	}
	for i := range suites.TestSuites {
		ts := &suites.TestSuites[i]
		for j := range ts.TestCases {
			tc := &ts.TestCases[j]
			if tc.Failure != nil && (strings.HasPrefix(tc.Failure.Message, HarnessErrorPrefix) || harness[tc.Failure.Message] && tc.Failure.Message != "") {
				tc.Error = &reporters.JUnitError{Message: tc.Failure.Message, Type: string(HarnessError), Description: tc.Failure.Description}
				tc.Failure = nil
				ts.Failures--
				ts.Errors++
				suites.Failures--
				suites.Errors++
			}
		}
	}
	// Second line of defence: mask every free-text field again (spec names
	// are code-authored and kept readable).
	t := redact.Safe
	for i := range suites.TestSuites {
		ts := &suites.TestSuites[i]
		for k := range ts.Properties.Properties {
			ts.Properties.Properties[k].Value = t(ts.Properties.Properties[k].Value)
		}
		for j := range ts.TestCases {
			tc := &ts.TestCases[j]
			tc.SystemOut, tc.SystemErr = t(tc.SystemOut), t(tc.SystemErr)
			if tc.Failure != nil {
				tc.Failure.Message, tc.Failure.Description = t(tc.Failure.Message), t(tc.Failure.Description)
			}
			if tc.Error != nil {
				tc.Error.Message, tc.Error.Description = t(tc.Error.Message), t(tc.Error.Description)
			}
			if tc.Skipped != nil {
				tc.Skipped.Message = t(tc.Skipped.Message)
			}
			if tc.Properties != nil {
				for k := range tc.Properties.Properties {
					tc.Properties.Properties[k].Value = t(tc.Properties.Properties[k].Value)
				}
			}
		}
	}
	out, err := xml.MarshalIndent(suites, "", "  ")
	if err != nil {
		return err
	}
	data := append([]byte(xml.Header), out...)
	return os.WriteFile(path, data, 0o644)
}
