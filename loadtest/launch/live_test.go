package launch

import (
	"strings"
	"testing"
	"time"

	"github.com/merchant-harness/mph/loadtest"
)

// TestLiveCheck: a receiver must be an http(s) URL with a host, pushed at
// most every 100ms; the URL shown has no password.
func TestLiveCheck(t *testing.T) {
	strip := func(s string) string { return strings.Replace(s, "u:pw0rd-secret-1234@", "", 1) }
	for _, c := range []struct {
		url      string
		interval time.Duration
		err      string
	}{
		{"", 0, ""},
		{"http://u:pw0rd-secret-1234@prom:9090/api/v1/write", time.Second, ""},
		{"ftp://prom/write", time.Second, "want an http(s) URL"},
		{"http:///write", time.Second, "want an http(s) URL"},
		{"https://prom/write", 10 * time.Millisecond, "at least 100ms"},
	} {
		l := NewLive(c.url, c.interval, strip)
		err := l.Check()
		if (err == nil) != (c.err == "") || (err != nil && !strings.Contains(err.Error(), c.err)) {
			t.Errorf("%q every %s: %v, want %q", c.url, c.interval, err, c.err)
		}
		if strings.Contains(l.Shown, "pw0rd") {
			t.Errorf("%q is shown as %q", c.url, l.Shown)
		}
	}
	labels := Live{}.Labels("list", Plan{Shard: 1, Shards: 2}, &loadtest.Target{RunID: "mphrun"})
	if labels.RunID != "mphrun" || labels.Shard != "1/2" {
		t.Errorf("labels: %+v", labels)
	}
	if p := (Live{}).Start(labels); p != nil {
		t.Error("a pusher without a URL")
	}
}
