// Package launch turns what a load command asks for into the engine's
// inputs and states it in the report: the target from the resolved
// configuration, a timed run's plan (thresholds, shard, start, schedule),
// the run's report, and the rate-limit probe over a scenario's paths. It
// holds no flag, exit code or signal (cmd/mph has those), and renders
// nothing.
package launch

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/merchant-harness/mph/httpclient"
	"github.com/merchant-harness/mph/loadtest"
	"github.com/merchant-harness/mph/loadtest/pacer"
	"github.com/merchant-harness/mph/loadtest/summary"
	"github.com/merchant-harness/mph/loadtest/threshold"
)

// Ask is what a timed run's knobs ask for, as given.
type Ask struct {
	Scenario             string
	Thresholds           []string
	Shard, StartAt, Pace string
	Rate                 float64
	Duration, Warmup     time.Duration
	Workers, MaxWorkers  uint64
	Connections          int
	MaxConnections       int
	HTTP2, H2C           bool
	NoKeepAlive          bool
	AbortOnBreach        bool
	NoResults            bool // no raw results file
}

// Attack are the attack's options: its workers and connections, with the
// target's request timeout and TLS choice.
func (a Ask) Attack(timeout time.Duration, insecureTLS bool) loadtest.AttackOptions {
	o := loadtest.AttackOptions{Workers: a.Workers, MaxWorkers: a.MaxWorkers, LoadOptions: httpclient.LoadOptions{
		Connections: a.Connections, MaxConnections: a.MaxConnections, HTTP2: a.HTTP2, H2C: a.H2C, Timeout: timeout, InsecureTLS: insecureTLS,
	}}
	if a.NoKeepAlive {
		ka := false
		o.KeepAlive = &ka
	}
	return o
}

// Plan is a timed run's plan: thresholds, shard and this shard's schedule.
type Plan struct {
	Thresholds    []threshold.Threshold
	Shard, Shards int
	StartAt       time.Time
	Sched         *pacer.Schedule
}

// PlanOf validates the ask and builds this shard's schedule; its errors
// are the user's (usage).
func PlanOf(a Ask) (Plan, error) {
	var p Plan
	ths, err := threshold.ParseAll(a.Thresholds)
	if err != nil {
		return p, err
	}
	p.Thresholds = threshold.WithDefaults(ths)
	if p.Shard, p.Shards, err = parseShard(a.Shard); err != nil {
		return p, err
	}
	if p.StartAt, err = parseStartAt(a.StartAt); err != nil {
		return p, err
	}
	switch {
	case p.Shards > 1 && p.StartAt.IsZero():
		return p, errors.New("--shard needs --start-at so that the shards' schedules line up")
	case a.Warmup < 0:
		return p, errors.New("--warmup must be >= 0")
	case a.Rate < 0:
		return p, errors.New("--rate must be >= 0")
	case a.Rate == 0 && a.MaxWorkers == 0:
		return p, errors.New("--rate 0 (as fast as possible, closed model) needs --max-workers, like vegeta's -rate=0")
	}
	sched, err := pacer.Parse(a.Pace, a.Rate, a.Duration)
	if err != nil {
		return p, err
	}
	p.Sched = sched.WithWarmup(sched.GlobalRate(0), a.Warmup)
	if p.Shards > 1 {
		if p.Sched, err = p.Sched.Shard(p.Shard, p.Shards); err != nil {
			return p, err
		}
	}
	return p, nil
}

func parseShard(s string) (int, int, error) {
	if s == "" {
		return 0, 1, nil
	}
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 0 || i >= n {
		return 0, 0, fmt.Errorf("--shard %q: want i/n with 0 <= i < n", s)
	}
	return i, n, nil
}

func parseStartAt(s string) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t, nil
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		return time.Unix(0, int64(f*1e9)), nil
	}
	return time.Time{}, fmt.Errorf("--start-at %q: want RFC 3339 (2026-01-02T15:04:05Z) or unix seconds", s)
}

