package framework

import (
	"slices"
	"strings"
	"testing"

	. "github.com/onsi/ginkgo/v2"
)

// TestCellParts: OnEndpoint and ForRule become the declaration's cell and
// its labels, never a Ginkgo decorator; a rule needs an endpoint and is
// declared once.
func TestCellParts(t *testing.T) {
	d, _, deco, problems := parseDecl("x", "here", nil, []any{SpecID("auth.alg-none-config"), Reqs("AUTH-11"),
		OnEndpoint("config"), ForRule("auth.alg-none"), func(SpecContext) {}})
	if len(problems) != 0 || len(deco) != 0 {
		t.Fatalf("problems %v, decorators %v", problems, deco)
	}
	if d.Rule != "auth.alg-none" || !slices.Equal(d.Endpoints, []string{"config"}) {
		t.Fatalf("cell %q %v", d.Rule, d.Endpoints)
	}
	for _, l := range []string{"endpoint:config", "rule:auth.alg-none"} {
		if !slices.Contains(d.Labels, l) {
			t.Errorf("labels %v lack %s", d.Labels, l)
		}
	}
	d, _, _, problems = parseDecl("x", "here", nil, []any{SpecID("pci.keeps-out"), Reqs("SECURE-11"), OnEndpoint("card", "card-list"), func(SpecContext) {}})
	if len(problems) != 0 || d.Rule != "" || len(d.Endpoints) != 2 {
		t.Fatalf("a hand-written spec on two endpoints: %v %+v", problems, d)
	}
	for want, args := range map[string][]any{
		"declared without OnEndpoint": {SpecID("auth.x-y"), Reqs("AUTH-11"), ForRule("auth.alg-none"), func(SpecContext) {}},
		"rule declared twice":         {SpecID("auth.x-y"), Reqs("AUTH-11"), OnEndpoint("config"), ForRule("a.b"), ForRule("a.c"), func(SpecContext) {}},
	} {
		_, _, _, problems := parseDecl("x", "here", nil, args)
		if !strings.Contains(strings.Join(problems, "\n"), want) {
			t.Errorf("%s: problems %v", want, problems)
		}
	}
}
