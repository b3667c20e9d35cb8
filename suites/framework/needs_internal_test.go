package framework

import (
	"strings"
	"testing"
)

// The catalogue gives ISO-01 [second-merchant] and AUTH-12 [sandbox-controls].
func TestUnmetNeeds(t *testing.T) {
	for _, tc := range []struct {
		name  string
		decls []Declaration
		unmet []string // requirement IDs reported
	}{
		{"declared", []Declaration{{Reqs: []string{"ISO-01"}, Needs: []Capability{CapSecondMerchant}}}, nil},
		{"not declared", []Declaration{{Reqs: []string{"ISO-01"}}}, []string{"ISO-01"}},
		{"a wrong capability", []Declaration{{Reqs: []string{"ISO-01"}, Needs: []Capability{CapLiveTier2}}}, []string{"ISO-01"}},
		{"one spec of several declares it", []Declaration{
			{Reqs: []string{"ISO-01"}},
			{Reqs: []string{"ISO-01"}, Needs: []Capability{CapSecondMerchant, CapClock}},
		}, nil},
		{"a named control meets the controls", []Declaration{{Reqs: []string{"AUTH-12"}, Needs: []Capability{CapClock}}}, nil},
		{"one of two requirements unmet", []Declaration{{Reqs: []string{"AUTH-12", "ISO-01"}, Needs: []Capability{CapSandboxControls}}}, []string{"ISO-01"}},
		{"no needs, unknown ID", []Declaration{{Reqs: []string{"AUTH-09", "NOPE-01"}}}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := unmetNeeds(tc.decls)
			if len(got) != len(tc.unmet) {
				t.Fatalf("got %v, want problems for %v", got, tc.unmet)
			}
			for i, id := range tc.unmet {
				if !strings.HasPrefix(got[i], id+" needs ") {
					t.Errorf("problem %q, want one about %s", got[i], id)
				}
			}
		})
	}
}
