// Package result is the result model of a conformance run, data only (as
// package loadtest/summary is the load commands'; package report renders
// both): Build turns a Ginkgo suite report into a Summary of spec lines,
// each with its outcome, and the run's exit code (package exitcode). The
// outcomes, the verdict kinds, are never mixed: failed (the target broke a
// rule), skipped as not applicable (a capability, credential, consent or
// declared profile choice the check needs is absent, with the reason), no
// verdict (the check ran but could not decide: rate limited beyond the
// wait, a wait beyond its bound, another documented refusal came first, an
// undetermined profile key, the run's deadline), harness error (the
// harness could not run the check), waived (a failure covered by a waiver)
// and interrupted (the run stopped before the spec finished).
package result

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/merchant-harness/mph/exitcode"
	"github.com/merchant-harness/mph/redact"
)

// Outcome of one spec.
type Outcome string

// Outcomes.
const (
	Passed Outcome = "passed"
	Failed Outcome = "failed"
	// Skipped is "not applicable": the check does not apply to this target
	// or run (a capability or credential it lacks, a LIVE spec without
	// consent, a choice the profile declares).
	Skipped Outcome = "skipped"
	// NoVerdict: the check could not decide (rate limited beyond the wait,
	// a wait beyond its bound, another documented refusal came first, an
	// undetermined profile key, the run's deadline). Never a pass: the run
	// exits 3 unless the spec's no verdict is accepted by name.
	NoVerdict    Outcome = "no-verdict"
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

// NoVerdictPrefix starts the skip message of a spec that reached no verdict,
// and NoVerdictEntry names the report entry the suites attach to one.
const (
	NoVerdictPrefix = "[no-verdict] "
	NoVerdictEntry  = "no-verdict"
)

// AcceptAll in an accepted no-verdict list accepts every no verdict.
const AcceptAll = "all"

// UnverifiedEntry names the report entry of a spec whose webhook delivery
// carried no signature the harness could check; it becomes the spec's note.
const UnverifiedEntry = "webhook-authenticity"

// IDLabelPrefix marks the label carrying a spec's stable short ID
// ("id:withdraw.accepts-minimum-withdrawal"); the area is the ID's part before the dot.
const IDLabelPrefix = "id:"

// InterruptedReason is the suite failure reason of an interrupted run.
const InterruptedReason = "Interrupted by User"

// Classify returns the outcome of a spec report.
func Classify(s types.SpecReport) Outcome {
	switch s.State {
	case types.SpecStatePassed:
		return Passed
	case types.SpecStateSkipped:
		if isNoVerdict(s) {
			return NoVerdict
		}
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

func isNoVerdict(s types.SpecReport) bool {
	if strings.HasPrefix(s.Failure.Message, NoVerdictPrefix) {
		return true
	}
	for _, e := range s.ReportEntries {
		if e.Name == NoVerdictEntry {
			return true
		}
	}
	return false
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

// AreaOf is the area part of a spec ID ("withdraw" of "withdraw.accepts-minimum-withdrawal").
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
	ID       string  `json:"id"`
	Area     string  `json:"area"`
	Text     string  `json:"text"`
	Outcome  Outcome `json:"outcome"`
	Headline string  `json:"headline,omitempty"` // one line: expected, got, at which request
	// Reproduce is the shell line sending the failure's last request again
	// (the variables of docs/configuration.md in place of the target and its secrets).
	Reproduce string        `json:"reproduce,omitempty"`
	Message   string        `json:"message,omitempty"`
	Labels    []string      `json:"labels,omitempty"`
	Location  string        `json:"location,omitempty"` // suites/<file>.go:<line>
	Duration  time.Duration `json:"durationNs"`
	Details   string        `json:"details,omitempty"` // redacted HTTP exchanges of a failure
	Waiver    *Waiver       `json:"waiver,omitempty"`  // the waiver that applied
	Note      string        `json:"note,omitempty"`    // e.g. "fixed: remove the waiver"
	// Accepted: a no verdict the run accepts by name (--accept-no-verdict).
	Accepted bool `json:"accepted,omitempty"`
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
	Start       time.Time     `json:"start"`
	Duration    time.Duration `json:"durationNs"`
	Interrupted bool          `json:"interrupted"`
	Selected    int           `json:"selected"`
	Passed      int           `json:"passed"`
	Failed      int           `json:"failed"`
	// Skipped counts the specs not applicable to the target or run.
	Skipped int `json:"skipped"`
	// NoVerdict counts the specs that reached no verdict, NoVerdictAccepted
	// those of them the run accepts by name (not counted towards exit 3).
	NoVerdict         int      `json:"noVerdict"`
	NoVerdictAccepted int      `json:"noVerdictAccepted"`
	HarnessErrors     int      `json:"harnessErrors"`
	Waived            int      `json:"waived"`
	NotRun            int      `json:"interruptedSpecs"` // selected specs the interrupt stopped or never started
	Pending           int      `json:"pending"`
	NotSelected       int      `json:"notSelected"` // filtered out by label filter or focus
	SkipReasons       []Reason `json:"skipReasons,omitempty"`
	// NoVerdictReasons group the no-verdict specs by their reason.
	NoVerdictReasons []Reason `json:"noVerdictReasons,omitempty"`
	Specs            []Spec   `json:"specs"`
	// FixedWaivers are specs that pass although a waiver covers them.
	FixedWaivers []string `json:"fixedWaivers,omitempty"`
	// SuiteErrors are failures outside any spec (set-up, pre-flight).
	SuiteErrors []string  `json:"suiteErrors,omitempty"`
	Baseline    *Baseline `json:"baseline,omitempty"`
	// RequirementsChecked are the requirement IDs a passed or failed spec
	// of this run verified (skipped specs check nothing), sorted.
	RequirementsChecked []string `json:"requirementsChecked"`
	// Cells are the rule × endpoint cells the selected specs check, with
	// their outcome (cells.go).
	Cells []CellOutcome `json:"cells,omitempty"`
	// Money is the test money spent and swept back (money.go).
	Money *Money `json:"money,omitempty"`
}

// OK reports whether nothing failed, no harness error occurred and every
// no verdict was accepted.
func (s Summary) OK() bool {
	return s.Failed == 0 && s.HarnessErrors == 0 && s.Undecided() == 0 && len(s.SuiteErrors) == 0 && !s.Interrupted
}

// Undecided is the number of no-verdict specs the run does not accept.
func (s Summary) Undecided() int { return s.NoVerdict - s.NoVerdictAccepted }

// ExitCode is the run's verdict: interrupted, else failed (a fixed waiver
// counts when strictWaivers), else harness errors or no verdicts not
// accepted, else passed. A no verdict is never a pass.
func (s Summary) ExitCode(strictWaivers bool) int {
	switch {
	case s.Interrupted:
		return exitcode.Interrupted
	case s.Failed > 0, strictWaivers && len(s.FixedWaivers) > 0:
		return exitcode.Failed
	case s.HarnessErrors > 0 || len(s.SuiteErrors) > 0 || s.Undecided() > 0:
		return exitcode.Harness
	}
	return exitcode.OK
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
	// AcceptNoVerdict names the specs (by ID, or AcceptAll) whose no
	// verdict the run accepts: reported, not counted towards exit 3.
	AcceptNoVerdict []string
}

// Summarize builds the summary of a suite report without meta data.
func Summarize(r types.Report) Summary { return Build(r, Options{}) }

// Build builds the summary of a suite report.
func Build(r types.Report, opts Options) Summary {
	sum := Summary{Suite: r.SuiteDescription, Meta: opts.Meta, Start: r.StartTime, Duration: r.RunTime}
	for _, reason := range r.SpecialSuiteFailureReasons {
		if strings.Contains(reason, InterruptedReason) {
			sum.Interrupted = true
		}
	}
	reasons, undecided := map[string][]string{}, map[string][]string{}
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
		switch o {
		case Skipped:
			reasons[sp.Message] = append(reasons[sp.Message], sp.Text)
		case NoVerdict:
			sp.Accepted = accepts(opts.AcceptNoVerdict, sp.ID)
			undecided[sp.Message] = append(undecided[sp.Message], sp.Text)
		}
		sum.Specs = append(sum.Specs, sp)
		if o == Passed || o == Failed {
			checked = addRequirementIDs(checked, sp.Labels)
		}
	}
	applyWaivers(&sum, opts.Waivers, opts.Now)
	sum.count()
	sum.RequirementsChecked = sortedKeys(checked)
	sum.Cells = cellsOf(sum.Specs)
	sum.SkipReasons = byReason(reasons)
	sum.NoVerdictReasons = byReason(undecided)
	sum.Money = moneyOf(r)
	if opts.Baseline != nil {
		sum.Baseline = Compare(*opts.Baseline, sum)
	}
	return sum
}

// accepts reports whether the accepted list names the spec (or all).
func accepts(list []string, id string) bool {
	for _, a := range list {
		if a == AcceptAll || a == id {
			return true
		}
	}
	return false
}

// byReason lists the reasons, the most frequent first.
func byReason(reasons map[string][]string) []Reason {
	var out []Reason
	for r, specs := range reasons {
		out = append(out, Reason{Reason: r, Specs: specs})
	}
	sort.Slice(out, func(i, j int) bool {
		if len(out[i].Specs) != len(out[j].Specs) {
			return len(out[i].Specs) > len(out[j].Specs)
		}
		return out[i].Reason < out[j].Reason
	})
	return out
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
		sp.Message = redact.Safe(strings.TrimPrefix(msg, NoVerdictPrefix))
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
		sp.Reproduce = Reproduce(sp.Message, sp.Details)
	}
	return sp
}

// count sets the outcome counters from the spec lines.
func (s *Summary) count() {
	s.Passed, s.Failed, s.Skipped, s.HarnessErrors, s.Waived, s.NotRun, s.Pending = 0, 0, 0, 0, 0, 0, 0
	s.NoVerdict, s.NoVerdictAccepted = 0, 0
	for _, sp := range s.Specs {
		switch sp.Outcome {
		case NoVerdict:
			s.NoVerdict++
			if sp.Accepted {
				s.NoVerdictAccepted++
			}
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

// Ordered returns the specs with failures first, then harness errors, no
// verdicts, interrupted, waived, skipped, pending and passed; by area and
// text within.
func (s Summary) Ordered() []Spec {
	rank := map[Outcome]int{Failed: 0, HarnessError: 1, NoVerdict: 2, Interrupted: 3, Waived: 4, Skipped: 5, Pending: 6, Passed: 7}
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
