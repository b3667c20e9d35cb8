package report

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/onsi/ginkgo/v2/types"
)

// TestWritingAFullReportIsQuick: an interrupted run writes every report
// within its one-second budget (real reports of a whole run, about 160 specs).
func TestWritingAFullReportIsQuick(t *testing.T) {
	src := os.Getenv("MPH_TEST_REPORT_JSON")
	if src == "" {
		t.Skip("set MPH_TEST_REPORT_JSON to a report.json of a whole run")
	}
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	var reps []types.Report
	if err := json.Unmarshal(b, &reps); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	start := time.Now()
	s := Build(reps[0], Options{})
	t.Logf("build %v", time.Since(start))
	for name, fn := range map[string]func() error{
		"junit": func() error { return WriteJUnit(s, filepath.Join(dir, "j.xml")) },
		"json":  func() error { return WriteJSON(reps[0], s, filepath.Join(dir, "r.json")) },
		"html":  func() error { return WriteHTML(s, filepath.Join(dir, "r.html")) },
		"md":    func() error { return WriteMarkdown(s, filepath.Join(dir, "s.md")) },
	} {
		t0 := time.Now()
		if err := fn(); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s %v", name, time.Since(t0))
	}
}
