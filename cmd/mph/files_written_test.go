package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
)

// filesIn lists the regular files under dir, as paths joined to it.
func filesIn(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			out = append(out, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// listed are the paths a command's console names after marker, one a line
// (the rest of a line after the path is a comment).
func listed(out, marker string) []string {
	var got []string
	for _, line := range strings.Split(out, "\n") {
		if p, ok := strings.CutPrefix(strings.TrimSpace(line), marker); ok && p != "" {
			got = append(got, strings.Fields(p)[0])
		}
	}
	return got
}

// The console of mph conform names every file the run wrote, the summary
// with the money figures (report.summary.json) included, and no other.
func TestConformListsEveryFileWritten(t *testing.T) {
	dir := t.TempDir()
	out, md := filepath.Join(dir, "out"), filepath.Join(dir, "step-summary.md")
	r := gateRun(t, nil, 0, syscall.SIGINT, "conform", "--no-color", "--label-filter", "CONFIG-01", "--out", out, "--markdown-report", md)
	expectCode(t, "conform", r, 0)
	got, want := listed(r.stdout, "Report: "), append(filesIn(t, out), md)
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) || !slices.Contains(got, filepath.Join(out, "report.summary.json")) {
		t.Errorf("the console lists %q; the run wrote %q", got, want)
	}
}

// The console of mph load names every file the run wrote: the reports, the
// plot, the raw results and the files of --junit-report and
// --markdown-report.
func TestLoadListsEveryFileWritten(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	junit, md := filepath.Join(dir, "junit.xml"), filepath.Join(dir, "step-summary.md")
	r := gateRun(t, nil, 0, syscall.SIGINT, "load", "--scenario", "list", "--rate", "20", "--duration", "1s", "--out", out,
		"--junit-report", junit, "--markdown-report", md)
	expectCode(t, "load", r, 0)
	_, block, ok := strings.Cut(r.stdout, "files written:\n")
	if !ok {
		t.Fatalf("no list of files:\n%s", r.stdout)
	}
	got, want := listed(block, ""), append(filesIn(t, out), junit, md)
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) || !slices.Contains(got, filepath.Join(out, "plot.html")) {
		t.Errorf("the console lists %q; the run wrote %q", got, want)
	}
}
