// Package loadfiles is what the load commands write beside their reports
// and how they list it: the copies a CI gate reads at paths of their own
// (--markdown-report, --junit-report), the comparison's files, and the
// list of every file a run wrote. The renderings are package report's.
package loadfiles

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/merchant-harness/mph/loadtest/summary"
	"github.com/merchant-harness/mph/report"
	"github.com/merchant-harness/mph/report/loadreport"
)

// Extra are the copies at paths of their own ("" for none): the Markdown
// summary (e.g. $GITHUB_STEP_SUMMARY) and a JUnit report with one test
// case per threshold.
type Extra struct {
	Markdown, JUnit string
}

// Write writes the extra reports of a finished (or interrupted) run;
// version is the harness's, for the JUnit report.
func (e Extra) Write(rep *summary.Report, version string) error {
	if e.Markdown != "" {
		md, err := loadreport.Markdown(rep).Bytes()
		if err == nil {
			err = writeFile(e.Markdown, md)
		}
		if err != nil {
			return fmt.Errorf("--markdown-report: %w", err)
		}
	}
	if e.JUnit != "" {
		out, err := loadreport.JUnit(rep, version).Bytes()
		if err != nil {
			return err
		}
		if err := writeFile(e.JUnit, out); err != nil {
			return fmt.Errorf("--junit-report: %w", err)
		}
	}
	return nil
}

func writeFile(path string, b []byte) error {
	if d := filepath.Dir(path); d != "" {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	return os.WriteFile(path, b, 0o644)
}

// Comparison writes compare.md, compare.html and compare.json into dir.
func Comparison(dir string, c *summary.Comparison) error {
	return report.WriteAll(dir, map[string]report.Reporter{
		"compare.md":   loadreport.CompareMarkdown(c),
		"compare.html": loadreport.CompareHTML(c),
		"compare.json": loadreport.CompareJSON(c),
	})
}

// Reports are the reports a load command writes in out, then the extra
// files given ("" skipped).
func Reports(out string, extra ...string) []string {
	files := []string{filepath.Join(out, "summary.json"), filepath.Join(out, "summary.md"), filepath.Join(out, "report.html")}
	for _, f := range extra {
		if f != "" {
			files = append(files, f)
		}
	}
	return files
}

// OfRun are the files a timed run wrote: its reports, vegeta's plot when
// there is one, the extra files, then the raw results (resultsPath, ""
// for none).
func OfRun(out, resultsPath string, extra ...string) []string {
	files := Reports(out, extra...)
	if _, err := os.Stat(filepath.Join(out, "plot.html")); err == nil {
		files = append(files[:3], append([]string{filepath.Join(out, "plot.html")}, files[3:]...)...)
	}
	if resultsPath != "" {
		files = append(files, resultsPath+" (raw results: vegeta report "+resultsPath+")")
	}
	return files
}

// Print lists every file a command wrote, one a line.
func Print(w io.Writer, files []string) {
	fmt.Fprintln(w, "files written:")
	for _, f := range files {
		fmt.Fprintf(w, "  %s\n", f)
	}
}
