package report

import (
	"bytes"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/onsi/ginkgo/v2/types"
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
	var b strings.Builder
	s.WriteConsole(&b)
	for _, want := range []string{"1 failed, 1 no verdict, 2 not applicable, 2 harness errors", "No verdict (", "1 × rate limited", "Not applicable (skipped), by reason:"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("console lacks %q: %s", want, b.String())
		}
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
		{"passed", Summary{Passed: 3}, false, ExitOK},
		{"failed", Summary{Passed: 3, Failed: 1, HarnessErrors: 1}, false, ExitFailed},
		{"harness errors only", Summary{Passed: 3, HarnessErrors: 1}, false, ExitHarness},
		{"suite error only", Summary{SuiteErrors: []string{"BeforeSuite: x"}}, false, ExitHarness},
		{"interrupted", Summary{Failed: 1, Interrupted: true}, false, ExitInterrupted},
		{"fixed waiver", Summary{Passed: 1, FixedWaivers: []string{"a.b"}}, false, ExitOK},
		{"fixed waiver strict", Summary{Passed: 1, FixedWaivers: []string{"a.b"}}, true, ExitFailed},
		{"waived only", Summary{Passed: 1, Waived: 1}, true, ExitOK},
		{"not applicable only", Summary{Passed: 1, Skipped: 4}, false, ExitOK},
		{"no verdict", Summary{Passed: 3, NoVerdict: 1}, false, ExitHarness},
		{"no verdict accepted", Summary{Passed: 3, NoVerdict: 2, NoVerdictAccepted: 2}, false, ExitOK},
		{"no verdict partly accepted", Summary{Passed: 3, NoVerdict: 2, NoVerdictAccepted: 1}, false, ExitHarness},
		{"no verdict and failed", Summary{Failed: 1, NoVerdict: 1}, false, ExitFailed},
		{"no verdict, interrupted", Summary{NoVerdict: 1, Interrupted: true}, false, ExitInterrupted},
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
		{"passed and not applicable", []types.SpecReport{spec("a", types.SpecStatePassed, ""), spec("b", types.SpecStateSkipped, "needs a second TEST merchant")}, nil, ExitOK},
		{"a no verdict", []types.SpecReport{spec("a", types.SpecStatePassed, ""), noVerdict("b")}, nil, ExitHarness},
		{"the no verdict accepted", []types.SpecReport{spec("a", types.SpecStatePassed, ""), noVerdict("b")}, []string{"area.b"}, ExitOK},
		{"another spec accepted", []types.SpecReport{noVerdict("b"), noVerdict("c")}, []string{"area.b"}, ExitHarness},
		{"all accepted", []types.SpecReport{noVerdict("b"), noVerdict("c")}, []string{AcceptAll}, ExitOK},
		{"failed beats no verdict", []types.SpecReport{spec("a", types.SpecStateFailed, "Expected"), noVerdict("b")}, []string{AcceptAll}, ExitFailed},
		{"harness error stays", []types.SpecReport{spec("a", types.SpecStateFailed, HarnessErrorPrefix+"x", HarnessErrorEntry), noVerdict("b")}, []string{AcceptAll}, ExitHarness},
		{"entry alone marks it", []types.SpecReport{spec("b", types.SpecStateSkipped, "rate limited", NoVerdictEntry)}, nil, ExitHarness},
	} {
		s := Build(types.Report{SpecReports: c.specs}, Options{AcceptNoVerdict: c.accept})
		if got := s.ExitCode(false); got != c.want {
			t.Errorf("%s: exit %d, want %d (%+v)", c.name, got, c.want, s)
		}
	}
}

