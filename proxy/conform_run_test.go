package proxy_test

import (
	"strings"
	"testing"

	"github.com/merchant-harness/mph/proxy/session"
)

// TestConformRunThroughProxy: the whole suite passes through the proxy
// against the clean sandbox, with zero server-side violations; the
// harness's own deliberate client mistakes (missing bearer, other schemes,
// 429 probes...) show as client-side ones. Every API exchange of
// the run is then validated against the OpenAPI document.
func TestConformRunThroughProxy(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the whole conformance suite")
	}
	snap, seen, log := conformThroughProxy(t)
	if snap.Server != 0 {
		var lines []string
		for _, l := range strings.Split(log, "\n") {
			if strings.Contains(l, " server ") {
				lines = append(lines, l)
			}
		}
		t.Fatalf("%d server-side violations on the clean sandbox:\n%s", snap.Server, strings.Join(lines, "\n"))
	}
	if snap.Exchanges < 500 {
		t.Fatalf("only %d exchanges went through the proxy", snap.Exchanges)
	}
	for _, want := range []string{"AUTH-09", "AUTH-10"} {
		if countBy(snap, session.Client)[want] == 0 {
			t.Errorf("the suite's deliberate %s client mistakes were not reported", want)
		}
	}
	t.Logf("%d exchanges, %d client-side violations by rule %v", snap.Exchanges, snap.Client, countBy(snap, session.Client))
	validateAgainstOpenAPI(t, seen)
}
