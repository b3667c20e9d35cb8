package buildinfo

import "testing"

// TestVersionString: a version given at build time wins and is followed
// by the short revision unless it names it; without one, devel.
func TestVersionString(t *testing.T) {
	if got := Read("v1.2.3"); got.Version != "v1.2.3" || got.GoVersion == "" {
		t.Errorf("Read(v1.2.3): %+v", got)
	}
	if got := Read("").Version; got == "" {
		t.Error("Read(\"\"): no version")
	}
	for _, c := range []struct {
		bi   Info
		want string
	}{
		{Info{Version: "v1.2.3"}, "v1.2.3"},
		{Info{Version: "v1.2.3", Revision: "0123456789abcdef"}, "v1.2.3 (0123456789ab)"},
		{Info{Version: "devel+0123456789ab-dirty", Revision: "0123456789abcdef"}, "devel+0123456789ab-dirty"},
	} {
		if got := c.bi.String(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.bi, got, c.want)
		}
	}
}
