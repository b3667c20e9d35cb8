package loadtest

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math"
	"net/http"
	"time"

	"github.com/merchant-harness/mph/httpclient"
	"github.com/merchant-harness/mph/loadtest/metrics"
	"github.com/merchant-harness/mph/loadtest/pacer"
	"github.com/merchant-harness/mph/loadtest/scrub"
	"github.com/merchant-harness/mph/loadtest/threshold"
	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// AttackOptions are the generator's knobs; httpclient builds the attacker
// (timeouts, TLS, body cap, redirect policy).
type AttackOptions = httpclient.AttackOptions

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
	// (keep it cheap). measured is false for warm-up results.
	OnResult func(endpoint string, r *vegeta.Result, measured bool)
	// HardStop bounds the whole run (default: schedule + 2×timeout).
	HardStop time.Duration
	// SchemaSample validates the schema of one in SchemaSample 2xx answers
	// per endpoint (default DefaultSchemaSample); see validate.go.
	SchemaSample int
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

// Run executes one run with a fresh vegeta.Attacker. Cancelling ctx stops the
// attack cleanly: in-flight requests finish, and the outcome covers
// everything collected.
func Run(ctx context.Context, spec RunSpec) (*Outcome, error) {
	if spec.Schedule == nil || spec.Scenario == nil {
		return nil, fmt.Errorf("load: run needs a schedule and a scenario")
	}
	if spec.Schedule.Unlimited() && spec.Attack.MaxWorkers == 0 {
		return nil, fmt.Errorf("load: an unlimited rate (--rate 0) needs --max-workers, like vegeta's -rate=0")
	}
	if !spec.StartAt.IsZero() {
		if d := time.Until(spec.StartAt); d > 0 {
			t := time.NewTimer(d)
			select {
			case <-ctx.Done():
				t.Stop()
				return nil, ctx.Err()
			case <-t.C:
			}
		}
	}
	name := spec.Name
	if name == "" {
		name = spec.Scenario.Name
	}
	atk := httpclient.NewAttacker(spec.Scenario.attackOptions(spec.Attack))
	var enc vegeta.Encoder
	var bw *bufio.Writer
	if spec.Results != nil {
		bw = bufio.NewWriterSize(spec.Results, 256<<10)
		enc = vegeta.NewEncoder(bw)
	}
	sched := spec.Schedule
	var fetch0 int64
	if spec.Scenario.Tokens != nil {
		fetch0 = spec.Scenario.Tokens.Fetches()
	}

	began := time.Now()
	rec := metrics.NewRecorder(began, spec.Warmup)
	val := newValidator(spec.SchemaSample)
	results := atk.Attack(spec.Scenario.Targeter, pacer.Precise(sched), 0, name) // precise.go: OS-timer sleeps

	out := &Outcome{Name: name, Schedule: sched.String(), Start: began, WarmupN: 0}
	hard := spec.HardStop
	if hard <= 0 {
		to := spec.Attack.Timeout
		if to <= 0 {
			to = 10 * time.Second
		}
		hard = sched.Duration() + 2*to + 5*time.Second
	}
	hardT := time.NewTimer(hard)
	defer hardT.Stop()
	tick := time.NewTicker(250 * time.Millisecond)
	defer tick.Stop()
	lastEval := time.Now()
	stopped := false
	var received uint64
	total := sched.TotalHits()
	stop := func() {
		if !stopped {
			stopped = true
			atk.Stop()
		}
	}
	if spec.Progress != nil {
		spec.Progress.begin(name, sched, spec.Warmup)
	}
	src := spec.Scenario.Tokens
	unlimited := sched.Unlimited()
	done := ctx.Done()
loop:
	for {
		select {
		case r, ok := <-results:
			if !ok {
				break loop
			}
			received++
			ep := Classify(r.URL)
			var intended time.Duration
			if unlimited {
				intended = r.Timestamp.Sub(began)
			} else {
				intended = sched.HitAt(r.Seq)
			}
			measured := rec.AddChecked(ep, r, intended, val.check(ep, r))
			if r.Code == http.StatusUnauthorized && src != nil && ep != EPToken {
				src.Unauthorized(r.Timestamp)
			}
			if spec.OnResult != nil {
				spec.OnResult(ep, r, measured)
			}
			if enc != nil && measured && out.ResultsErr == nil {
				if m, ok := spec.Scenario.urlMask[r.URL]; ok {
					r.URL = m
				}
				scrub.Result(r)
				if err := enc.Encode(r); err != nil {
					out.ResultsErr = err
				}
			}
		case <-done:
			done = nil // a closed channel would spin the loop while draining
			if !stopped {
				out.Interrupted = true
			}
			stop()
		case <-hardT.C:
			out.Interrupted = true
			stop()
		case now := <-tick.C:
			if spec.Progress != nil {
				spec.Progress.update(now, rec, received, total)
			}
			if spec.AbortOnBreach && len(spec.Thresholds) > 0 && now.Sub(lastEval) >= time.Second && !stopped {
				lastEval = now
				if b := monotoneBreach(spec.Thresholds, rec); b != "" {
					out.Aborted = b
					stop()
				}
			}
		}
	}
	out.End = time.Now()
	if bw != nil {
		if err := bw.Flush(); err != nil && out.ResultsErr == nil {
			out.ResultsErr = err
		}
	}
	if total > 0 && received < total {
		out.Unsent = total - received
	}
	// Measured window: the schedule minus warm-up, or the elapsed part of it.
	win := sched.Duration() - spec.Warmup
	if out.Interrupted || out.Aborted != "" {
		el := out.End.Sub(began) - spec.Warmup
		if el < win {
			win = el
		}
	}
	if win < 0 {
		win = 0
	}
	out.Window = win
	out.WarmupN = rec.WarmupN
	out.Summaries = rec.Summaries(win)
	if src != nil {
		out.TokenFetch = src.Fetches() - fetch0
	}
	out.Thresholds = threshold.Evaluate(spec.Thresholds, out.Summaries)
	if spec.Progress != nil {
		spec.Progress.finish(out)
	}
	return out, nil
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
