// Package report renders every output of every command. For the
// conformance run it turns a Ginkgo suite report into the harness's own
// summaries: a console summary, JUnit, JSON, HTML and Markdown files. For
// the load commands (load.go and load_*.go) it renders the results of
// package loadtest/summary as Reporters: summary.json, summary.md,
// report.html, JUnit and the comparison pages. The outcomes are never mixed: failed (the target broke a rule),
// skipped (a precondition is missing, with the reason), harness error (the
// harness could not run the check), waived (a failure covered by a waiver)
// and interrupted (the run stopped before the spec finished).
package report

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"time"

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
	Interrupted  Outcome = "interrupted"
	Waived       Outcome = "waived"
)

// HarnessErrorPrefix starts the failure message of a harness error, and
// HarnessErrorEntry names the report entry the suites attach to one.
const (
	HarnessErrorPrefix = "[harness-error] "
	HarnessErrorEntry  = "harness-error"
)

// UnverifiedEntry names the report entry of a spec whose webhook delivery
// carried no signature the harness could check; it becomes the spec's note.
const UnverifiedEntry = "webhook-authenticity"

// IDLabelPrefix marks the label carrying a spec's stable short ID
// ("id:withdraw.3f9a2c"); the area is the ID's part before the dot.
const IDLabelPrefix = "id:"

// InterruptedReason is the suite failure reason of an interrupted run.
const InterruptedReason = "Interrupted by User"

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
	// Panicked, aborted, interrupted (by a timeout; Build tells a run the
	// user interrupted apart): the harness could not run the check.
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

// SpecID is the spec's stable short ID (from its id: label), or "".
func SpecID(s types.SpecReport) string {
	for _, l := range s.Labels() {
		if strings.HasPrefix(l, IDLabelPrefix) {
			return strings.TrimPrefix(l, IDLabelPrefix)
		}
	}
	return ""
}

// AreaOf is the area part of a spec ID ("withdraw" of "withdraw.3f9a2c").
func AreaOf(id string) string {
	area, _, _ := strings.Cut(id, ".")
	return area
}

// Labels are the spec's labels without its ID label.
func Labels(s types.SpecReport) []string {
	var out []string
	for _, l := range s.Labels() {
		if !strings.HasPrefix(l, IDLabelPrefix) {
			out = append(out, l)
		}
	}
	return out
}

// Spec is one spec's line in a summary.
type Spec struct {
	ID       string        `json:"id"`
	Area     string        `json:"area"`
	Text     string        `json:"text"`
	Outcome  Outcome       `json:"outcome"`
	Headline string        `json:"headline,omitempty"` // one line: expected, got, at which request
	Message  string        `json:"message,omitempty"`
	Labels   []string      `json:"labels,omitempty"`
	Location string        `json:"location,omitempty"` // suites/<file>.go:<line>
	Duration time.Duration `json:"durationNs"`
	Details  string        `json:"details,omitempty"` // redacted HTTP exchanges of a failure
	Waiver   *Waiver       `json:"waiver,omitempty"`  // the waiver that applied
	Note     string        `json:"note,omitempty"`    // e.g. "fixed: remove the waiver"
}

// Reason groups skipped specs by their reason.
type Reason struct {
	Reason string   `json:"reason"`
	Specs  []string `json:"specs"`
}

// Meta describes the run for every report.
type Meta struct {
	Target        string `json:"target,omitempty"` // base URL, userinfo stripped
	Embedded      bool   `json:"embedded,omitempty"`
	RunID         string `json:"runId,omitempty"`
	Version       string `json:"harnessVersion,omitempty"`
	Profile       string `json:"profile,omitempty"`
	ProfileDigest string `json:"profileDigest,omitempty"`
	Filter        string `json:"filter,omitempty"` // the selection flags, as given
}

// Summary of a run.
type Summary struct {
	Suite string `json:"suite"`
	Meta
	Start         time.Time     `json:"start"`
	Duration      time.Duration `json:"durationNs"`
	Interrupted   bool          `json:"interrupted"`
	Selected      int           `json:"selected"`
	Passed        int           `json:"passed"`
	Failed        int           `json:"failed"`
	Skipped       int           `json:"skipped"`
	HarnessErrors int           `json:"harnessErrors"`
	Waived        int           `json:"waived"`
	NotRun        int           `json:"interruptedSpecs"` // selected specs the interrupt stopped or never started
	Pending       int           `json:"pending"`
	NotSelected   int           `json:"notSelected"` // filtered out by label filter or focus
	SkipReasons   []Reason      `json:"skipReasons,omitempty"`
	Specs         []Spec        `json:"specs"`
	// FixedWaivers are specs that pass although a waiver covers them.
	FixedWaivers []string `json:"fixedWaivers,omitempty"`
	// SuiteErrors are failures outside any spec (set-up, pre-flight).
	SuiteErrors []string  `json:"suiteErrors,omitempty"`
	Baseline    *Baseline `json:"baseline,omitempty"`
	// RequirementsChecked are the requirement IDs a passed or failed spec
	// of this run verified (skipped specs check nothing), sorted.
	RequirementsChecked []string `json:"requirementsChecked"`
	// Money is the test money spent and swept back (money.go).
	Money *Money `json:"money,omitempty"`
}

// OK reports whether nothing failed and no harness error occurred.
func (s Summary) OK() bool {
	return s.Failed == 0 && s.HarnessErrors == 0 && len(s.SuiteErrors) == 0 && !s.Interrupted
}

// Exit codes of a conformance run (see the CLI's exit-code contract).
const (
	ExitOK          = 0
	ExitFailed      = 1
	ExitHarness     = 3
	ExitInterrupted = 130
)

