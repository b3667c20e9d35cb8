package options

import (
	"strings"
	"testing"

	"github.com/merchant-harness/mph/sandbox/ratelimit"
	"github.com/merchant-harness/mph/sandbox/variant"
)

func TestRateLimitsAndPresets(t *testing.T) {
	rl, off, err := RateLimits([]string{"secure=20:5", "off"})
	if err != nil || !off || rl["secure"].Burst != 5 {
		t.Errorf("secure=20:5 and off: %v %v %v", rl, off, err)
	}
	if _, _, err := RateLimits([]string{"secure"}); err == nil || !strings.HasPrefix(err.Error(), "--rate-limit ") {
		t.Errorf("a value without a rate: %v", err)
	}
	if _, err := EmbeddedLimits(false, nil, "", "ip"); err == nil || !strings.Contains(err.Error(), `--sandbox-rate-limit-key "ip"`) {
		t.Errorf("an unknown bucket key: %v", err)
	}
	sbx, err := EmbeddedLimits(true, []string{"read=50"}, "read+secure", ratelimit.KeyToken)
	if err != nil || !sbx.DisableRateLimits || sbx.RateLimits["read"].Rate != 50 || sbx.RateLimitTopology.Key != ratelimit.KeyToken {
		t.Errorf("embedded limits: %+v %v", sbx, err)
	}
	ps, err := WebhookPresets([]string{"m1=http://h/a"}, []string{"m1=s3cret"})
	if err != nil || len(ps) != 1 || ps[0].Secret != "s3cret" {
		t.Errorf("a preset with its secret: %+v %v", ps, err)
	}
	for _, c := range []struct {
		urls, keys []string
		says       string
	}{
		{[]string{"http://h/a"}, nil, "want MERCHANT=URL"},
		{nil, []string{"m1"}, "want MERCHANT=SECRET"},
		{nil, []string{"m1=s"}, "--webhook-secret for m1 without a --webhook-url"},
	} {
		if _, err := WebhookPresets(c.urls, c.keys); err == nil || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%v %v: %v, want %q", c.urls, c.keys, err, c.says)
		}
	}
}

// TestDrawn: a seed draws a setting of every dimension no named setting
// belongs to, and no reference.
func TestDrawn(t *testing.T) {
	all, err := Drawn(7, nil)
	if err != nil || len(all) == 0 {
		t.Fatalf("seed 7: %v %v", all, err)
	}
	v, _ := variant.Lookup(all[0])
	some, err := Drawn(7, []string{all[0]})
	if err != nil || len(some) != len(all)-1 {
		t.Errorf("seed 7 beside %s: %v %v", all[0], some, err)
	}
	for _, n := range some {
		if w, _ := variant.Lookup(n); w.Dimension == v.Dimension || w.Reference {
			t.Errorf("seed 7 beside %s drew %s", all[0], n)
		}
	}
	if _, err := Drawn(7, []string{"no-such"}); err == nil || !strings.Contains(err.Error(), `unknown variant "no-such"`) {
		t.Errorf("an unknown setting: %v", err)
	}
}
