package result

import (
	"strings"
	"testing"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/merchant-harness/mph/exitcode"
)

func spec(text string, state types.SpecState, msg string, entries ...string) types.SpecReport {
	s := types.SpecReport{LeafNodeType: types.NodeTypeIt, LeafNodeText: text, State: state, Failure: types.Failure{Message: msg},
		LeafNodeLabels:   []string{"id:area." + strings.ReplaceAll(text, " ", "-")},
		LeafNodeLocation: types.CodeLocation{FileName: "/home/someone/checkout/suites/x.go", LineNumber: 7}}
	for _, e := range entries {
		s.ReportEntries = append(s.ReportEntries, types.ReportEntry{Name: e})
	}
	return s
}

func sample() types.Report {
	return types.Report{SuiteDescription: "s", SpecReports: types.SpecReports{
		spec("passes", types.SpecStatePassed, ""),
		spec("fails", types.SpecStateFailed, "Expected 200 to equal 404"),
		spec("harness", types.SpecStateFailed, HarnessErrorPrefix+"fixture: issuing a card answered HTTP 500", HarnessErrorEntry),
		spec("panics", types.SpecStatePanicked, "boom"),
		spec("skipped", types.SpecStateSkipped, "needs a second TEST merchant"),
		spec("skipped2", types.SpecStateSkipped, "needs a second TEST merchant"),
		spec("filtered", types.SpecStateSkipped, ""),
		spec("rate limited", types.SpecStateSkipped, NoVerdictPrefix+"rate limited: GET /cards still answered 429", NoVerdictEntry),
		{LeafNodeType: types.NodeTypeBeforeSuite, State: types.SpecStatePassed},
	}}
}

func TestSummaryKeepsOutcomesApart(t *testing.T) {
	s := Summarize(sample())
	if s.Passed != 1 || s.Failed != 1 || s.HarnessErrors != 2 || s.Skipped != 2 || s.NoVerdict != 1 || s.NotSelected != 1 || s.Selected != 7 {
		t.Fatalf("counts %+v", s)
	}
	if len(s.SkipReasons) != 1 || len(s.SkipReasons[0].Specs) != 2 {
		t.Fatalf("skip reasons %+v", s.SkipReasons)
	}
	if len(s.NoVerdictReasons) != 1 || s.NoVerdictReasons[0].Reason != "rate limited: GET /cards still answered 429" {
		t.Fatalf("no-verdict reasons %+v", s.NoVerdictReasons)
	}
	for _, sp := range s.Specs {
		if sp.Location != "suites/x.go:7" || sp.Area != "area" {
			t.Fatalf("location %q area %q", sp.Location, sp.Area)
		}
	}
}

func TestExitCodeOfASummary(t *testing.T) {
	cases := []struct {
		name   string
		s      Summary
		strict bool
		want   int
	}{
		{"passed", Summary{Passed: 3}, false, exitcode.OK},
		{"failed", Summary{Passed: 3, Failed: 1, HarnessErrors: 1}, false, exitcode.Failed},
		{"harness errors only", Summary{Passed: 3, HarnessErrors: 1}, false, exitcode.Harness},
		{"suite error only", Summary{SuiteErrors: []string{"BeforeSuite: x"}}, false, exitcode.Harness},
		{"interrupted", Summary{Failed: 1, Interrupted: true}, false, exitcode.Interrupted},
		{"fixed waiver", Summary{Passed: 1, FixedWaivers: []string{"a.b"}}, false, exitcode.OK},
		{"fixed waiver strict", Summary{Passed: 1, FixedWaivers: []string{"a.b"}}, true, exitcode.Failed},
		{"waived only", Summary{Passed: 1, Waived: 1}, true, exitcode.OK},
		{"not applicable only", Summary{Passed: 1, Skipped: 4}, false, exitcode.OK},
		{"no verdict", Summary{Passed: 3, NoVerdict: 1}, false, exitcode.Harness},
		{"no verdict accepted", Summary{Passed: 3, NoVerdict: 2, NoVerdictAccepted: 2}, false, exitcode.OK},
		{"no verdict partly accepted", Summary{Passed: 3, NoVerdict: 2, NoVerdictAccepted: 1}, false, exitcode.Harness},
		{"no verdict and failed", Summary{Failed: 1, NoVerdict: 1}, false, exitcode.Failed},
		{"no verdict, interrupted", Summary{NoVerdict: 1, Interrupted: true}, false, exitcode.Interrupted},
	}
	for _, c := range cases {
		if got := c.s.ExitCode(c.strict); got != c.want {
			t.Errorf("%s: exit %d, want %d", c.name, got, c.want)
		}
	}
}

// TestNoVerdictAcceptedByName: a run's exit code follows its mix of
// outcomes as Build counts them from the spec reports; a no verdict counts
// towards exit 3 unless --accept-no-verdict names its spec ID (or all).
func TestNoVerdictAcceptedByName(t *testing.T) {
	noVerdict := func(text string) types.SpecReport {
		return spec(text, types.SpecStateSkipped, NoVerdictPrefix+"another documented refusal came first", NoVerdictEntry)
	}
	for _, c := range []struct {
		name   string
		specs  []types.SpecReport
		accept []string
		want   int
	}{
		{"passed and not applicable", []types.SpecReport{spec("a", types.SpecStatePassed, ""), spec("b", types.SpecStateSkipped, "needs a second TEST merchant")}, nil, exitcode.OK},
		{"a no verdict", []types.SpecReport{spec("a", types.SpecStatePassed, ""), noVerdict("b")}, nil, exitcode.Harness},
		{"the no verdict accepted", []types.SpecReport{spec("a", types.SpecStatePassed, ""), noVerdict("b")}, []string{"area.b"}, exitcode.OK},
		{"another spec accepted", []types.SpecReport{noVerdict("b"), noVerdict("c")}, []string{"area.b"}, exitcode.Harness},
		{"all accepted", []types.SpecReport{noVerdict("b"), noVerdict("c")}, []string{AcceptAll}, exitcode.OK},
		{"failed beats no verdict", []types.SpecReport{spec("a", types.SpecStateFailed, "Expected"), noVerdict("b")}, []string{AcceptAll}, exitcode.Failed},
		{"harness error stays", []types.SpecReport{spec("a", types.SpecStateFailed, HarnessErrorPrefix+"x", HarnessErrorEntry), noVerdict("b")}, []string{AcceptAll}, exitcode.Harness},
		{"entry alone marks it", []types.SpecReport{spec("b", types.SpecStateSkipped, "rate limited", NoVerdictEntry)}, nil, exitcode.Harness},
	} {
		s := Build(types.Report{SpecReports: c.specs}, Options{AcceptNoVerdict: c.accept})
		if got := s.ExitCode(false); got != c.want {
			t.Errorf("%s: exit %d, want %d (%+v)", c.name, got, c.want, s)
		}
	}
}
