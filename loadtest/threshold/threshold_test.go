package threshold

import (
	"strings"
	"testing"

	"github.com/merchant-harness/mph/loadtest/metrics"
)

func TestParse(t *testing.T) {
	cases := []struct {
		in     string
		ep, m  string
		op     string
		val    float64
		errSub bool
	}{
		{"secure:p99<150ms", "secure", "p99", "<", 150, false},
		{"secure:p99.9<=1.5s", "secure", "p99.9", "<=", 1500, false},
		{"token:success>=99.9%", "token", "success", ">=", 0.999, false},
		{"list:rate429<1%", "list", "rate429", "<", 0.01, false},
		{"list:errors<0.05", "list", "errors", "<", 0.05, false},
		{"all:p50<20", "all", "p50", "<", 20, false},
		{"all:lag-p99<5ms", "all", "lag-p99", "<", 5, false},
		{"all:svc-max<1s", "all", "svc-max", "<", 1000, false},
		{"all:rps>100", "all", "rps", ">", 100, false},
		{"all:achieved>=99%", "all", "achieved", ">=", 0.99, false},
		{" secure : p99 < 150ms ", "secure", "p99", "<", 150, false},
		{"p99<150ms", "", "", "", 0, true},
		{"secure:p99=150ms", "", "", "", 0, true},
		{"secure:p98<150ms", "", "", "", 0, true},
		{"secure:p99<", "", "", "", 0, true},
		{"secure:p99<fast", "", "", "", 0, true},
		{"token:success>=120%", "", "", "", 0, true},
		{"token:success>=-1", "", "", "", 0, true},
		{"token:lag-success>1", "", "", "", 0, true},
		{"secure:p99<-5ms", "", "", "", 0, true},
	}
	for _, c := range cases {
		th, err := Parse(c.in)
		if c.errSub {
			if err == nil {
				t.Errorf("Parse(%q) accepted: %+v", c.in, th)
			}
			continue
		}
		if err != nil {
			t.Errorf("Parse(%q): %v", c.in, err)
			continue
		}
		if th.Endpoint != c.ep || th.Metric != c.m || th.Op != c.op || th.Value < c.val-1e-9 || th.Value > c.val+1e-9 {
			t.Errorf("Parse(%q) = %+v", c.in, th)
		}
	}
	if ts, err := ParseAll([]string{"secure:p99<150ms,token:success>=99%", "list:rate429<1%"}); err != nil || len(ts) != 3 {
		t.Fatalf("ParseAll: %v %d", err, len(ts))
	}
}

func TestEvaluate(t *testing.T) {
	sums := []metrics.Summary{
		{Endpoint: "secure", Requests: 1000, SuccessRatio: 0.995, Rate429: 0.004, ErrorRatio: 0.005, OfferedRate: 100, AchievedRate: 99.5,
			Latency: metrics.LatencyStats{P99: 120, Max: 300}, SendLag: metrics.LatencyStats{P99: 2}},
		{Endpoint: "token", Requests: 0},
		{Endpoint: "list", Requests: 100, SuccessRatio: 0.9, InvalidRatio: 0.1, ErrorRatio: 0.1},
	}
	cases := []struct {
		th   string
		pass bool
	}{
		{"secure:p99<150ms", true},
		{"secure:p99<120ms", false},
		{"secure:p99<=120ms", true},
		{"secure:max<250ms", false},
		{"secure:success>=99.9%", false},
		{"secure:success>=99%", true},
		{"secure:rate429<1%", true},
		{"secure:rate429<0.1%", false},
		{"secure:errors<1%", true},
		{"secure:achieved>=99%", true},
		{"secure:lag-p99<1ms", false},
		{"secure:requests>=1000", true},
		{"token:success>=99%", false}, // no requests measured: fails
		{"other:p99<1s", false},       // endpoint absent: fails
		{"list:invalid<1%", false},
		{"list:invalid<=10%", true},
		{"secure:invalid<0.1%", true},
	}
	for _, c := range cases {
		th, err := Parse(c.th)
		if err != nil {
			t.Fatal(err)
		}
		rs := Evaluate([]Threshold{th}, sums)
		if rs[0].Pass != c.pass {
			t.Errorf("%s: pass=%v want %v (%s)", c.th, rs[0].Pass, c.pass, rs[0].Format())
		}
		if Breached(rs) == c.pass {
			t.Errorf("%s: Breached disagrees", c.th)
		}
	}
}

// Without a success threshold the default 99% gate applies to all; with one,
// only the floor (no pass at 0% success) is added; a run at 0% success
// never passes whatever the user's thresholds say.
func TestWithDefaults(t *testing.T) {
	cases := []struct {
		user     []string
		added    string // "" when nothing is added
		success  float64
		breached bool
	}{
		{nil, DefaultSuccess, 1, false},
		{nil, DefaultSuccess, 0.985, true},
		{nil, DefaultSuccess, 0, true},
		{[]string{"all:p99<1s"}, DefaultSuccess, 0.5, true},
		{[]string{"all:success>=90%"}, "", 0.95, false},
		{[]string{"list:success>=50%"}, successFloor, 0.6, false},
		{[]string{"list:success>=0%"}, successFloor, 0, true},
		{[]string{"all:success>=0%"}, successFloor, 0, true},
		{[]string{"all:success<=100%"}, successFloor, 0, true},
	}
	for _, c := range cases {
		user, err := ParseAll(c.user)
		if err != nil {
			t.Fatal(err)
		}
		got := WithDefaults(user)
		switch {
		case c.added == "" && len(got) != len(user):
			t.Fatalf("%v: added %v", c.user, got[len(user):])
		case c.added != "" && (len(got) != len(user)+1 || got[len(user)].Raw != c.added || !got[len(user)].Default):
			t.Fatalf("%v: got %+v, want %s added", c.user, got, c.added)
		}
		sums := []metrics.Summary{
			{Endpoint: "all", Requests: 100, SuccessRatio: c.success, Latency: metrics.LatencyStats{P99: 5}},
			{Endpoint: "list", Requests: 100, SuccessRatio: c.success, Latency: metrics.LatencyStats{P99: 5}},
		}
		rs := Evaluate(got, sums)
		if Breached(rs) != c.breached {
			t.Errorf("%v at %.1f%% success: breached=%v, want %v", c.user, c.success*100, Breached(rs), c.breached)
		}
		for _, r := range rs {
			if r.Default && !strings.Contains(r.Format(), "[default gate]") {
				t.Errorf("default gate not marked: %s", r.Format())
			}
		}
	}
}
