package framework

import (
	"strings"
	"testing"

	. "github.com/onsi/ginkgo/v2"
)

func TestParseDeclLabelsAndProblems(t *testing.T) {
	d, body, deco, problems := parseDecl("x", "here", []string{"Auth"}, []any{SpecID("auth.xy"), Reqs("AUTH-09", "LIST-01"), Needs(CapClock, CapLiveTier2), Destructive, Serial, func(SpecContext) {}})
	if len(problems) != 0 || body == nil || len(deco) != 1 {
		t.Fatalf("problems %v body %v deco %v", problems, body != nil, deco)
	}
	if d.ID != "auth.xy" || d.FullText != "Auth x" {
		t.Fatalf("spec ID %q, full text %q", d.ID, d.FullText)
	}
	want := "AUTH-09,LIST-01,auth,destructive,id:" + d.ID + ",listing,live,sandbox-controls"
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
		"is not of the form area.slug":  {Reqs("AUTH-09"), SpecID("Bad ID"), func(SpecContext) {}},
		"no spec ID":                    {Reqs("AUTH-09"), func(SpecContext) {}},
		"unknown profile key":           {Reqs("AUTH-09"), SpecID("auth.xy"), ProfileKeys("cards.listMaxLimt"), func(SpecContext) {}},
	}
	for want, args := range cases {
		_, _, _, problems := parseDecl("x", "here", nil, args)
		if len(problems) == 0 || !strings.Contains(strings.Join(problems, "\n"), want) {
			t.Errorf("%s: problems %v", want, problems)
		}
	}
}

func TestProfileKeysAreDeclared(t *testing.T) {
	d, _, _, problems := parseDecl("x", "here", nil, []any{Reqs("QUOTE-01"), SpecID("quotes.xy"), ProfileKeys("giftCards.quote.totalPointer", "customers.fields.dateOfBirth"), func(SpecContext) {}})
	if len(problems) != 0 || strings.Join(d.ProfileKeys, ",") != "giftCards.quote.totalPointer,customers.fields.dateOfBirth" {
		t.Fatalf("profile keys %v, problems %v", d.ProfileKeys, problems)
	}
}

func TestSpecIDsAreDeclaredAndCheckedUnique(t *testing.T) {
	d, _, _, problems := parseDecl("x", "here", []string{"Old words"}, []any{Reqs("AUTH-09"), SpecID("auth.declared-one"), func(SpecContext) {}})
	d2, _, _, _ := parseDecl("x reworded", "here", []string{"New words"}, []any{Reqs("AUTH-09"), SpecID("auth.declared-one"), func(SpecContext) {}})
	if len(problems) != 0 || d.ID != "auth.declared-one" || d2.ID != d.ID {
		t.Fatalf("declared IDs %q %q (a rewording must keep it), problems %v", d.ID, d2.ID, problems)
	}
	before := len(DeclarationErrors())
	recordDecl("k1", Declaration{ID: "auth.dup", Where: "a"}, nil)
	recordDecl("k1", Declaration{ID: "auth.dup", Where: "a"}, nil) // the tree built again: same key, fine
	recordDecl("k2", Declaration{ID: "auth.dup", Where: "b"}, nil)
	errs := DeclarationErrors()
	if len(errs) != before+1 || !strings.Contains(errs[len(errs)-1], "already used") {
		t.Fatalf("duplicate ID not refused: %v", errs[before:])
	}
	h.decl.mu.Lock()
	h.decl.errors = h.decl.errors[:before]
	h.decl.mu.Unlock()
}