// ExitCode is the run's verdict: interrupted, else failed (a fixed waiver
// counts when strictWaivers), else harness errors only, else passed.
func (s Summary) ExitCode(strictWaivers bool) int {
	switch {
	case s.Interrupted:
		return ExitInterrupted
	case s.Failed > 0, strictWaivers && len(s.FixedWaivers) > 0:
		return ExitFailed
	case s.HarnessErrors > 0 || len(s.SuiteErrors) > 0:
		return ExitHarness
	}
	return ExitOK
}

// FullText is the spec's hierarchy and text.
func FullText(s types.SpecReport) string {
	return strings.TrimSpace(strings.Join(append(append([]string{}, s.ContainerHierarchyTexts...), s.LeafNodeText), " "))
}

// Options complete a summary beyond the Ginkgo report.
type Options struct {
	Meta     Meta
	Waivers  *Waivers // nil: none
	Now      time.Time
	Baseline *Summary // the summary of an earlier run to compare with
}

// Summarize builds the summary of a suite report without meta data.
func Summarize(r types.Report) Summary { return Build(r, Options{}) }

// Build builds the summary of a suite report.
func Build(r types.Report, o Options) Summary {
	sum := Summary{Suite: r.SuiteDescription, Meta: o.Meta, Start: r.StartTime, Duration: r.RunTime}
	for _, reason := range r.SpecialSuiteFailureReasons {
		if strings.Contains(reason, InterruptedReason) {
			sum.Interrupted = true
		}
	}
	reasons := map[string][]string{}
	checked := map[string]bool{}
	for _, s := range r.SpecReports {
		if s.LeafNodeType != types.NodeTypeIt {
			if s.State.Is(types.SpecStateFailureStates) && s.State != types.SpecStateInterrupted {
				sum.SuiteErrors = append(sum.SuiteErrors, fmt.Sprintf("%s: %s", s.LeafNodeType, redact.Safe(firstLine(s.Failure.Message))))
			}
			continue
		}
		o := Classify(s)
		if s.State == types.SpecStateInterrupted && sum.Interrupted {
			o = Interrupted // the user stopped the run: not a verdict
		}
		if o == Skipped && s.Failure.Message == "" {
			sum.NotSelected++ // not selected by --label-filter / --focus
			continue
		}
		sum.Selected++
		sp := specOf(s, o)
		if o == Skipped {
			reasons[sp.Message] = append(reasons[sp.Message], sp.Text)
		}
		sum.Specs = append(sum.Specs, sp)
		if o == Passed || o == Failed {
			checked = addRequirementIDs(checked, sp.Labels)
		}
	}
	applyWaivers(&sum, o.Waivers, o.Now)
	sum.count()
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
	sum.Money = moneyOf(r)
	if o.Baseline != nil {
		sum.Baseline = Compare(*o.Baseline, sum)
	}
	return sum
}

// specOf is the summary line of one selected spec.
func specOf(s types.SpecReport, o Outcome) Spec {
	id := SpecID(s)
	sp := Spec{
		ID: id, Area: AreaOf(id), Text: FullText(s), Outcome: o,
		Labels: Labels(s), Location: shortLocation(s.LeafNodeLocation), Duration: s.RunTime,
	}
	msg := s.Failure.Message
	switch o {
	case HarnessError:
		if msg == "" {
			msg = s.Failure.ForwardedPanic
		}
		if s.State == types.SpecStatePanicked {
			msg = "panic: " + s.Failure.ForwardedPanic + "\n" + msg
		}
	case Interrupted:
		if msg == "" || strings.Contains(msg, InterruptedReason) {
			msg = "interrupted before the spec finished"
		}
	}
	if o != Passed && o != Pending {
		sp.Message = redact.Safe(msg)
	}
	for _, e := range s.ReportEntries {
		switch e.Name {
		case "http-exchanges":
			sp.Details = redact.Safe(e.StringRepresentation())
		case UnverifiedEntry:
			sp.Note = redact.Safe(e.StringRepresentation())
		}
	}
	if o == Failed || o == HarnessError {
		sp.Headline = Headline(sp.Message, sp.Details)
	}
	return sp
}

// count sets the outcome counters from the spec lines.
func (s *Summary) count() {
	s.Passed, s.Failed, s.Skipped, s.HarnessErrors, s.Waived, s.NotRun, s.Pending = 0, 0, 0, 0, 0, 0, 0
	for _, sp := range s.Specs {
		switch sp.Outcome {
		case Passed:
			s.Passed++
		case Failed:
			s.Failed++
		case Skipped:
			s.Skipped++
		case HarnessError:
			s.HarnessErrors++
		case Waived:
			s.Waived++
		case Interrupted:
			s.NotRun++
		case Pending:
			s.Pending++
		}
	}
}

// shortLocation names the spec's file below its package directory and the
// line, never the local checkout path.
func shortLocation(cl types.CodeLocation) string {
	if cl.FileName == "" {
		return ""
	}
	dir := filepath.Base(filepath.Dir(cl.FileName))
	return fmt.Sprintf("%s/%s:%d", dir, filepath.Base(cl.FileName), cl.LineNumber)
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// Ordered returns the specs with failures first, then harness errors,
// interrupted, waived, skipped, pending and passed; by area and text within.
func (s Summary) Ordered() []Spec {
	rank := map[Outcome]int{Failed: 0, HarnessError: 1, Interrupted: 2, Waived: 3, Skipped: 4, Pending: 5, Passed: 6}
	out := append([]Spec(nil), s.Specs...)
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if rank[a.Outcome] != rank[b.Outcome] {
			return rank[a.Outcome] < rank[b.Outcome]
		}
		if a.Area != b.Area {
			return a.Area < b.Area
		}
		return a.Text < b.Text
	})
	return out
}
