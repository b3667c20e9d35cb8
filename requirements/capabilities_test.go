package requirements

import "testing"

func TestCapabilityVocabulary(t *testing.T) {
	for _, tc := range []struct {
		c       Capability
		known   bool
		control string // the name /_sandbox/capabilities lists
		isCtl   bool
	}{
		{CapSandboxControls, true, "", true},
		{CapClock, true, "clock", true},
		{CapIPWhitelistCtl, true, "ip-whitelist", true},
		{CapSecondMerchant, true, "", false},
		{CapTestEnvironment, true, "", false},
		{"teleport", false, "", false},
	} {
		name, ok := tc.c.Control()
		if tc.c.Known() != tc.known || name != tc.control || ok != (tc.control != "") || tc.c.IsControl() != tc.isCtl {
			t.Errorf("%s: known %v control %q/%v isControl %v", tc.c, tc.c.Known(), name, ok, tc.c.IsControl())
		}
	}
	if !CapClock.Implies(CapSandboxControls) || CapSandboxControls.Implies(CapClock) || CapSecondMerchant.Implies(CapSandboxControls) || !CapLiveTier2.Implies(CapLiveTier2) {
		t.Error("Implies: a named control implies the controls, nothing else but itself")
	}
	seen := map[string]bool{}
	for _, c := range Capabilities() {
		if n, ok := c.Control(); ok && seen[n] {
			t.Errorf("control name %q used twice", n)
		} else {
			seen[n] = true
		}
	}
	if len(Capabilities()) != 14 {
		t.Errorf("%d capabilities, want the 14 of the vocabulary", len(Capabilities()))
	}
}
