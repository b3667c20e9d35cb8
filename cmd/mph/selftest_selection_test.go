package main

import (
	"encoding/json"
	"testing"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/merchant-harness/mph/sandbox/fault"
	"github.com/merchant-harness/mph/selftest"
	"github.com/merchant-harness/mph/suites/listing"
)

// TestEveryFaultSelectsSpecs: the self-test runs each fault against the
// specs citing its requirements (selftest.FaultSelection); every fault of
// the catalogue must select at least one spec, or its run could not kill it.
func TestEveryFaultSelectsSpecs(t *testing.T) {
	r := gateRun(t, nil, 0, 0, "conform", "--list", "--json")
	expectCode(t, "conform --list --json", r, 0)
	var specs []listing.Spec
	if err := json.Unmarshal([]byte(r.stdout), &specs); err != nil || len(specs) < 100 {
		t.Fatalf("--list --json: %v (%d specs)", err, len(specs))
	}
	for _, f := range fault.All() {
		sel := selftest.FaultSelection(f)
		match, err := types.ParseLabelFilter(sel)
		if err != nil {
			t.Errorf("fault %s: selection %q: %v", f.Name, sel, err)
			continue
		}
		n := 0
		for _, s := range specs {
			if match(s.Labels) {
				n++
			}
		}
		if n == 0 || n == len(specs) {
			t.Errorf("fault %s: selection %q selects %d of %d specs", f.Name, sel, n, len(specs))
		}
	}
}
