package main

import (
	"os"
	"strings"
	"syscall"
	"testing"

	"github.com/merchant-harness/mph/loadtest"
)

// The scenario list of docs/load.md is what `mph load --list-scenarios --format
// markdown` prints; `go test ./cmd/mph -run TestReadmeScenarioList
// -update-readme` rewrites it.
func TestReadmeScenarioListCurrent(t *testing.T) {
	path := "../../docs/load.md"
	readme, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	before, block, ok := strings.Cut(string(readme), scenariosBegin)
	block, after, ok2 := strings.Cut(block, scenariosEnd+"\n")
	if !ok || !ok2 {
		t.Fatal("docs/load.md has no generated scenario list (mph load --list-scenarios --format markdown)")
	}
	want := scenariosMarkdown()
	if *updateReadme {
		if err := os.WriteFile(path, []byte(before+want+after), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if got := scenariosBegin + block + scenariosEnd + "\n"; got != want {
		t.Errorf("the scenario list of docs/load.md is stale (go test ./cmd/mph -run TestReadmeScenarioList -update-readme)\n got: %s\nwant: %s", got, want)
	}
}

// --list-scenarios prints every registered scenario with its endpoints;
// an unknown scenario or format, and --mix on a scenario that is not a
// composite, are usage errors naming what is valid.
func TestLoadListScenarios(t *testing.T) {
	r := gateRun(t, nil, 0, syscall.SIGINT, "load", "--list-scenarios")
	expectCode(t, "list", r, 0)
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	if len(lines) != 1+len(loadtest.ScenarioNames()) {
		t.Fatalf("want a header and one line per scenario %v:\n%s", loadtest.ScenarioNames(), r.stdout)
	}
	for i, name := range loadtest.ScenarioNames() {
		def, _ := loadtest.Lookup(name)
		f := strings.Fields(lines[i+1])
		var eps []string
		for _, ep := range def.AllEndpoints() {
			eps = append(eps, ep.Name)
		}
		if len(f) < 3 || f[0] != name || f[1] != strings.Join(eps, ",") {
			t.Errorf("line %q: want %s with endpoints %v", lines[i+1], name, eps)
		}
	}
	r = gateRun(t, nil, 0, syscall.SIGINT, "load", "--list-scenarios", "--format", "markdown")
	expectCode(t, "list markdown", r, 0)
	if r.stdout != scenariosMarkdown() {
		t.Errorf("--format markdown printed\n%s\nwant\n%s", r.stdout, scenariosMarkdown())
	}
	names := strings.Join(loadtest.ScenarioNames(), ", ")
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"unknown format", []string{"load", "--list-scenarios", "--format", "html"}, "want text or markdown"},
		{"unknown scenario", []string{"load", "--scenario", "nope", "--duration", "1s"}, "unknown --scenario \"nope\" (want " + names + ")"},
		{"probe of an unknown scenario", []string{"load", "probe-rate-limit", "--scenario", "nope"}, "(want " + names + ")"},
		{"mix on a simple scenario", []string{"load", "--scenario", "list", "--mix", "list=1", "--duration", "1s"}, "not a composite"},
		{"mix naming no part", []string{"load", "--scenario", "mixed", "--mix", "cards=1", "--duration", "1s"}, "unknown endpoint \"cards\" (want token, list, secure)"},
		{"threshold on a part the mix leaves out", []string{"load", "--scenario", "mixed", "--mix", "list=1", "--threshold", "token:p99<1s", "--duration", "1s"},
			"scenario mixed never sends token requests (it sends list)"},
	} {
		r := gateRun(t, nil, 0, syscall.SIGINT, c.args...)
		expectCode(t, c.name, r, 2)
		if !strings.Contains(r.stderr, c.want) {
			t.Errorf("%s: stderr %q lacks %q", c.name, r.stderr, c.want)
		}
	}
}
