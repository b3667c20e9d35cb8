package main

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/merchant-harness/mph/api"
	"github.com/merchant-harness/mph/exitcode"
	"github.com/merchant-harness/mph/suites"
	"github.com/merchant-harness/mph/suites/coverage"
	"github.com/merchant-harness/mph/suites/cross"
)

// TestCoverageGridIsTheRuleTable keeps `mph conform --coverage` honest: its
// grid has a column per endpoint of the table, a row per rule, and every
// cell the rule table applies checked by the spec generated for it (ID
// <rule>-<endpoint>, in the inventory); no spec claims a cell the table
// does not apply.
func TestCoverageGridIsTheRuleTable(t *testing.T) {
	cmd := exec.Command(mphBinary(t), "conform", "--coverage", "--json")
	cmd.Dir = t.TempDir()
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("conform --coverage --json: %v", err)
	}
	var g coverage.Grid
	if err := json.Unmarshal(out, &g); err != nil {
		t.Fatal(err)
	}
	eps := api.Endpoints(nil)
	if len(g.Endpoints) != len(eps) {
		t.Fatalf("%d columns, %d endpoints", len(g.Endpoints), len(eps))
	}
	inv, err := suites.Inventory()
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	for _, e := range inv {
		ids[e.ID] = true
	}
	cells := map[[2]string]coverage.Cell{}
	for _, c := range g.Cells {
		cells[[2]string{c.Rule, c.Endpoint}] = c
	}
	want := 0
	for _, r := range cross.Rules() {
		for _, e := range r.Endpoints {
			want++
			c, ok := cells[[2]string{r.ID, e}]
			switch {
			case !ok || c.Spec == "":
				t.Errorf("%s × %s applies but no spec checks it", r.ID, e)
			case c.Spec != r.ID+"-"+e || !ids[c.Spec]:
				t.Errorf("%s × %s is checked by %q, want the generated %s-%s of the inventory", r.ID, e, c.Spec, r.ID, e)
			case c.Setting == "":
				t.Errorf("%s × %s has no setting", r.ID, e)
			}
		}
	}
	if len(g.Cells) != want || len(g.Stray) > 0 {
		t.Errorf("%d cells for %d applicable, stray %v", len(g.Cells), want, g.Stray)
	}
}

// TestGridVerdict: an unchecked applicable cell, or a spec claiming a cell
// the table does not apply, fails coverage.
func TestGridVerdict(t *testing.T) {
	ok := coverage.Grid{Cells: []coverage.Cell{{Rule: "auth.alg-none", Endpoint: "config", Spec: "auth.alg-none-config"}}}
	if err := gridVerdict(ok); err != nil {
		t.Fatal(err)
	}
	for name, g := range map[string]coverage.Grid{
		"uncovered": {Cells: []coverage.Cell{{Rule: "auth.alg-none", Endpoint: "config"}}},
		"stray":     {Stray: []coverage.Cell{{Rule: "auth.alg-none", Endpoint: "token", Spec: "auth.x"}}},
	} {
		var ee *exitError
		if err := gridVerdict(g); !errors.As(err, &ee) || ee.code != exitcode.Failed || !strings.Contains(err.Error(), map[string]string{"uncovered": "auth.alg-none × config", "stray": "STRAY"}[name]) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestCrossRulesCiteTheDocument: every rule of the table carries the API
// document's words (whitespace normalised).
func TestCrossRulesCiteTheDocument(t *testing.T) {
	b, err := os.ReadFile("../../../shared/merchant-payments-api.md")
	if err != nil {
		t.Skip("the API document is not next to the checkout")
	}
	norm := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	doc := norm(string(b))
	for _, r := range cross.Rules() {
		if r.Cite == "" || !strings.Contains(doc, norm(r.Cite)) {
			t.Errorf("rule %s cites %q, not the document's words", r.ID, r.Cite)
		}
		if len(r.Reqs) == 0 || len(r.Endpoints) == 0 {
			t.Errorf("rule %s names no requirement or applies to no endpoint", r.ID)
		}
	}
}
