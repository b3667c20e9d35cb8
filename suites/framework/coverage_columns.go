package framework

import "sort"

// Setting is what a target must offer for a spec to run: the columns of
// `mph conform --coverage`.
type Setting int

// Settings, from the plainest target to the reference sandbox.
const (
	PlainTest      Setting = iota // one TEST merchant, nothing else
	SecondMerchant                // plus a second TEST merchant
	LiveCreds                     // plus LIVE credentials (Tier 2+, below Tier 2, outside the whitelist)
	ControlsOnly                  // only with sandbox test controls
)

// SettingNames are the column titles.
var SettingNames = [...]string{"plain TEST", "+2nd merchant", "+LIVE", "controls only"}

// SettingOf is the least target on which a declared spec runs: any sandbox
// control makes it ControlsOnly, LIVE credentials LiveCreds, a second
// merchant SecondMerchant; a webhook receiver or TEST credentials ask
// nothing of the target beyond a plain TEST server.
func SettingOf(d Declaration) Setting {
	s := PlainTest
	for _, n := range d.Needs {
		switch {
		case n.IsControl():
			return ControlsOnly
		case n == CapLiveTier2 || n == CapLiveLowKYB || n == CapNotWhitelisted:
			s = max(s, LiveCreds)
		case n == CapSecondMerchant:
			s = max(s, SecondMerchant)
		}
	}
	return s
}

// CoverageColumns maps each requirement ID to the spec texts covering it,
// per setting (from the declarations of the built spec tree).
func CoverageColumns() map[string][4][]string {
	out := map[string][4][]string{}
	for _, d := range Declarations() {
		s := SettingOf(d)
		for _, id := range d.Reqs {
			c := out[id]
			c[s] = append(c[s], d.Text)
			out[id] = c
		}
	}
	for id, c := range out {
		for i := range c {
			sort.Strings(c[i])
		}
		out[id] = c
	}
	return out
}
