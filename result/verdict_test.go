package result

import "testing"

// TestVerdict: the reason matches the exit code: none for 0, the failures
// before the harness errors, the waived specs that now pass only under
// --strict-waivers.
func TestVerdict(t *testing.T) {
	for _, c := range []struct {
		name   string
		s      Summary
		strict bool
		want   string
	}{
		{"all passed", Summary{}, false, ""},
		{"interrupted", Summary{Interrupted: true, Failed: 1}, false, "interrupted"},
		{"failures", Summary{Failed: 2, HarnessErrors: 1}, false, "2 failed, 1 harness errors"},
		{"fixed waivers, strict", Summary{FixedWaivers: []string{"a.b"}}, true, "1 waived specs now pass (--strict-waivers): remove their waivers"},
		{"fixed waivers, lenient", Summary{FixedWaivers: []string{"a.b"}}, false, ""},
		{"harness errors", Summary{HarnessErrors: 1, SuiteErrors: []string{"x"}}, false, "nothing failed, but 2 checks could not run (harness errors)"},
	} {
		if got := c.s.Verdict(c.strict); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}
