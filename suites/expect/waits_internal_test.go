package expect

import (
	"testing"
	"time"

	"github.com/onsi/gomega"
)

func TestDayTurnsIn(t *testing.T) {
	at := func(s string) time.Time {
		v, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, c := range []struct {
		zone  string
		now   string
		d     time.Duration
		turns bool
	}{
		{"UTC", "2026-11-25T23:59:30Z", time.Minute, true},
		{"UTC", "2026-11-25T12:00:00Z", time.Minute, false},
		{"Asia/Kolkata", "2026-11-25T18:29:30Z", time.Minute, true}, // 23:59:30 +05:30
		{"Asia/Kolkata", "2026-11-25T23:59:30Z", time.Minute, false},
		{"", "2026-11-25T12:14:30Z", time.Minute, true}, // midnight at +11:45 (Chatham)
		{"", "2026-11-25T12:05:00Z", time.Minute, false},
		{"", "2026-11-25T09:44:30Z", time.Minute, true}, // midnight at UTC-09:45 (15-minute steps)
		{"", "2026-11-25T12:05:00Z", 10 * time.Minute, true},
	} {
		if got := dayTurnsIn(c.zone, at(c.now), c.d); got != c.turns {
			t.Errorf("dayTurnsIn(%q, %s, %s) = %v", c.zone, c.now, c.d, got)
		}
	}
}

// freshOnce reads a check's first failed g.Expect as "not yet" and lets
// anything else through.
func TestFreshOnce(t *testing.T) {
	if msg := freshOnce(func(g gomega.Gomega) { g.Expect(1).To(gomega.Equal(1)) }); msg != "" {
		t.Errorf("a passing check: %q", msg)
	}
	if msg := freshOnce(func(g gomega.Gomega) { g.Expect(1).To(gomega.Equal(2)); t.Error("went on after a failure") }); msg == "" {
		t.Error("a failing check passed")
	}
	defer func() {
		if r := recover(); r != "boom" {
			t.Errorf("another panic was swallowed: %v", r)
		}
	}()
	freshOnce(func(gomega.Gomega) { panic("boom") })
}
