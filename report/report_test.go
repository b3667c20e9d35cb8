package report

import (
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/onsi/ginkgo/v2/reporters"
	"github.com/onsi/ginkgo/v2/types"
)

func spec(text string, state types.SpecState, msg string, entries ...string) types.SpecReport {
	s := types.SpecReport{LeafNodeType: types.NodeTypeIt, LeafNodeText: text, State: state, Failure: types.Failure{Message: msg}}
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
	}}
}

func TestSummaryKeepsOutcomesApart(t *testing.T) {
	s := Summarize(sample())
	if s.Passed != 1 || s.Failed != 1 || s.HarnessErrors != 2 || s.Skipped != 2 || s.NotSelected != 1 {
		t.Fatalf("counts %+v", s)
	}
	if len(s.SkipReasons) != 1 || len(s.SkipReasons[0].Specs) != 2 {
		t.Fatalf("skip reasons %+v", s.SkipReasons)
	}
	var b strings.Builder
	s.WriteConsole(&b)
	if !strings.Contains(b.String(), "1 failed, 2 skipped, 2 harness errors") {
		t.Fatalf("console: %s", b.String())
	}
}

func TestJUnitMarksHarnessErrorsAsErrors(t *testing.T) {
	p := filepath.Join(t.TempDir(), "junit.xml")
	if err := WriteJUnit(sample(), p); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(p)
	var suites reporters.JUnitTestSuites
	if err := xml.Unmarshal(b, &suites); err != nil {
		t.Fatal(err)
	}
	if suites.Failures != 1 || suites.Errors != 2 {
		t.Fatalf("failures %d errors %d:\n%s", suites.Failures, suites.Errors, b)
	}
	if !strings.Contains(string(b), `type="harness-error"`) {
		t.Fatalf("no harness-error type:\n%s", b)
	}
	if err := WriteHTML(sample(), filepath.Join(t.TempDir(), "r.html")); err != nil {
		t.Fatal(err)
	}
	if err := WriteJSON(sample(), filepath.Join(t.TempDir(), "r.json")); err != nil {
		t.Fatal(err)
	}
}

func TestRoundDuration(t *testing.T) {
	for in, want := range map[time.Duration]string{
		11203036 * time.Nanosecond:   "11.2ms",
		3513486677 * time.Nanosecond: "3.51s",
		854782 * time.Nanosecond:     "855µs",
		2347921 * time.Nanosecond:    "2.35ms",
	} {
		if got := roundDuration(in).String(); got != want {
			t.Errorf("roundDuration(%v) = %s, want %s", in, got, want)
		}
	}
}
