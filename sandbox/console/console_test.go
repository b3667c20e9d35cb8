package console

import (
	"fmt"
	"strings"
	"testing"

	"github.com/merchant-harness/mph/sandbox/fault"
	"github.com/merchant-harness/mph/sandbox/variant"
)

// TestListsNameEveryEntry: --list-faults has a line per fault with the
// requirements it breaks, --list-variants every setting and the count of
// those besides the references.
func TestListsNameEveryEntry(t *testing.T) {
	var b strings.Builder
	Faults(&b)
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != len(fault.All())+1 {
		t.Errorf("%d lines for %d faults and the header", len(lines), len(fault.All()))
	}
	for i, f := range fault.All() {
		if fs := strings.Fields(lines[i+1]); fs[0] != f.Name || fs[1] != strings.Join(f.Requirements, ",") {
			t.Errorf("line %d: %q, want %s breaking %v", i+1, lines[i+1], f.Name, f.Requirements)
		}
	}
	b.Reset()
	Variants(&b)
	for _, v := range variant.Variants() {
		if !strings.Contains(b.String(), "  "+v.Name+": ") {
			t.Errorf("setting %s not listed", v.Name)
		}
	}
	if want := fmt.Sprintf("%d dimensions, %d settings besides the references", len(variant.Dimensions()), len(variant.Variants())); !strings.Contains(b.String(), want) {
		t.Errorf("no %q in the listing's last line", want)
	}
}
