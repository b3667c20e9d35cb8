package loadtest

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math"
	"net/http"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/merchant-harness/mph/httpclient"
	"github.com/merchant-harness/mph/loadtest/metrics"
	"github.com/merchant-harness/mph/loadtest/pacer"
	"github.com/merchant-harness/mph/loadtest/resultsbin"
	"github.com/merchant-harness/mph/loadtest/scrub"
	"github.com/merchant-harness/mph/loadtest/threshold"
)

// AttackOptions are the generator's knobs: its workers, and its
// connections' (timeouts, TLS, body cap, redirect policy: httpclient's).
type AttackOptions struct {
	Workers    uint64 // initial workers of an open-model run (default vegeta's 10)
	MaxWorkers uint64 // 0 = unbounded
	httpclient.LoadOptions
}

// RunSpec is one timed run (or one step of a probe or capacity search).
type RunSpec struct {
	Name       string
	Scenario   *Scenario
	Schedule   *pacer.Schedule
	Warmup     time.Duration // the schedule's leading part excluded from the figures
	Attack     AttackOptions
	StartAt    time.Time // wait until then before attacking (shards start together)
	Results    io.Writer // raw results (vegeta gob encoding, scrubbed); nil = none
	Progress   *Progress // nil = silent
	Thresholds []threshold.Threshold
	// AbortOnBreach stops the run as soon as a threshold that can only get
	// worse is breached (checked once per second on the running figures).
	AbortOnBreach bool
	// OnResult sees every result before scrubbing, in the consumer goroutine
	// (keep it cheap). measured is false for warm-up results. The result
	// and its body are reused once OnResult returns: copy what it keeps.
	OnResult func(endpoint string, r *vegeta.Result, measured bool)
	// HardStop bounds the whole run (default: schedule + 2×timeout).
	HardStop time.Duration
	// SchemaSample validates the schema of one in SchemaSample 2xx answers
	// per endpoint (default DefaultSchemaSample); see validate.go.
	SchemaSample int
	// Live receives the running figures (e.g. a Prometheus remote-write
	// pusher, loadtest/promrw); nil = none.
	Live LiveSink
}

// LiveSink receives a run's running figures: Observe on every tick of the
// run's consumer (every 250 ms), Finish once when the run ends, both in the
// consumer goroutine with the recorder's endpoints, which they copy and
// never keep or change.
type LiveSink interface {
	Observe(now time.Time, eps []*metrics.Endpoint)
	Finish(eps []*metrics.Endpoint)
}

// Outcome of a run.
type Outcome struct {
	Name        string
	Schedule    string
	Start       time.Time
	End         time.Time
	Window      time.Duration // measured window
	Summaries   []metrics.Summary
	Thresholds  []threshold.Result
	Interrupted bool   // cancelled (SIGINT) before the schedule ended
	Aborted     string // threshold that aborted the run
	WarmupN     uint64
	Unsent      uint64 // scheduled hits never sent (interrupt/abort)
	TokenFetch  int64  // token fetches during the run (refreshes)
	ResultsErr  error
}

// Summary returns the named endpoint's summary ("all" for the aggregate).
func (o *Outcome) Summary(ep string) (metrics.Summary, bool) {
	for _, s := range o.Summaries {
		if s.Endpoint == ep {
			return s, true
		}
	}
	return metrics.Summary{}, false
}

// Run executes one run with a fresh attacker (attack.go). Cancelling ctx stops the
// attack cleanly: in-flight requests finish, and the outcome covers
// everything collected.
func Run(ctx context.Context, spec RunSpec) (*Outcome, error) {
	if err := spec.check(); err != nil {
		return nil, err
	}
	if err := waitUntil(ctx, spec.StartAt); err != nil {
		return nil, err
	}
	r := newRun(spec)
	results := r.atk.attack(pacer.Precise(r.sched), r.sched.Unlimited()) // precise.go: OS-timer sleeps
	r.collect(ctx, results)
	r.finish()
	return r.out, nil
}