func TestReportsCountTheTwoSkipKindsApart(t *testing.T) {
	s := Build(sample(), Options{})
	j := JUnit(s)
	props := map[string]string{}
	for _, p := range j.Suites[0].Properties {
		props[p.Name] = p.Value
	}
	if props["not-applicable"] != "2" || props["no-verdict"] != "1" || props["no-verdict-accepted"] != "0" {
		t.Errorf("JUnit properties %v", props)
	}
	if j.Errors != 3 || j.Skipped != 2 {
		t.Errorf("JUnit: %d errors (2 harness + 1 no verdict), %d skipped (2 not applicable)", j.Errors, j.Skipped)
	}
	var nv *JUnitCase
	for i, c := range j.Suites[0].Cases {
		if c.Name == "rate limited" {
			nv = &j.Suites[0].Cases[i]
		}
	}
	if nv == nil || nv.Error == nil || nv.Error.Type != "no-verdict" || !strings.HasPrefix(nv.Error.Message, "no verdict: rate limited") {
		t.Errorf("JUnit no-verdict case %+v", nv)
	}
	md := Markdown(s)
	for _, want := range []string{"| no verdict |", "| not applicable |", "### No verdict", "| 1 | rate limited: GET /cards still answered 429 | `area.rate-limited` |"} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
	html, err := RenderHTML(s)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"1 no verdict", "2 not applicable", `class="no-verdict">no verdict`} {
		if !bytes.Contains(html, []byte(want)) {
			t.Errorf("HTML lacks %q", want)
		}
	}
	accepted := Build(sample(), Options{AcceptNoVerdict: []string{"area.rate-limited"}})
	if accepted.NoVerdictAccepted != 1 || !strings.Contains(Markdown(accepted), "| 1 | rate limited: GET /cards still answered 429 (1 accepted) |") {
		t.Errorf("accepted no verdict: %+v", accepted)
	}
	if j := JUnit(accepted); j.Errors != 2 || j.Skipped != 3 {
		t.Errorf("JUnit of an accepted no verdict: %d errors, %d skipped", j.Errors, j.Skipped)
	}
	only := Build(types.Report{SpecReports: []types.SpecReport{spec("rate limited", types.SpecStateSkipped, NoVerdictPrefix+"x")}}, Options{})
	if v := verdict(only); v != "NO VERDICT: 1 checks could not decide" {
		t.Errorf("verdict %q", v)
	}
}

