package main

import (
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// The list of specs that write with LIVE credentials (docs/conform.md) is exactly the
// specs `mph conform --list` labels both live and destructive.
func TestReadmeListsLiveWrites(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := mphBinary(t) // built once per test binary
	cmd := exec.Command(bin, "conform", "--list", "--no-color")
	cmd.Dir = t.TempDir()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("conform --list: %v\n%s", err, out)
	}
	var want []string
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Split(line, "\t") // ID, text, [labels]
		if len(f) != 3 {
			continue
		}
		ls := strings.Split(strings.Trim(f[2], "[]"), ", ")
		if slices.Contains(ls, "live") && slices.Contains(ls, "destructive") {
			want = append(want, f[1])
		}
	}
	if len(want) == 0 {
		t.Fatalf("no spec labelled live and destructive in:\n%s", out)
	}
	readme, err := os.ReadFile("../../docs/conform.md")
	if err != nil {
		t.Fatal(err)
	}
	_, block, ok := strings.Cut(string(readme), "<!-- live-writes:")
	block, _, ok2 := strings.Cut(block, "<!-- /live-writes -->")
	if !ok || !ok2 {
		t.Fatal("docs/conform.md has no live-writes block")
	}
	var got []string
	for _, l := range strings.Split(block, "\n")[1:] {
		if item, ok := strings.CutPrefix(strings.TrimSpace(l), "- "); ok {
			got = append(got, item)
		}
	}
	slices.Sort(want)
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Fatalf("docs/conform.md live-writes block lists\n  %s\nmph conform --list labels live+destructive:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}
