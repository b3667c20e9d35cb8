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

	"github.com/merchant-harness/mph/result"
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
		spec("harness", types.SpecStateFailed, result.HarnessErrorPrefix+"fixture: issuing a card answered HTTP 500", result.HarnessErrorEntry),
		spec("panics", types.SpecStatePanicked, "boom"),
		spec("skipped", types.SpecStateSkipped, "needs a second TEST merchant"),
		spec("skipped2", types.SpecStateSkipped, "needs a second TEST merchant"),
		spec("filtered", types.SpecStateSkipped, ""),
		spec("rate limited", types.SpecStateSkipped, result.NoVerdictPrefix+"rate limited: GET /cards still answered 429", result.NoVerdictEntry),
		{LeafNodeType: types.NodeTypeBeforeSuite, State: types.SpecStatePassed},
	}}
}

// The console summary counts the outcomes apart and groups the skips and
// the no verdicts by reason.
func TestConsoleSummary(t *testing.T) {
	s := result.Summarize(sample())
	var b strings.Builder
	_ = Console(s)(&b)
	for _, want := range []string{"1 failed, 1 no verdict, 2 not applicable, 2 harness errors", "No verdict (", "1 × rate limited", "Not applicable (skipped), by reason:"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("console lacks %q: %s", want, b.String())
		}
	}
}

func TestReportsCountTheTwoSkipKindsApart(t *testing.T) {
	s := result.Build(sample(), result.Options{})
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
	accepted := result.Build(sample(), result.Options{AcceptNoVerdict: []string{"area.rate-limited"}})
	if accepted.NoVerdictAccepted != 1 || !strings.Contains(Markdown(accepted), "| 1 | rate limited: GET /cards still answered 429 (1 accepted) |") {
		t.Errorf("accepted no verdict: %+v", accepted)
	}
	if j := JUnit(accepted); j.Errors != 2 || j.Skipped != 3 {
		t.Errorf("JUnit of an accepted no verdict: %d errors, %d skipped", j.Errors, j.Skipped)
	}
	only := result.Build(types.Report{SpecReports: []types.SpecReport{spec("rate limited", types.SpecStateSkipped, result.NoVerdictPrefix+"x")}}, result.Options{})
	if v := verdict(only); v != "NO VERDICT: 1 checks could not decide" {
		t.Errorf("verdict %q", v)
	}
}

func TestReportsAreWrittenAndSelfContained(t *testing.T) {
	dir := t.TempDir()
	s := result.Build(sample(), result.Options{Meta: result.Meta{Target: "https://user:pw@api.example.com/v1/merchant", RunID: "mph123", Version: "v1.2.3", Profile: "default"}})
	if err := WriteFile(filepath.Join(dir, "r.html"), ConformHTML(s)); err != nil {
		t.Fatal(err)
	}
	if err := WriteJSON(sample(), s, filepath.Join(dir, "r.json")); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(filepath.Join(dir, "s.md"), ConformMarkdown(s)); err != nil {
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
	s := result.Build(r, result.Options{Meta: result.Meta{Target: "https://u:secretpw@h.example/v1/merchant", RunID: "mphX", Version: "v9"}})
	if err := WriteFile(p, ConformJUnit(s)); err != nil {
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
			if len([]rune(m)) > result.MaxHeadline || strings.Contains(m, "\n") || !strings.Contains(m, "want [200]") || !strings.Contains(m, "POST /v1/merchant/cards/crd_1/withdraw → 500") {
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
		{result.HarnessErrorPrefix + "fixture: issuing a card answered HTTP 500", "fixture: issuing a card answered HTTP 500"},
		{"balance after the withdrawal\nExpected\n    <money.Amount>: 1.00 USD\nto equal\n    <money.Amount>: 0.50 USD", "balance after the withdrawal: Expected 1.00 USD to equal 0.50 USD"},
	}
	for _, c := range cases {
		if got := result.Headline(c.msg, ""); got != c.want {
			t.Errorf("Headline(%q) = %q, want %q", c.msg, got, c.want)
		}
	}
	if got := result.Headline(strings.Repeat("very long ", 100), ""); len([]rune(got)) > result.MaxHeadline || len([]rune(got)) < result.MaxHeadline-2 {
		t.Errorf("long headline has %d runes", len([]rune(got)))
	}
}