func TestReportsAreWrittenAndSelfContained(t *testing.T) {
	dir := t.TempDir()
	s := Build(sample(), Options{Meta: Meta{Target: "https://user:pw@api.example.com/v1/merchant", RunID: "mph123", Version: "v1.2.3", Profile: "default"}})
	if err := WriteHTML(s, filepath.Join(dir, "r.html")); err != nil {
		t.Fatal(err)
	}
	if err := WriteJSON(sample(), s, filepath.Join(dir, "r.json")); err != nil {
		t.Fatal(err)
	}
	if err := WriteMarkdown(s, filepath.Join(dir, "s.md")); err != nil {
		t.Fatal(err)
	}
	html, _ := os.ReadFile(filepath.Join(dir, "r.html"))
	for _, want := range []string{"api.example.com", "mph123", "v1.2.3", "default", "Failures and harness errors (3)", "No verdict, by reason", "Not applicable, by reason", `id="filter"`, `<details class="area"><summary>area`} {
		if !bytes.Contains(html, []byte(want)) {
			t.Errorf("HTML lacks %q", want)
		}
	}
	if bytes.Contains(html, []byte("user:pw")) || bytes.Contains(html, []byte("<script src")) || bytes.Contains(html, []byte("<link")) {
		t.Errorf("HTML leaks userinfo or loads external resources")
	}
	// Failures come before the passed rows.
	if i, j := bytes.Index(html, []byte(">fails ")), bytes.Index(html, []byte(">passes ")); i < 0 || j < 0 || i > j {
		t.Errorf("failure not listed first (%d, %d)", i, j)
	}
	md, _ := os.ReadFile(filepath.Join(dir, "s.md"))
	if !bytes.Contains(md, []byte("FAILED: 1 failed")) || !bytes.Contains(md, []byte("| fails |")) {
		t.Errorf("markdown:\n%s", md)
	}
	if _, err := os.Stat(filepath.Join(dir, "r.summary.json")); err != nil {
		t.Error(err)
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

// strictJUnit decodes a JUnit document refusing unknown elements.
func strictJUnit(t *testing.T, b []byte) JUnitSuites {
	t.Helper()
	var j JUnitSuites
	dec := xml.NewDecoder(bytes.NewReader(b))
	dec.Strict = true
	if err := dec.Decode(&j); err != nil {
		t.Fatalf("JUnit does not decode: %v", err)
	}
	return j
}

func TestJUnitOfASummary(t *testing.T) {
	long := strings.Repeat("x", 9000)
	exch := "--- HTTP exchange 1 of 1 (redacted) ---\n> POST http://h/v1/merchant/cards/crd_1/withdraw\n> \n> {}\n< 500 Internal Server Error (3ms)\n< \n< " + long + "\nreproduce: curl\n"
	r := sample()
	r.SpecReports[1].Failure.Message = "HTTP status 500, want [200]\nExpected\n    <[]int | len:1, cap:1>: [200]\nto contain element matching\n    <int>: 500\n\n" + exch
	p := filepath.Join(t.TempDir(), "junit.xml")
	s := Build(r, Options{Meta: Meta{Target: "https://u:secretpw@h.example/v1/merchant", RunID: "mphX", Version: "v9"}})
	if err := WriteJUnit(s, p); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(p)
	j := strictJUnit(t, b)
	ts := j.Suites[0]
	if j.Tests != 7 || ts.Tests != 7 || ts.Failures != 1 || ts.Errors != 3 || ts.Skipped != 2 {
		t.Fatalf("counts: %+v", ts)
	}
	props := map[string]string{}
	for _, p := range ts.Properties {
		props[p.Name] = p.Value
	}
	if props["target"] != "https://h.example/v1/merchant" || props["run-id"] != "mphX" || props["harness-version"] != "v9" {
		t.Fatalf("properties %v", props)
	}
	for _, c := range ts.Cases {
		if len(c.Properties) == 0 || c.Properties[0].Name != "spec-id" || !strings.HasPrefix(c.Properties[0].Value, "area.") {
			t.Errorf("case %q properties %v", c.Name, c.Properties)
		}
		if c.Classname != "conformance.area" || strings.Contains(c.Name, "[") {
			t.Errorf("case %q classname %q", c.Name, c.Classname)
		}
		if c.Failure != nil {
			m := c.Failure.Message
			if len([]rune(m)) > MaxHeadline || strings.Contains(m, "\n") || !strings.Contains(m, "want [200]") || !strings.Contains(m, "POST /v1/merchant/cards/crd_1/withdraw → 500") {
				t.Errorf("failure message %q", m)
			}
			if !strings.Contains(c.Failure.Body, "cut: 4096 of 9002 bytes shown") || strings.Contains(c.Failure.Body, long) {
				t.Errorf("body not cut:\n%.400s", c.Failure.Body)
			}
		}
	}
	if bytes.Contains(b, []byte("/home/someone")) || bytes.Contains(b, []byte("secretpw")) {
		t.Fatal("JUnit carries a local path or URL password")
	}
}

func TestHeadline(t *testing.T) {
	cases := []struct{ msg, want string }{
		{"Expected\n    <int>: 404\nto equal\n    <int>: 200", "Expected 404 to equal 200"},
		{HarnessErrorPrefix + "fixture: issuing a card answered HTTP 500", "fixture: issuing a card answered HTTP 500"},
		{"balance after the withdrawal\nExpected\n    <money.Amount>: 1.00 USD\nto equal\n    <money.Amount>: 0.50 USD", "balance after the withdrawal: Expected 1.00 USD to equal 0.50 USD"},
	}
	for _, c := range cases {
		if got := Headline(c.msg, ""); got != c.want {
			t.Errorf("Headline(%q) = %q, want %q", c.msg, got, c.want)
		}
	}
	if got := Headline(strings.Repeat("very long ", 100), ""); len([]rune(got)) > MaxHeadline || len([]rune(got)) < MaxHeadline-2 {
		t.Errorf("long headline has %d runes", len([]rune(got)))
	}
}
