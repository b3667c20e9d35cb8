package report

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/merchant-harness/mph/result"
)

// TestWritingEveryReportFitsTheInterruptBudget: an interrupted run has one
// second to write every report; a run of 160 specs, a third of them failed
// with three 4 KB exchanges each, takes a small part of it.
func TestWritingEveryReportFitsTheInterruptBudget(t *testing.T) {
	ex := ""
	for i := 1; i <= 3; i++ {
		ex += fmt.Sprintf("--- HTTP exchange %d of 3 (redacted) ---\n> GET http://h/v1/merchant/cards/crd_%d\n< 500 Internal Server Error (1ms)\n< \n< %s\nreproduce: curl\n", i, i, strings.Repeat("x", 4096))
	}
	r := types.Report{SuiteDescription: "s", SpecReports: types.SpecReports{}}
	for i := 0; i < 160; i++ {
		if i%3 == 0 {
			r.SpecReports = append(r.SpecReports, spec(fmt.Sprint("fails ", i), types.SpecStateFailed, "Expected\n    <int>: 500\nto equal\n    <int>: 200\n\n"+ex))
		} else {
			r.SpecReports = append(r.SpecReports, spec(fmt.Sprint("passes ", i), types.SpecStatePassed, ""))
		}
	}
	dir := t.TempDir()
	start := time.Now()
	s := result.Build(r, result.Options{})
	for _, err := range []error{WriteFile(filepath.Join(dir, "j.xml"), ConformJUnit(s)), WriteJSON(r, s, filepath.Join(dir, "r.json")),
		WriteFile(filepath.Join(dir, "r.html"), ConformHTML(s)), WriteFile(filepath.Join(dir, "s.md"), ConformMarkdown(s))} {
		if err != nil {
			t.Fatal(err)
		}
	}
	took := time.Since(start)
	t.Logf("every report of 160 specs (54 failed) written in %v", took)
	if took > 3*time.Second { // budget 1 s; generous for a loaded machine
		t.Fatalf("writing the reports took %v", took)
	}
}
