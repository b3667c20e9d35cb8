package framework

import "testing"

func TestSettingOfIsTheLeastTargetASpecRunsOn(t *testing.T) {
	cases := []struct {
		needs []Capability
		want  Setting
	}{
		{nil, PlainTest},
		{[]Capability{CapTestEnvironment, CapWebhookReceiver}, PlainTest},
		{[]Capability{CapSecondMerchant}, SecondMerchant},
		{[]Capability{CapSecondMerchant, CapLiveTier2}, LiveCreds},
		{[]Capability{CapNotWhitelisted}, LiveCreds},
		{[]Capability{CapLiveTier2, CapClock}, ControlsOnly},
		{[]Capability{CapSecondMerchant, CapIPWhitelistCtl}, ControlsOnly},
		{[]Capability{CapSandboxControls}, ControlsOnly},
	}
	for _, c := range cases {
		if got := SettingOf(Declaration{Needs: c.needs}); got != c.want {
			t.Errorf("SettingOf(%v) = %s, want %s", c.needs, SettingNames[got], SettingNames[c.want])
		}
	}
}
