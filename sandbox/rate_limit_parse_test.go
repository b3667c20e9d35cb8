package sandbox

import (
	"testing"

	"github.com/merchant-harness/mph/sandbox/ratelimit"
)

func TestParseRateLimit(t *testing.T) {
	for spec, want := range map[string]ratelimit.Limit{
		"secure=20":    {Rate: 20},
		"secure=20:5":  {Rate: 20, Burst: 5},
		"token=0.5:1":  {Rate: 0.5, Burst: 1},
		"read=0":       {Rate: 0},
		"write=1000:1": {Rate: 1000, Burst: 1},
	} {
		if _, got, err := ratelimit.Parse(spec); err != nil || got != want {
			t.Errorf("ratelimit.Parse(%q) = %+v, %v; want %+v", spec, got, err, want)
		}
	}
	for _, bad := range []string{"secure", "nope=5", "secure=x", "secure=-1", "secure=5:0", "secure=5:x", "secure=1e12"} {
		if _, _, err := ratelimit.Parse(bad); err == nil {
			t.Errorf("ratelimit.Parse(%q) accepted", bad)
		}
	}
}
