package sandbox

import (
	"fmt"
	"strings"
	"testing"

	"github.com/merchant-harness/mph/requirements"
	"github.com/merchant-harness/mph/sandbox/fault"
)

// TestFaultCatalogueEntries checks every fault of the catalogue: a unique
// kebab-case name, a description, requirement IDs that exist in
// requirements/catalog.yaml (and are testable: a fault of an untestable rule
// could never be killed), and that it can be selected on its own.
func TestFaultCatalogueEntries(t *testing.T) {
	fs := fault.All()
	if len(fs) < 60 {
		t.Errorf("the catalogue has %d faults, issue 4 wants at least 60", len(fs))
	}
	seen := map[string]bool{}
	for _, f := range fs {
		if seen[f.Name] {
			t.Errorf("duplicate fault name %q", f.Name)
		}
		seen[f.Name] = true
		if f.Name != strings.ToLower(f.Name) || strings.ContainsAny(f.Name, " _") || strings.Trim(f.Name, "-") != f.Name {
			t.Errorf("fault name %q is not kebab-case", f.Name)
		}
		if strings.TrimSpace(f.Description) == "" {
			t.Errorf("fault %s has no description", f.Name)
		}
		if len(f.Requirements) == 0 {
			t.Errorf("fault %s names no requirement", f.Name)
		}
		for _, id := range f.Requirements {
			r, ok := requirements.Lookup(id)
			if !ok {
				t.Errorf("fault %s names unknown requirement %s", f.Name, id)
			} else if !r.Testable {
				t.Errorf("fault %s names untestable requirement %s", f.Name, id)
			}
		}
		s, err := New(Options{Faults: []string{f.Name}})
		if err != nil {
			t.Errorf("fault %s cannot be selected: %v", f.Name, err)
			continue
		}
		if s.faults == (fault.Set{}) {
			t.Errorf("selecting fault %s sets no fault", f.Name)
		}
	}
	// Each fault sets its own flag: no two faults select the same behaviour.
	byFlags := map[fault.Set]string{}
	for _, f := range fs {
		s, err := New(Options{Faults: []string{f.Name}})
		if err != nil {
			continue
		}
		if other, dup := byFlags[s.faults]; dup {
			t.Errorf("faults %s and %s set the same flags", other, f.Name)
		}
		byFlags[s.faults] = f.Name
	}
	if s, err := New(Options{}); err != nil || s.faults != (fault.Set{}) {
		t.Errorf("a sandbox without faults has faults set (%v)", err)
	}
}

func setupCard(h *sbx, amount string) (tok, id string) {
	tok = h.token(alpha, alphaTest)
	return tok, h.card(tok, h.customer(tok), amount).s("data.id")
}

func txnApproved(h *sbx, id, amount string) bool {
	return h.ctl("POST", "/cards/"+id+"/transactions", `{"amount":`+amount+`}`).want(200).get("approved") == true
}

func msgOf(r *resp) string {
	if !r.has("message") {
		return ""
	}
	return fmt.Sprint(r.get("message"))
}

const giftBody = `{"amount":5,"recipientEmail":"a@b.co","recipientName":"A","reference":%q}`
