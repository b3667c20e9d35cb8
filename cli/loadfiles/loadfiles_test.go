package loadfiles

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/merchant-harness/mph/loadtest/summary"
	"github.com/merchant-harness/mph/loadtest/threshold"
)

// TestExtraAndLists: the extra copies go to their own paths (directories
// made), one JUnit case per threshold; the lists skip what was not asked.
func TestExtraAndLists(t *testing.T) {
	dir := t.TempDir()
	rep := &summary.Report{Tool: "mph load test", Kind: "run", Scenario: "list",
		Thresholds: []threshold.Result{{Threshold: "all:success>=99%", Endpoint: "all", Actual: 100, Limit: 99, Unit: "%", Pass: true}}}
	e := Extra{Markdown: filepath.Join(dir, "a", "summary.md"), JUnit: filepath.Join(dir, "b", "junit.xml")}
	if err := e.Write(rep, "test"); err != nil {
		t.Fatal(err)
	}
	md, err1 := os.ReadFile(e.Markdown)
	x, err2 := os.ReadFile(e.JUnit)
	if err1 != nil || err2 != nil || len(md) == 0 || strings.Count(string(x), "<testcase") != 1 {
		t.Errorf("markdown %d bytes (%v), junit %q (%v)", len(md), err1, x, err2)
	}
	got := Reports("out", "", "j.xml")
	if want := []string{filepath.Join("out", "summary.json"), filepath.Join("out", "summary.md"), filepath.Join("out", "report.html"), "j.xml"}; !slices.Equal(got, want) {
		t.Errorf("Reports: %v", got)
	}
	if got := OfRun(dir, "r.bin"); got[len(got)-1] != "r.bin (raw results: vegeta report r.bin)" {
		t.Errorf("OfRun: %v", got)
	}
}