func (spec RunSpec) check() error {
	if spec.Schedule == nil || spec.Scenario == nil {
		return fmt.Errorf("load: run needs a schedule and a scenario")
	}
	if spec.Schedule.Unlimited() && spec.Attack.MaxWorkers == 0 {
		return fmt.Errorf("load: an unlimited rate (--rate 0) needs --max-workers, like vegeta's -rate=0")
	}
	return nil
}

// waitUntil waits for the common start instant, if any.
func waitUntil(ctx context.Context, at time.Time) error {
	if d := time.Until(at); !at.IsZero() && d > 0 {
		return Sleep(ctx, d)
	}
	return nil
}

// Sleep waits d unless ctx ends first (its error then): the waits of the
// searches built on Run.
func Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// run is one attack under way: the recorder, the results encoder and the
// stop state its loop shares.
type run struct {
	spec     RunSpec
	sched    *pacer.Schedule
	atk      *attacker
	rec      *metrics.Recorder
	val      *validator
	enc      *resultsbin.Encoder
	scrub    *scrub.Memo
	bw       *bufio.Writer
	out      *Outcome
	began    time.Time
	fetch0   int64
	received uint64
	total    uint64
	stopped  bool
	lastEval time.Time
}

func newRun(spec RunSpec) *run {
	name := spec.Name
	if name == "" {
		name = spec.Scenario.Name
	}
	r := &run{spec: spec, sched: spec.Schedule, atk: newAttacker(spec.Scenario.attackOptions(spec.Attack), spec.Scenario.Targeter, name),
		val: newValidator(spec.SchemaSample, spec.Scenario.envelope429()), total: spec.Schedule.TotalHits()}
	if spec.Results != nil {
		r.bw = bufio.NewWriterSize(spec.Results, 256<<10)
		r.enc = resultsbin.NewEncoder(r.bw)
		r.scrub = scrub.NewMemo()
	}
	if spec.Scenario.Tokens != nil {
		r.fetch0 = spec.Scenario.Tokens.Fetches()
	}
	r.began = time.Now()
	r.lastEval = r.began
	r.rec = metrics.NewRecorder(r.began, spec.Warmup)
	r.out = &Outcome{Name: name, Schedule: r.sched.String(), Start: r.began}
	if spec.Progress != nil {
		spec.Progress.begin(name, r.sched, spec.Warmup)
	}
	return r
}

// hardStop bounds the whole run: the schedule plus twice the request
// timeout, so a stalled target cannot hold it forever.
func (r *run) hardStop() time.Duration {
	if r.spec.HardStop > 0 {
		return r.spec.HardStop
	}
	to := r.spec.Attack.Timeout
	if to <= 0 {
		to = httpclient.DefaultTimeout
	}
	return r.sched.Duration() + 2*to + 5*time.Second
}

func (r *run) stop() {
	if !r.stopped {
		r.stopped = true
		r.atk.stop()
	}
}

// collect records every result until the attack ends, stopping it on
// cancellation, on the hard stop or on a breach that cannot recover.
func (r *run) collect(ctx context.Context, results <-chan *resultBatch) {
	hardT := time.NewTimer(r.hardStop())
	defer hardT.Stop()
	tick := time.NewTicker(250 * time.Millisecond)
	defer tick.Stop()
	done := ctx.Done()
	for {
		select {
		case batch, ok := <-results:
			if !ok {
				return
			}
			for i := range batch.res {
				r.record(&batch.res[i])
			}
			r.atk.recycle(batch)
		case <-done:
			done = nil // a closed channel would spin the loop while draining
			if !r.stopped {
				r.out.Interrupted = true
			}
			r.stop()
		case <-hardT.C:
			r.out.Interrupted = true
			r.stop()
		case now := <-tick.C:
			r.tick(now)
		}
	}
}

func (r *run) record(res *vegeta.Result) {
	r.received++
	ep := Classify(res.URL)
	var intended time.Duration
	if r.sched.Unlimited() {
		intended = res.Timestamp.Sub(r.began)
	} else {
		intended = r.sched.HitAt(res.Seq)
	}
	measured := r.rec.AddChecked(ep, res, intended, r.val.check(ep, res))
	if src := r.spec.Scenario.Tokens; res.Code == http.StatusUnauthorized && src != nil && ep != EPToken {
		src.Unauthorized(res.Timestamp)
	}
	if r.spec.OnResult != nil {
		r.spec.OnResult(ep, res, measured)
	}
	if r.enc != nil && measured && r.out.ResultsErr == nil {
		if m, ok := r.spec.Scenario.urlMask[res.URL]; ok {
			res.URL = m
		}
		r.scrub.Result(res)
		if err := r.enc.Encode(res); err != nil {
			r.out.ResultsErr = err
		}
	}
}

