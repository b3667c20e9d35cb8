package report

import (
	"bytes"
	_ "embed"
	"fmt"
	"html/template"
	"sort"
	"strings"
	"time"

	"github.com/merchant-harness/mph/exitcode"
	"github.com/merchant-harness/mph/result"
)

//go:embed html.tmpl
var pageSource string

var page = template.Must(template.New("report").Funcs(template.FuncMap{
	"lower":       strings.ToLower,
	"join":        strings.Join,
	"round":       roundDuration,
	"verdict":     verdict,
	"bannerClass": bannerClass,
	"search":      searchText,
	"assertion":   func(m string) string { a, _ := result.SplitExchanges(m); return a },
	"exchanges":   exchangesOf,
	"row":         func(sp result.Spec, open bool) rowData { return rowData{Spec: sp, Open: open} },
	"grid":        func(s result.Summary) *Grid { return GridOf(s.Cells) },
	"inc":         func(i int) int { return i + 1 },
	"outcome":     outcomeName,
	"exitMeaning": exitMeaning,
	"money":       viewMoney,
}).Parse(pageSource))

// exitMeaning says what a conform exit code means (the CLI's contract).
func exitMeaning(code int) string {
	switch code {
	case exitcode.OK:
		return "all passed"
	case exitcode.Failed:
		return "a rule failed"
	case exitcode.Harness:
		return "some checks could not run or reached no verdict"
	case exitcode.Interrupted:
		return "interrupted"
	}
	return ""
}

// reasonGroup is one reason of the no-verdict or not-applicable lists.
type reasonGroup struct {
	Reason   string
	Specs    []string
	IDs      []string // the specs' IDs, in the order of Specs
	Class    string   // the outcome, for styling
	Accepted int      // no verdicts of the group the run accepts
}

// groupsOf are the reasons of one outcome with their specs.
func groupsOf(s result.Summary, reasons []result.Reason, o result.Outcome) []reasonGroup {
	accepted, ids := map[string]bool{}, map[string]string{}
	for _, sp := range s.Specs {
		if sp.Outcome == o {
			accepted[sp.Text] = sp.Accepted
			ids[sp.Text] = sp.ID
		}
	}
	out := make([]reasonGroup, len(reasons))
	for i, r := range reasons {
		g := reasonGroup{Reason: r.Reason, Specs: append([]string(nil), r.Specs...), Class: string(o)}
		sort.Strings(g.Specs)
		for _, t := range g.Specs {
			g.IDs = append(g.IDs, ids[t])
			if accepted[t] {
				g.Accepted++
			}
		}
		out[i] = g
	}
	return out
}

// exchangesOf is every recorded exchange of a spec, in order: the earlier
// ones of the report entry, then the last ones the failure message shows.
func exchangesOf(sp result.Spec) string {
	_, ex := result.SplitExchanges(sp.Message)
	if sp.Details == "" || ex == "" {
		return sp.Details + ex
	}
	// The message's note about earlier exchanges is answered by Details.
	if strings.HasPrefix(ex, "(") {
		if _, rest, ok := strings.Cut(ex, "\n"); ok {
			ex = rest
		}
	}
	return strings.TrimRight(sp.Details, "\n") + "\n" + ex
}

// rowData is one spec's row and whether its details start open.
type rowData struct {
	Spec result.Spec
	Open bool
}

// area is one area's section of the HTML report.
type area struct {
	Name    string
	Summary string
	Specs   []result.Spec
}

type htmlData struct {
	S          result.Summary
	Target     string
	Exit       int
	Failures   []result.Spec // failed and harness errors, failures first
	NoVerdicts []reasonGroup
	Skips      []reasonGroup
	Areas      []area
	Open       bool // few failures: their details start open
}

// verdict is the run's result in a few words.
func verdict(s result.Summary) string {
	switch s.ExitCode(false) {
	case exitcode.Interrupted:
		return "INTERRUPTED: the reports cover what ran"
	case exitcode.Failed:
		return fmt.Sprintf("FAILED: %d failed", s.Failed)
	case exitcode.Harness:
		if n := s.HarnessErrors + len(s.SuiteErrors); n > 0 {
			return fmt.Sprintf("HARNESS ERRORS: %d checks could not run", n) + noVerdictTail(s)
		}
		return fmt.Sprintf("NO VERDICT: %d checks could not decide", s.Undecided())
	}
	return fmt.Sprintf("PASSED: %d specs", s.Passed)
}

