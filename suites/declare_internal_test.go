package suites

import (
	"strings"
	"testing"

	. "github.com/onsi/ginkgo/v2"
)

func TestParseDeclLabelsAndProblems(t *testing.T) {
	d, body, deco, problems := parseDecl("x", "here", []any{Reqs("AUTH-09", "LIST-01"), Needs(CapClock, CapLiveTier2), Destructive, Serial, func(SpecContext) {}})
	if len(problems) != 0 || body == nil || len(deco) != 1 {
		t.Fatalf("problems %v body %v deco %v", problems, body != nil, deco)
	}
	want := "AUTH-09,LIST-01,auth,destructive,listing,live,sandbox-controls"
	if got := strings.Join(d.Labels, ","); got != want {
		t.Fatalf("labels %s, want %s", got, want)
	}

	cases := map[string][]any{
		"no requirement IDs":            {func(SpecContext) {}},
		"unknown requirement ID":        {Reqs("NOPE-01"), func(SpecContext) {}},
		"not in the frozen list":        {Reqs("AUTH-09"), Tag("flaky"), func(SpecContext) {}},
		"instead of ginkgo Label":       {Reqs("AUTH-09"), Label("x"), func(SpecContext) {}},
		"no body":                       {Reqs("AUTH-09")},
		"unknown capability":            {Reqs("AUTH-09"), Needs("teleport"), func(SpecContext) {}},
		"must be func(ctx SpecContext)": {Reqs("AUTH-09"), func() {}},
		"unexpected string argument":    {"AUTH-09", func(SpecContext) {}},
	}
	for want, args := range cases {
		_, _, _, problems := parseDecl("x", "here", args)
		if len(problems) == 0 || !strings.Contains(strings.Join(problems, "\n"), want) {
			t.Errorf("%s: problems %v", want, problems)
		}
	}
}