// OutDir is the default output directory of a command's run of kind.
func OutDir(kind string) string {
	return filepath.Join("mph-results", time.Now().UTC().Format("20060102T150405Z")+"-"+kind)
}

// OutDir is the default output directory of this run (or shard).
func (p Plan) OutDir(scenario string) string {
	out := OutDir(scenario)
	if p.Shards > 1 {
		out += fmt.Sprintf("-shard%dof%d", p.Shard, p.Shards)
	}
	return out
}

// MetricsRunID is the run_id label of the live figures: the shards of one
// run share it. With a start instant (which every shard of a run shares)
// it is the scenario and that instant; otherwise the harness's run id.
func (p Plan) MetricsRunID(scenario, runID string) string {
	if !p.StartAt.IsZero() {
		return scenario + "-" + p.StartAt.UTC().Format("20060102T150405Z")
	}
	return runID
}

// RunSpec is the run asked for on the prepared scenario, with its raw
// results file in out (results.bin; "" and none with NoResults), which the
// caller closes.
func (a Ask) RunSpec(scn *loadtest.Scenario, t *loadtest.Target, p Plan, out string) (loadtest.RunSpec, string, error) {
	spec := loadtest.RunSpec{
		Name: a.Scenario, Scenario: scn, Schedule: p.Sched, Warmup: a.Warmup,
		Attack: a.Attack(t.Timeout, t.InsecureTLS), StartAt: p.StartAt,
		Thresholds: p.Thresholds, AbortOnBreach: a.AbortOnBreach,
	}
	if a.NoResults {
		return spec, "", nil
	}
	path := filepath.Join(out, "results.bin")
	file, err := os.Create(path)
	if err != nil {
		return spec, "", err
	}
	spec.Results = file
	return spec, path, nil
}

// Plot writes vegeta's plot.html of the raw results into out, titled
// title, unless the run measured more than limit results: then it says why
// it skipped it.
func Plot(o *loadtest.Outcome, results *os.File, out, title string, limit uint64) (skipped string, err error) {
	var measured uint64
	if s, ok := o.Summary("all"); ok {
		measured = s.Requests
	}
	if measured > limit {
		return fmt.Sprintf("plot.html skipped: %d results > --plot-max-results %d (use 'vegeta plot' on results.bin, or raise the limit)", measured, limit), nil
	}
	_ = results.Sync()
	return "", loadtest.VegetaPlot(results.Name(), filepath.Join(out, "plot.html"), title)
}

// Report states the run's outcome with what was asked of it (tool: the
// harness and its version; results: a raw results file was written).
func Report(o *loadtest.Outcome, t *loadtest.Target, scn *loadtest.Scenario, a Ask, p Plan, tool string, results bool) *summary.Report {
	rep := loadtest.FromOutcome(o)
	rep.Tool = tool
	rep.Scenario = a.Scenario
	rep.Target = t.BaseURL
	rep.Embedded = t.Embedded
	rep.Notes = slices.Clone(scn.Notes)
	if n := loadtest.Gateway429Note(o.Summaries); n != "" {
		rep.Notes = append(rep.Notes, n)
	}
	if a.Warmup > 0 {
		rep.Warmup = a.Warmup.String()
	}
	if p.Shards > 1 {
		rep.Shard = fmt.Sprintf("%d/%d", p.Shard, p.Shards)
	}
	rep.Plan = &summary.RunPlan{Rate: a.Rate, Pace: a.Pace, Duration: a.Duration.String(), Warmup: rep.Warmup,
		StartAt: p.StartAt, ShardIndex: p.Shard, ShardCount: p.Shards}
	if results {
		rep.ResultsFile = "results.bin"
	}
	rep.Attack = map[string]string{
		"workers": strconv.FormatUint(a.Workers, 10), "maxWorkers": strconv.FormatUint(a.MaxWorkers, 10),
		"connections": strconv.Itoa(a.Connections), "http2": strconv.FormatBool(a.HTTP2), "h2c": strconv.FormatBool(a.H2C),
		"timeout": t.Timeout.String(),
	}
	return rep
}