// noVerdictTail adds the no verdicts not accepted to a verdict line.
func noVerdictTail(s result.Summary) string {
	if n := s.Undecided(); n > 0 {
		return fmt.Sprintf(", %d reached no verdict", n)
	}
	return ""
}

func bannerClass(s result.Summary) string {
	switch s.ExitCode(false) {
	case exitcode.OK:
		return "ok"
	case exitcode.Failed:
		return "bad"
	}
	return "warn"
}

func searchText(sp result.Spec) string {
	return strings.ToLower(strings.Join(append([]string{sp.Text, sp.ID, sp.Area, string(sp.Outcome), outcomeName(sp.Outcome)}, sp.Labels...), " "))
}

// outcomeName is how the reports name an outcome: a skip is "not
// applicable", kept apart from "no verdict".
func outcomeName(o result.Outcome) string {
	switch o {
	case result.Skipped:
		return "not applicable"
	case result.NoVerdict:
		return "no verdict"
	}
	return string(o)
}

// RenderHTML renders the self-contained HTML page of a run, one page a
// reader needs nothing else for: the verdict and its exit code, the test
// money per currency, the teardown and the rate limits' cost, the baseline
// comparison, failures and harness errors with their reproduce lines, no
// verdicts and not-applicable specs grouped by reason (kept apart), the
// rule × endpoint grid, then every spec by area with an offline filter box.
func RenderHTML(s result.Summary) ([]byte, error) {
	d := htmlData{S: s, Target: StripUserinfo(s.Target), Exit: s.ExitCode(false),
		NoVerdicts: groupsOf(s, s.NoVerdictReasons, result.NoVerdict), Skips: groupsOf(s, s.SkipReasons, result.Skipped)}
	byArea := map[string][]result.Spec{}
	for _, sp := range s.Ordered() {
		if sp.Outcome == result.Failed || sp.Outcome == result.HarnessError {
			d.Failures = append(d.Failures, sp)
		}
		byArea[orUnknown(sp.Area)] = append(byArea[orUnknown(sp.Area)], sp)
	}
	d.Open = len(d.Failures) <= 5
	names := make([]string, 0, len(byArea))
	for n := range byArea {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		counts := map[result.Outcome]int{}
		for _, sp := range byArea[n] {
			counts[sp.Outcome]++
		}
		var parts []string
		for _, o := range []result.Outcome{result.Failed, result.HarnessError, result.NoVerdict, result.Interrupted, result.Waived, result.Skipped, result.Pending, result.Passed} {
			if counts[o] > 0 {
				parts = append(parts, fmt.Sprintf("%d %s", counts[o], outcomeName(o)))
			}
		}
		specs := make([]result.Spec, len(byArea[n]))
		for i, sp := range byArea[n] {
			sp.Area = "" // the row shows the duration here
			specs[i] = sp
		}
		d.Areas = append(d.Areas, area{Name: n, Summary: strings.Join(parts, ", "), Specs: specs})
	}
	var b bytes.Buffer
	if err := page.Execute(&b, d); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// WriteHTML writes the self-contained HTML report of a run.
func WriteHTML(s result.Summary, path string) error {
	b, err := RenderHTML(s)
	if err != nil {
		return err
	}
	return writeAtomic(path, b)
}

// roundDuration keeps three significant figures or so: 11.2ms, 3.51s, 855µs.
func roundDuration(d time.Duration) time.Duration {
	switch {
	case d >= 10*time.Second:
		return d.Round(100 * time.Millisecond)
	case d >= time.Second:
		return d.Round(10 * time.Millisecond)
	case d >= 10*time.Millisecond:
		return d.Round(100 * time.Microsecond)
	case d >= time.Millisecond:
		return d.Round(10 * time.Microsecond)
	}
	return d.Round(time.Microsecond)
}
