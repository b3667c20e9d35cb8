package launch

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/merchant-harness/mph/loadtest"
)

// TestPlanOf: the plan refuses what cannot run as asked (a shard without
// a common start, a bad shard or start, negative or closed-model rates
// without a bound), and shards the schedule.
func TestPlanOf(t *testing.T) {
	base := Ask{Scenario: "list", Pace: "constant", Rate: 100, Duration: 10 * time.Second}
	for _, c := range []struct {
		name   string
		change func(*Ask)
		err    string // "" = a plan
	}{
		{"as given", func(*Ask) {}, ""},
		{"a shard without --start-at", func(a *Ask) { a.Shard = "0/2" }, "--shard needs --start-at"},
		{"a shard past the count", func(a *Ask) { a.Shard, a.StartAt = "2/2", "1700000000" }, `--shard "2/2"`},
		{"a start that is no time", func(a *Ask) { a.StartAt = "tomorrow" }, `--start-at "tomorrow"`},
		{"a negative warm-up", func(a *Ask) { a.Warmup = -time.Second }, "--warmup must be >= 0"},
		{"a negative rate", func(a *Ask) { a.Rate = -1 }, "--rate must be >= 0"},
		{"rate 0 without --max-workers", func(a *Ask) { a.Rate = 0 }, "needs --max-workers"},
		{"a bad threshold", func(a *Ask) { a.Thresholds = []string{"list:p99<"} }, "list:p99<"},
	} {
		a := base
		c.change(&a)
		_, err := PlanOf(a)
		if (err == nil) != (c.err == "") || (err != nil && !strings.Contains(err.Error(), c.err)) {
			t.Errorf("%s: %v, want an error saying %q", c.name, err, c.err)
		}
	}
	a := base
	a.Shard, a.StartAt = "1/4", "2026-01-02T15:04:05Z"
	p, err := PlanOf(a)
	if err != nil || p.Shard != 1 || p.Shards != 4 || p.StartAt.IsZero() {
		t.Fatalf("shard 1/4: %+v, %v", p, err)
	}
	if got := p.Sched.Rate(0); got != 25 {
		t.Errorf("shard 1/4 of 100/s sends %v/s, want 25", got)
	}
	if got := p.MetricsRunID("list", "mphrun"); got != "list-20260102T150405Z" {
		t.Errorf("run_id with a start: %q", got)
	}
	if got := (Plan{}).MetricsRunID("list", "mphrun"); got != "mphrun" {
		t.Errorf("run_id without a start: %q", got)
	}
	if out := p.OutDir("list"); !strings.HasSuffix(out, "-list-shard1of4") {
		t.Errorf("out dir of shard 1/4: %s", out)
	}
}

// TestRunSpec: the attack takes the target's timeout and the keep-alive
// choice; the raw results file is results.bin in out, or none.
func TestRunSpec(t *testing.T) {
	a := Ask{Scenario: "list", Workers: 3, NoKeepAlive: true, AbortOnBreach: true}
	tg := &loadtest.Target{Timeout: 7 * time.Second}
	out := t.TempDir()
	spec, path, err := a.RunSpec(nil, tg, Plan{}, out)
	if err != nil || path != filepath.Join(out, "results.bin") || spec.Results == nil {
		t.Fatalf("results file: %q, %v", path, err)
	}
	spec.Results.(*os.File).Close()
	if spec.Attack.Timeout != 7*time.Second || spec.Attack.Workers != 3 || spec.Attack.KeepAlive == nil || *spec.Attack.KeepAlive || !spec.AbortOnBreach {
		t.Errorf("attack: %+v", spec.Attack)
	}
	a.NoResults = true
	if spec, path, err := a.RunSpec(nil, tg, Plan{}, out); err != nil || path != "" || spec.Results != nil {
		t.Errorf("--no-results: %q, %v", path, err)
	}
}
