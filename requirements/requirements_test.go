package requirements

import (
	"strings"
	"testing"
)

func TestCatalogueLoadsAndIsValid(t *testing.T) {
	reqs := All()
	if err := Validate(reqs); err != nil {
		t.Fatal(err)
	}
	if len(reqs) < 120 {
		t.Errorf("catalogue has %d requirements; the document states far more", len(reqs))
	}
}

func TestIDsUniqueAndWellFormed(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range All() {
		if !idPattern.MatchString(r.ID) {
			t.Errorf("malformed id %q", r.ID)
		}
		if seen[r.ID] {
			t.Errorf("duplicate id %q", r.ID)
		}
		seen[r.ID] = true
		if Area(r.ID) == "" {
			t.Errorf("%s: unknown area", r.ID)
		}
	}
}

func TestEveryAreaUsed(t *testing.T) {
	used := map[string]int{}
	for _, r := range All() {
		prefix, _, _ := strings.Cut(r.ID, "-")
		used[prefix]++
	}
	for prefix, label := range Areas() {
		if used[prefix] == 0 {
			t.Errorf("area %s (%s) has no requirement", prefix, label)
		}
	}
}

func TestNonTestableHaveWhy(t *testing.T) {
	for _, r := range All() {
		if !r.Testable && strings.TrimSpace(r.Why) == "" {
			t.Errorf("%s is not testable but gives no why", r.ID)
		}
	}
}

func TestIDsNumberedWithoutGapsPerArea(t *testing.T) {
	next := map[string]int{}
	for _, r := range All() {
		m := idPattern.FindStringSubmatch(r.ID)
		n := 0
		for _, c := range m[2] {
			n = n*10 + int(c-'0')
		}
		next[m[1]]++
		if n != next[m[1]] {
			t.Errorf("%s: expected %s-%02d here (catalogue order, no gaps)", r.ID, m[1], next[m[1]])
			next[m[1]] = n
		}
	}
}

func TestLookupAndArea(t *testing.T) {
	r, ok := Lookup("AUTH-04")
	if !ok || r.ID != "AUTH-04" || !strings.Contains(r.Text, "900") {
		t.Fatalf("Lookup(AUTH-04) = %+v, %v", r, ok)
	}
	if _, ok := Lookup("NOPE-01"); ok {
		t.Error("Lookup of an unknown id succeeded")
	}
	cases := map[string]string{
		"ENV-01": "envelopes", "GET-02": "cards", "SECURE-01": "secure-reveal",
		"TXN-01": "transactions", "ISO-01": "isolation", "X": "", "FOO-01": "",
	}
	for id, want := range cases {
		if got := Area(id); got != want {
			t.Errorf("Area(%q) = %q, want %q", id, got, want)
		}
	}
}

func TestValidateRejectsBadCatalogues(t *testing.T) {
	q := []string{"Wrong credentials give 401."} // valid words: each case fails for its own defect
	bad := [][]Requirement{
		{{ID: "AUTH-1", Section: "s", Text: "t", Quote: q, Testable: true}},
		{{ID: "FOO-01", Section: "s", Text: "t", Quote: q, Testable: true}},
		{{ID: "AUTH-01", Section: "s", Text: "t", Quote: q, Testable: true}, {ID: "AUTH-01", Section: "s", Text: "t", Quote: q, Testable: true}},
		{{ID: "AUTH-01", Section: "s", Text: "t", Quote: q, Testable: false}},
		{{ID: "AUTH-01", Section: "s", Text: "t", Quote: q, Testable: true, Needs: []Capability{"magic"}}},
		{{ID: "AUTH-01", Section: "", Text: "t", Quote: q, Testable: true}},
		{{ID: "AUTH-01", Section: "s", Text: "t", Quote: q, Parts: []string{"only one"}, Testable: true}},
	}
	for i, c := range bad {
		if Validate(c) == nil {
			t.Errorf("case %d: Validate accepted %+v", i, c)
		}
	}
}
