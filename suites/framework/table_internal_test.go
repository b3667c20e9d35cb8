package framework

import (
	"strings"
	"testing"

	. "github.com/onsi/ginkgo/v2"
)

func TestSlowMapsToSpecPriority(t *testing.T) {
	cases := []struct {
		name string
		args []any
		want []any
	}{
		{"slow gets the slow priority", []any{SpecID("t.slow"), Reqs("AUTH-09"), Slow, func(SpecContext) {}}, []any{SlowPriority}},
		{"a declared priority wins", []any{SpecID("t.declared"), Reqs("AUTH-09"), Slow, SpecPriority(5), func(SpecContext) {}}, []any{SpecPriority(5)}},
		{"not slow: no priority", []any{SpecID("t.notslow"), Reqs("AUTH-09"), Serial, func(SpecContext) {}}, []any{Serial}},
	}
	for _, c := range cases {
		_, _, deco, problems := parseDecl("x", "here", nil, c.args)
		if len(problems) != 0 || len(deco) != len(c.want) {
			t.Fatalf("%s: deco %v problems %v", c.name, deco, problems)
		}
		for i := range deco {
			if deco[i] != c.want[i] {
				t.Errorf("%s: deco %v, want %v", c.name, deco, c.want)
			}
		}
	}
}

func TestTableEntriesAreDeclaredOneRuleEach(t *testing.T) {
	before := len(DeclarationErrors())
	defer func() {
		h.decl.mu.Lock()
		h.decl.errors = h.decl.errors[:before]
		h.decl.mu.Unlock()
	}()
	shared, deco, rules := splitTableArgs([]any{Destructive, Ordered,
		ConformanceEntry("rule a", "t.rule-a", 1, Reqs("GET-05")),
		ConformanceEntry("rule b", "t.rule-b", "not an int", Reqs("GET-06")),
		ConformanceEntry("rule c", "t.rule-c", 3),
	})
	if len(shared) != 1 || len(deco) != 1 || len(rules) != 3 {
		t.Fatalf("split: shared %v deco %v rules %d", shared, deco, len(rules))
	}
	for _, r := range rules {
		tableEntry[int](r, []string{"Table test"}, shared)
	}
	errs := strings.Join(DeclarationErrors()[before:], "\n")
	for _, want := range []string{`"rule b": the row is a string`, `"rule c": a table entry names its own requirement`} {
		if !strings.Contains(errs, want) {
			t.Errorf("missing problem %q in:\n%s", want, errs)
		}
	}
	if strings.Contains(errs, `"rule a"`) {
		t.Errorf("a well-formed entry was refused:\n%s", errs)
	}
	var a Declaration
	for _, d := range Declarations() {
		if d.Text == "rule a" {
			a = d
		}
	}
	if strings.Join(a.Reqs, ",") != "GET-05" || !strings.Contains(strings.Join(a.Labels, ","), "destructive") {
		t.Fatalf("rule a declared as %+v", a)
	}
}
