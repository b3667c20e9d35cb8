package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/merchant-harness/mph/result"
)

// A target answering `\x1b[2K\r✔ all specs passed` cannot draw that line in
// the console or in any report: every control character arrives escaped.
func TestTargetControlCharactersAreEscapedEverywhere(t *testing.T) {
	evil := "body: \x1b[2K\r✔ all specs passed\u202e\x07"
	sp := spec("fails", types.SpecStateFailed, "Expected status 200, got 500\n"+evil)
	sp.ReportEntries = append(sp.ReportEntries, types.ReportEntry{Name: "http-exchanges", Value: types.WrapEntryValue(evil)})
	r := types.Report{SuiteDescription: "s", SpecReports: types.SpecReports{sp,
		spec("skips", types.SpecStateSkipped, "target said "+evil)}}

	var console strings.Builder
	s := result.Summarize(r)
	_ = Console(s)(&console)
	dir := t.TempDir()
	paths := map[string]func(string) error{
		"junit.xml":   func(p string) error { return WriteFile(p, ConformJUnit(s)) },
		"report.json": func(p string) error { return WriteJSON(r, s, p) },
		"report.html": func(p string) error { return WriteFile(p, ConformHTML(s)) },
		"summary.md":  func(p string) error { return WriteFile(p, ConformMarkdown(s)) },
	}
	outputs := map[string]string{"console": console.String()}
	for name, write := range paths {
		p := filepath.Join(dir, name)
		if err := write(p); err != nil {
			t.Fatal(err)
		}
		b, _ := os.ReadFile(p)
		outputs[name] = string(b)
	}
	sum, _ := os.ReadFile(SummaryPath(filepath.Join(dir, "report.json")))
	outputs["summary.json"] = string(sum)
	for name, out := range outputs {
		for _, raw := range []string{"\x1b", "\r", "\u202e", "\x07", `\u001b`, `\u0007`, "&#x1B;", "&#27;"} {
			if strings.Contains(out, raw) {
				t.Errorf("%s carries %q raw", name, raw)
			}
		}
		if !strings.Contains(out, `x1b[2K`) && !strings.Contains(out, `x1b\[2K`) { // Markdown escapes the bracket
			t.Errorf("%s lost the escaped sequence (want it visible as \\x1b)", name)
		}
	}
}
