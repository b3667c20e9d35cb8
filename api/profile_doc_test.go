package api

import (
	"flag"
	"os"
	"strings"
	"testing"
)

var updateReadme = flag.Bool("update-readme", false, "rewrite the generated profile table of docs/profile.md")

const (
	profileBlockStart = "<!-- gen-block:profile -->\n"
	profileBlockEnd   = "<!-- /gen-block:profile -->"
)

// TestReadmeProfileSection: the profile table of docs/profile.md is the default
// profile's, key by key (every key has a default and says what it decides).
func TestReadmeProfileSection(t *testing.T) {
	table, err := ProfileReference()
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(table), "\n")[2:] {
		cells := strings.Split(line, " | ")
		if len(cells) != 3 || strings.TrimSpace(strings.TrimSuffix(cells[2], "|")) == "" {
			t.Errorf("a profile key says nothing of what it decides: %s", line)
		}
	}
	const path = "../docs/profile.md"
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	i, j := strings.Index(readme, profileBlockStart), strings.Index(readme, profileBlockEnd)
	if i < 0 || j < i {
		t.Fatalf("docs/profile.md has no %q ... %q block", profileBlockStart, profileBlockEnd)
	}
	got := readme[i+len(profileBlockStart) : j]
	if got == table {
		return
	}
	if *updateReadme {
		if err := os.WriteFile(path, []byte(readme[:i+len(profileBlockStart)]+table+readme[j:]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("the profile table of docs/profile.md is stale: go test ./api -run TestReadmeProfileSection -update-readme")
}
