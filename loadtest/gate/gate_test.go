package gate

import (
	"strings"
	"testing"

	"github.com/merchant-harness/mph/loadtest/summary"
	"github.com/merchant-harness/mph/loadtest/threshold"
)

// TestProbeBreaches: a probe fails on the 429s that break RATE-02 (a
// gateway's 429s and a path without a limit do not), in a path or in the
// topology, saying where and the first reason, on one line.
func TestProbeBreaches(t *testing.T) {
	path := func(seen, envelope, gateway uint64, errs ...string) summary.PathProbe {
		return summary.PathProbe{Endpoint: "list", LimitFound: seen > 0, RATE02: summary.Judged429{Seen: seen, Envelope: envelope,
			Gateway: gateway, Broken: seen - envelope - gateway, Reasons: errs}}
	}
	topo := func(broken uint64) *summary.Topology {
		return &summary.Topology{RATE02: summary.Judged429{Seen: 50, Envelope: 50 - broken, Broken: broken, Reasons: []string{"statusCode is not 429"}}}
	}
	for _, c := range []struct {
		name string
		rep  *summary.ProbeReport
		says string // "" = no breach
	}{
		{"no probe", nil, ""},
		{"no limit found", &summary.ProbeReport{Paths: []summary.PathProbe{path(0, 0, 0)}}, ""},
		{"every envelope valid", &summary.ProbeReport{Paths: []summary.PathProbe{path(20, 20, 0)}, Topology: topo(0)}, ""},
		{"a gateway's 429s", &summary.ProbeReport{Paths: []summary.PathProbe{path(20, 5, 15)}}, ""},
		{"one envelope broken", &summary.ProbeReport{Paths: []summary.PathProbe{path(20, 20, 0), path(20, 19, 0, "statusCode is not\n429")}},
			"list: 1 of 20 429 answers break the error envelope (RATE-02) (first: statusCode is not 429)"},
		{"broken in the topology", &summary.ProbeReport{Paths: []summary.PathProbe{path(20, 20, 0)}, Topology: topo(2)},
			"topology: 2 of 50 429 answers break the error envelope (RATE-02) (first: statusCode is not 429)"},
	} {
		if got := ProbeBreaches(c.rep); got != c.says {
			t.Errorf("%s: %q, want %q", c.name, got, c.says)
		}
	}
}

// TestUnmeasurable: a threshold on an endpoint the scenario never sends
// to is refused, naming what it sends; "all" and the scenario's own
// endpoints pass.
func TestUnmeasurable(t *testing.T) {
	ths, err := threshold.ParseAll([]string{"all:success>=99%", "secure:p99<150ms"})
	if err != nil {
		t.Fatal(err)
	}
	if err := Unmeasurable(ths, "secure", []string{"secure"}); err != nil {
		t.Errorf("secure's own endpoint: %v", err)
	}
	err = Unmeasurable(ths, "list", []string{"list", "token"})
	if err == nil || !strings.Contains(err.Error(), "scenario list never sends secure requests (it sends list, token)") {
		t.Errorf("an endpoint list never sends to: %v", err)
	}
}
