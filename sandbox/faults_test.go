package sandbox

import (
	"fmt"
	"testing"

	"github.com/merchant-harness/mph/sandbox/fault"
)

// probes observe, through the public API only, the rule each fault breaks.
// A probe returns true when it sees the violation. Every fault of the
// catalogue must have a probe that passes on the clean sandbox and fails with
// the fault injected: that proves both the fault and the probe are real.
// Each area's probes are in faults_<area>_test.go.
var probes = map[string]func(h *sbx) bool{}

func addProbes(m map[string]func(h *sbx) bool) bool {
	for name, p := range m {
		if probes[name] != nil {
			panic("two probes for fault " + name)
		}
		probes[name] = p
	}
	return true
}

func TestFaultCatalogue(t *testing.T) {
	fs := fault.All()
	if len(fs) < 5 {
		t.Fatalf("catalogue has %d faults", len(fs))
	}
	seen := map[string]bool{}
	for i, f := range fs {
		if f.Name == "" || f.Area == "" || f.Description == "" || len(f.Requirements) == 0 || seen[f.Name] {
			t.Errorf("bad or duplicate entry %+v", f)
		}
		if i > 0 && fs[i-1].Name >= f.Name {
			t.Errorf("catalogue not sorted at %s", f.Name)
		}
		seen[f.Name] = true
		if probes[f.Name] == nil {
			t.Errorf("fault %s has no probe", f.Name)
		}
	}
	if _, err := New(Options{Faults: []string{"no-such-fault"}}); err == nil {
		t.Fatal("unknown fault accepted")
	}
}

func TestFaultsBreakTheirRule(t *testing.T) {
	for _, f := range fault.All() {
		probe := probes[f.Name]
		if probe == nil {
			continue
		}
		t.Run(f.Name, func(t *testing.T) {
			if probe(newSbx(t, Options{})) {
				t.Fatalf("clean sandbox violates the rule of %s", f.Name)
			}
			h := newSbx(t, Options{Faults: []string{f.Name}})
			if !probe(h) {
				t.Fatalf("fault %s injected but not observable", f.Name)
			}
			if got := h.raw("GET", "/_sandbox/capabilities", "").list("faults"); fmt.Sprint(got) != "["+f.Name+"]" {
				t.Fatalf("capabilities faults: %v", got)
			}
		})
	}
}
