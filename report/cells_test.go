package report

import (
	"reflect"
	"strings"
	"testing"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/merchant-harness/mph/result"
)

// TestCellsOfARun: the specs labelled with a rule and an endpoint are the
// run's cells, with their outcome; the Markdown and HTML reports show the
// grid, marking each cell by its outcome in its endpoint's column.
func TestCellsOfARun(t *testing.T) {
	spec := func(id string, state types.SpecState, msg string, labels ...string) types.SpecReport {
		return types.SpecReport{LeafNodeType: types.NodeTypeIt, LeafNodeText: id, State: state,
			LeafNodeLabels: append(labels, result.IDLabelPrefix+id), Failure: types.Failure{Message: msg}}
	}
	r := types.Report{SuiteDescription: "s", SpecReports: []types.SpecReport{
		spec("auth.alg-none-gift-verify", types.SpecStateFailed, "boom", "AUTH-11", "rule:auth.alg-none", "endpoint:gift-verify"),
		spec("auth.alg-none-config", types.SpecStatePassed, "", "AUTH-11", "rule:auth.alg-none", "endpoint:config"),
		spec("body.null-withdraw", types.SpecStateSkipped, "no verdict: another refusal came first", "ERR-22", "rule:body.null", "endpoint:withdraw"),
		spec("body.null-token", types.SpecStateSkipped, result.NoVerdictPrefix+"rate limited", "ERR-22", "rule:body.null", "endpoint:token"),
		spec("auth.plain", types.SpecStatePassed, "", "AUTH-07", "endpoint:token"),
	}}
	s := result.Summarize(r)
	want := []result.CellOutcome{
		{Rule: "auth.alg-none", Endpoint: "config", Spec: "auth.alg-none-config", Outcome: result.Passed},
		{Rule: "auth.alg-none", Endpoint: "gift-verify", Spec: "auth.alg-none-gift-verify", Outcome: result.Failed},
		{Rule: "body.null", Endpoint: "token", Spec: "body.null-token", Outcome: result.NoVerdict},
		{Rule: "body.null", Endpoint: "withdraw", Spec: "body.null-withdraw", Outcome: result.Skipped},
	}
	if !reflect.DeepEqual(s.Cells, want) {
		t.Fatalf("Cells = %+v, want %+v", s.Cells, want)
	}
	g := GridOf(s.Cells)
	cfg, verify, token := -1, -1, -1
	for i, e := range g.Endpoints {
		switch e {
		case "config":
			cfg = i
		case "gift-verify":
			verify = i
		case "token":
			token = i
		}
	}
	if len(g.Rows) != 2 || g.Rows[0].Rule != "auth.alg-none" || g.Rows[0].Marks[cfg] != "✔" || g.Rows[0].Marks[verify] != "✘" || g.Rows[1].Marks[cfg] != "" || g.Rows[1].Marks[token] != "?" {
		t.Fatalf("grid rows %+v", g.Rows)
	}
	md := Markdown(s)
	if !strings.Contains(md, "### Rules × endpoints (4 cells: 1 passed, 1 failed, 1 no verdict, 1 not applicable)") || !strings.Contains(md, "| `auth.alg-none` |") {
		t.Fatalf("Markdown has no grid:\n%s", md)
	}
	html, err := RenderHTML(s)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(html), `<td class="rule">body.null</td>`) || !strings.Contains(string(html), `<td class="failed">✘</td>`) {
		t.Fatalf("HTML has no grid")
	}
	if GridOf(nil) != nil || strings.Contains(Markdown(result.Summarize(types.Report{})), "Rules × endpoints") {
		t.Fatal("a run without cells shows a grid")
	}
}
