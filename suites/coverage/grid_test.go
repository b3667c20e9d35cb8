package coverage

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/merchant-harness/mph/suites/framework"
)

// TestProblem: the grid fails on an applicable cell no spec checks and on
// a spec declaring a cell the rule table does not apply, saying which.
func TestProblem(t *testing.T) {
	ok := Grid{Cells: []Cell{{Rule: "r", Endpoint: "e", Spec: "r-e"}}}
	if p := ok.Problem(); p != "" {
		t.Errorf("a covered grid: %q", p)
	}
	if p := (Grid{Cells: []Cell{{Rule: "r", Endpoint: "e"}}}).Problem(); !strings.Contains(p, "uncovered cells of the rule × endpoint grid: r × e") {
		t.Errorf("an uncovered cell: %q", p)
	}
	if p := (Grid{Stray: []Cell{{Rule: "r", Endpoint: "x", Spec: "s"}}}).Problem(); !strings.Contains(p, "1 specs declare cells") {
		t.Errorf("a stray cell: %q", p)
	}
}

// TestTheBuiltTree: the built tree's grid has a column per endpoint and
// no problem, and its JSON reads back; every requirement is in the table.
func TestTheBuiltTree(t *testing.T) {
	if _, err := framework.Preview(framework.RunOptions{}); err != nil {
		t.Fatal(err)
	}
	g := BuildGrid()
	if len(g.Endpoints) == 0 || len(g.Rules) == 0 || g.Problem() != "" {
		t.Fatalf("%d endpoints, %d rules: %q", len(g.Endpoints), len(g.Rules), g.Problem())
	}
	var b bytes.Buffer
	if err := g.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	var back Grid
	if err := json.Unmarshal(b.Bytes(), &back); err != nil || len(back.Cells) != len(g.Cells) {
		t.Errorf("JSON: %v, %d cells of %d", err, len(back.Cells), len(g.Cells))
	}
	b.Reset()
	if u := WriteRequirements(&b); len(u) != 0 {
		t.Errorf("uncovered testable requirements: %v", u)
	}
	if !strings.Contains(b.String(), "REQUIREMENT") || !strings.Contains(b.String(), "covered with a plain TEST server:") {
		t.Errorf("the requirements' table:\n%s", b.String())
	}
}