func (r *run) tick(now time.Time) {
	spec := r.spec
	if spec.Progress != nil {
		spec.Progress.update(now, r.rec, r.received, r.total)
	}
	if spec.Live != nil {
		spec.Live.Observe(now, r.rec.Endpoints())
	}
	if spec.AbortOnBreach && len(spec.Thresholds) > 0 && now.Sub(r.lastEval) >= time.Second && !r.stopped {
		r.lastEval = now
		if b := monotoneBreach(spec.Thresholds, r.rec); b != "" {
			r.out.Aborted = b
			r.stop()
		}
	}
}

// finish flushes the results file and states the outcome over the
// measured window: the schedule minus warm-up, or the elapsed part of it.
func (r *run) finish() {
	out, spec := r.out, r.spec
	out.End = time.Now()
	if r.bw != nil {
		if err := r.bw.Flush(); err != nil && out.ResultsErr == nil {
			out.ResultsErr = err
		}
	}
	if r.total > 0 && r.received < r.total {
		out.Unsent = r.total - r.received
	}
	win := r.sched.Duration() - spec.Warmup
	if out.Interrupted || out.Aborted != "" {
		win = min(win, out.End.Sub(r.began)-spec.Warmup)
	}
	out.Window = max(win, 0)
	out.WarmupN = r.rec.WarmupN
	if spec.Live != nil {
		spec.Live.Finish(r.rec.Endpoints())
	}
	out.Summaries = r.rec.Summaries(out.Window)
	if src := spec.Scenario.Tokens; src != nil {
		out.TokenFetch = src.Fetches() - r.fetch0
	}
	out.Thresholds = threshold.Evaluate(spec.Thresholds, out.Summaries)
	if spec.Progress != nil {
		spec.Progress.finish(out)
	}
}

// monotoneBreach checks, on running figures, the thresholds that can no
// longer recover once breached by a clear margin: a latency maximum above its
// bound, or an error/429/success ratio already beyond its bound with enough
// requests that the rest of the run cannot fix it. It returns the breached
// threshold ("" for none). Percentile gates are checked only after 1000
// requests and with a 10% margin.
func monotoneBreach(ts []threshold.Threshold, rec *metrics.Recorder) string {
	byName := map[string]*metrics.Endpoint{}
	for _, e := range rec.Endpoints() {
		byName[e.Name] = e
	}
	for _, t := range ts {
		e := byName[t.Endpoint]
		if e == nil || e.Requests < 1000 {
			continue
		}
		n := float64(e.Requests)
		var v float64
		switch t.Metric {
		case "p50", "p90", "p95", "p99", "p99.9", "p999", "max":
			q := map[string]float64{"p50": 50, "p90": 90, "p95": 95, "p99": 99, "p99.9": 99.9, "p999": 99.9, "max": 100}[t.Metric]
			v = float64(e.Latency.ValueAtQuantile(q)) / 1000
			if (t.Op == "<" || t.Op == "<=") && v > t.Value*1.1 {
				return t.Raw
			}
		case "success":
			v = float64(e.OK) / n
			if (t.Op == ">" || t.Op == ">=") && v < t.Value-math.Max(0.001, (1-t.Value)) {
				return t.Raw
			}
		case "rate429":
			v = float64(e.R429) / n
			if (t.Op == "<" || t.Op == "<=") && v > t.Value*2+0.001 {
				return t.Raw
			}
		case "errors":
			v = float64(e.Requests-e.OK) / n
			if (t.Op == "<" || t.Op == "<=") && v > t.Value*2+0.001 {
				return t.Raw
			}
		case "invalid":
			v = float64(e.Invalid) / n
			if (t.Op == "<" || t.Op == "<=") && v > t.Value*2+0.001 {
				return t.Raw
			}
		}
	}
	return ""
}
