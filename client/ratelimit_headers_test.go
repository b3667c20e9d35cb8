package client

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Every header convention the gate reads: the hold it asks for after a 429
// and the spacing it states.
func TestReadLimitHeaders(t *testing.T) {
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name     string
		h        map[string]string
		hold     time.Duration
		holdOK   bool
		pace     time.Duration
		holdFrom string
	}{
		{"retry-after seconds", map[string]string{"Retry-After": "7"}, 7 * time.Second, true, 0, "Retry-After: 7"},
		{"retry-after http-date", map[string]string{"Retry-After": now.Add(90 * time.Second).Format(http.TimeFormat)}, 90 * time.Second, true, 0, "Retry-After"},
		{"retry-after in the past", map[string]string{"Retry-After": now.Add(-time.Hour).Format(http.TimeFormat)}, 0, true, 0, "Retry-After"},
		{"retry-after garbage", map[string]string{"Retry-After": "soon"}, 0, false, 0, ""},
		{"x-ratelimit reset in seconds", map[string]string{"X-RateLimit-Limit": "200", "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "1"}, time.Second, true, 5 * time.Millisecond, "X-RateLimit-Reset"},
		{"x-ratelimit reset as unix time", map[string]string{"X-RateLimit-Limit": "60", "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": strconv.FormatInt(now.Add(30*time.Second).Unix(), 10)}, 30 * time.Second, true, 500 * time.Millisecond, "X-RateLimit-Reset"},
		{"x-ratelimit with remaining left", map[string]string{"X-RateLimit-Limit": "60", "X-RateLimit-Remaining": "5", "X-RateLimit-Reset": "30"}, 0, false, 0, ""},
		{"ietf draft: RateLimit-Limit/-Remaining/-Reset", map[string]string{"RateLimit-Limit": "100", "RateLimit-Remaining": "0", "RateLimit-Reset": "50"}, 50 * time.Second, true, 500 * time.Millisecond, "RateLimit-Reset"},
		{"ietf draft: policy in RateLimit-Limit", map[string]string{"RateLimit-Limit": "10, 10;w=1, 50;w=60", "RateLimit-Remaining": "0", "RateLimit-Reset": "1"}, time.Second, true, 1200 * time.Millisecond, "RateLimit-Reset"},
		{"ietf draft: RateLimit limit=, remaining=, reset=", map[string]string{"RateLimit": "limit=100, remaining=0, reset=50"}, 50 * time.Second, true, 500 * time.Millisecond, "RateLimit"},
		{"ietf draft: structured RateLimit and RateLimit-Policy", map[string]string{"RateLimit": `"default";r=0;t=30`, "RateLimit-Policy": `"default";q=100;w=60`}, 30 * time.Second, true, 600 * time.Millisecond, "RateLimit"},
		{"ietf draft: policy alone", map[string]string{"RateLimit-Policy": "100;w=60"}, 0, false, 600 * time.Millisecond, ""},
		{"retry-after wins over reset", map[string]string{"Retry-After": "60", "X-RateLimit-Limit": "200", "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "1"}, time.Minute, true, 5 * time.Millisecond, "Retry-After: 60"},
		{"nothing", map[string]string{"X-Other": "1"}, 0, false, 0, ""},
		{"absurd numbers", map[string]string{"Retry-After": "99999999999", "RateLimit-Policy": "0;w=60"}, 24 * time.Hour, true, 0, "Retry-After"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := http.Header{}
			for k, v := range tc.h {
				h.Set(k, v)
			}
			li := readLimitHeaders(h, now)
			hold, why, ok := li.hold()
			if ok != tc.holdOK || hold != tc.hold {
				t.Errorf("hold = %s, %v (%s); want %s, %v", hold, ok, why, tc.hold, tc.holdOK)
			}
			if ok && !strings.Contains(why, tc.holdFrom) {
				t.Errorf("hold reason %q does not name %q", why, tc.holdFrom)
			}
			if p := li.pace(); p != tc.pace {
				t.Errorf("pace = %s, want %s", p, tc.pace)
			}
		})
	}
}
