package loadtest

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/merchant-harness/mph/httpclient"
	"github.com/merchant-harness/mph/loadtest/pacer"
	"github.com/merchant-harness/mph/schemas"
	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// ProbeOptions configure the 429 characterisation of one path.
type ProbeOptions struct {
	StartRate  float64       // first coarse step (default 10/s)
	Factor     float64       // coarse step growth (default 1.5)
	MaxRate    float64       // give up above this (default 5000/s)
	StepDur    time.Duration // coarse and fine step duration (default 2s; fine steps last long enough for >= 60 requests)
	Quiet      time.Duration // pause before the burst measurement so the limiter refills (default 3s)
	Onset429   float64       // 429 share that marks the onset (default 2%)
	FineStep   float64       // fine ladder increment as a fraction of the ceiling (default 0.05)
	FineFrom   float64       // fine ladder start as a fraction of the ceiling (default 0.8)
	FineMinReq int           // each fine step lasts long enough for this many requests (default 60)
	Samples    int           // 429 bodies schema-validated (default 20)
	Polite     int           // polite-client requests (0 = skip)
	PoliteConc int           // polite-client concurrency (default 16)
	Attack     AttackOptions
	Logf       func(string, ...any)
}

func (o *ProbeOptions) defaults() {
	if o.StartRate <= 0 {
		o.StartRate = 10
	}
	if o.Factor <= 1 {
		o.Factor = 1.5
	}
	if o.MaxRate <= 0 {
		o.MaxRate = 5000
	}
	if o.StepDur <= 0 {
		o.StepDur = 2 * time.Second
	}
	if o.Quiet <= 0 {
		o.Quiet = 3 * time.Second
	}
	if o.Onset429 <= 0 {
		o.Onset429 = 0.02
	}
	if o.FineStep <= 0 {
		o.FineStep = 0.05
	}
	if o.FineFrom <= 0 {
		o.FineFrom = 0.8
	}
	if o.FineMinReq <= 0 {
		o.FineMinReq = 60
	}
	if o.Samples <= 0 {
		o.Samples = 20
	}
	if o.PoliteConc <= 0 {
		o.PoliteConc = 16
	}
	if o.Logf == nil {
		o.Logf = func(string, ...any) {}
	}
}

var rlHeaders = []string{"Retry-After", "Ratelimit", "Ratelimit-Policy", "Ratelimit-Limit", "Ratelimit-Remaining", "Ratelimit-Reset",
	"X-Ratelimit-Limit", "X-Ratelimit-Remaining", "X-Ratelimit-Reset"}

// Probe characterises the rate limit of the scenario's single path. The
// measuring generator never retries.
func Probe(ctx context.Context, scn *Scenario, o ProbeOptions) (*PathProbe, error) {
	o.defaults()
	if len(scn.Endpoints) != 1 {
		return nil, fmt.Errorf("probe: needs a single-path scenario (token, list or secure)")
	}
	ep := scn.Endpoints[0]
	pp := &PathProbe{Endpoint: ep, Headers: map[string]string{}, HeaderPresence: map[string]float64{}}
	step := func(phase string, rate float64, d time.Duration) (*Outcome, ProbeStep, error) {
		sch, err := pacer.Constant(rate, d)
		if err != nil {
			return nil, ProbeStep{}, err
		}
		out, err := Run(ctx, RunSpec{Name: ep + "-" + phase, Scenario: scn, Schedule: sch, Attack: o.Attack})
		if err != nil {
			return nil, ProbeStep{}, err
		}
		s, _ := out.Summary(ep)
		ps := ProbeStep{Phase: phase, Offered: rate, Requests: s.Requests, Share429: s.Rate429, P99Ms: s.Latency.P99}
		ps.Window = out.Window.Seconds()
		if out.Window > 0 {
			ps.OKRate = float64(s.StatusCodes["200"]+s.StatusCodes["201"]) / out.Window.Seconds()
		}
		return out, ps, nil
	}

	// A. Coarse ladder until 429s clearly appear.
	hi := 0.0
	for r := o.StartRate; r <= o.MaxRate; r *= o.Factor {
		out, ps, err := step("coarse", r, o.StepDur)
		if err != nil {
			return nil, err
		}
		pp.Steps = append(pp.Steps, ps)
		o.Logf("probe %s: coarse %.0f/s: 429 share %.1f%%", ep, r, ps.Share429*100)
		if ps.Share429 > 0 && pp.CoarseOnset == 0 {
			pp.CoarseOnset = r
		}
		if out.Interrupted || ctx.Err() != nil {
			return pp, ctx.Err()
		}
		if ps.Share429 > 0.05 {
			hi = r
			break
		}
	}
	if hi == 0 {
		pp.Notes = append(pp.Notes, fmt.Sprintf("no rate limit found up to %.0f req/s", o.MaxRate))
		return pp, nil
	}
	pp.LimitFound = true

	// B. Burst, ceiling, envelopes and headers under a saturating blast after a quiet period.
	if err := sleepCtx(ctx, o.Quiet); err != nil {
		return pp, err
	}
	blast := 1.5 * hi
	pp.BlastRate = blast
	bd := time.Duration(math.Max(3, 150/blast) * float64(time.Second)) // long enough to spend the burst and measure the tail
	type hit struct {
		t  time.Time
		ok bool
	}
	var hits []hit
	var first429 time.Time
	var last429 time.Time
	var lastRA string
	samples := 0
	presence := map[string]int{}
	sch, _ := pacer.Constant(blast, bd)
	blastOut, err := Run(ctx, RunSpec{Name: ep + "-blast", Scenario: scn, Schedule: sch, Attack: o.Attack,
		OnResult: func(_ string, r *vegeta.Result, _ bool) {
			ok := r.Code >= 200 && r.Code < 300
			if len(hits) < 200000 {
				hits = append(hits, hit{r.Timestamp, ok})
			}
			if r.Code != http.StatusTooManyRequests {
				return
			}
			if first429.IsZero() || r.Timestamp.Before(first429) {
				first429 = r.Timestamp
			}
			if r.Timestamp.After(last429) {
				last429 = r.Timestamp
				lastRA = r.Headers.Get("Retry-After")
			}
			if samples < o.Samples {
				samples++
				for _, h := range rlHeaders {
					if v := r.Headers.Get(h); v != "" {
						presence[h]++
						pp.Headers[h] = v
					}
				}
				if err := checkEnvelope(r.Body); err != nil {
					if len(pp.EnvelopeErrors) < 5 {
						pp.EnvelopeErrors = append(pp.EnvelopeErrors, err.Error())
					}
				} else {
					pp.EnvelopeOK++
				}
			}
		}})
	if err != nil {
		return pp, err
	}
	blastEnd := time.Now()
	pp.Sampled429 = samples
	for h, n := range presence {
		pp.HeaderPresence[h] = float64(n) / float64(samples)
	}
	pp.RetryAfter = lastRA
	pp.BlastSeconds = blastOut.Window.Seconds()
	if s, ok := blastOut.Summary(ep); ok {
		pp.Series = s.Series
	}
	if !first429.IsZero() {
		var okBefore, okTail int
		var tailFrom = first429.Add(300 * time.Millisecond)
		var tailEnd time.Time
		for _, h := range hits {
			if h.t.After(tailEnd) {
				tailEnd = h.t
			}
		}
		for _, h := range hits {
			if h.ok && h.t.Before(first429) {
				okBefore++
			}
			if h.ok && !h.t.Before(tailFrom) {
				okTail++
			}
		}
		if span := tailEnd.Sub(tailFrom).Seconds(); span > 0.2 {
			pp.Ceiling = float64(okTail) / span
		}
		pp.Burst = math.Max(0, float64(okBefore)-pp.Ceiling*first429.Sub(blastOut.Start).Seconds())
	}

	// Recovery and Retry-After: a request right as the load stops, polling to the first 2xx,
	// then one request after waiting out Retry-After from the last 429.
	hc := scn.client()
	raMax := scn.retryAfterMax()
	code, _ := single(ctx, hc, scn)
	pp.FirstAfterLoad = code
	for code == http.StatusTooManyRequests && time.Since(blastEnd) < 30*time.Second {
		if err := sleepCtx(ctx, 10*time.Millisecond); err != nil {
			return pp, err
		}
		code, _ = single(ctx, hc, scn)
	}
	pp.RecoveryMs = float64(time.Since(blastEnd).Microseconds()) / 1000
	ra, raOK, raErr := httpclient.RetryAfter(lastRA, time.Now(), raMax)
	switch {
	case raErr != nil:
		pp.Notes = append(pp.Notes, "Retry-After not waited out: "+raErr.Error())
	case raOK:
		// Saturate briefly again so the bucket is empty, then wait out Retry-After.
		raOut := ra
		sch, _ := pacer.Constant(blast, 500*time.Millisecond)
		var l429 time.Time
		var ra2 string
		if _, err := Run(ctx, RunSpec{Name: ep + "-retry-after", Scenario: scn, Schedule: sch, Attack: o.Attack,
			OnResult: func(_ string, r *vegeta.Result, _ bool) {
				if r.Code == http.StatusTooManyRequests && r.Timestamp.After(l429) {
					l429, ra2 = r.Timestamp, r.Headers.Get("Retry-After")
				}
			}}); err != nil {
			return pp, err
		}
		if v, ok, err := httpclient.RetryAfter(ra2, l429, raMax); err != nil {
			pp.Notes = append(pp.Notes, "Retry-After not waited out: "+err.Error())
			l429 = time.Time{}
		} else if ok {
			raOut = v
		}
		if !l429.IsZero() {
			pp.JustBefore = http.StatusTooManyRequests
			if err := sleepCtx(ctx, time.Until(l429.Add(raOut).Add(20*time.Millisecond))); err != nil {
				return pp, err
			}
			pp.AfterWait, _ = single(ctx, hc, scn)
			pp.Honoured = pp.AfterWait >= 200 && pp.AfterWait < 300
		}
	default:
		pp.Notes = append(pp.Notes, "429 answers carry no usable Retry-After header")
	}

	// C. Fine ladder around the ceiling, each step after draining the limiter,
	// so that the burst allowance cannot hide the onset.
	ceil := pp.Ceiling
	if ceil <= 0 {
		// No clean tail to measure: start from the last coarse step without
		// a clear 429 share, which is below the limit.
		ceil = hi / o.Factor
		pp.Notes = append(pp.Notes, "accepted ceiling not measured (blast too short or disturbed); the fine ladder starts from the last clean coarse step")
	}
	// Drain at up to twice the ceiling: fast enough to empty the bucket
	// quickly, gentle enough not to leave a backlog on a busy server.
	drainRate := math.Min(blast, 2*ceil)
	drainDur := time.Duration(math.Min(3, math.Max(0.3, (pp.Burst*1.1+5)/math.Max(1, drainRate-ceil))) * float64(time.Second))
	fineStep := func(r float64) (ProbeStep, uint64, error) {
		d := o.StepDur
		if need := time.Duration(float64(o.FineMinReq) / r * float64(time.Second)); need > d {
			d = need
		}
		// One schedule: drain (excluded like a warm-up), then the step
		// itself with no gap in which the limiter could refill. The first
		// two requests after the drain are excluded too: the limiter is
		// empty then, and they would be refused at any rate.
		settle := drainDur + time.Duration(2/r*float64(time.Second))
		sch, err := pacer.New(pacer.Segment{From: drainRate, To: drainRate, Dur: drainDur, Label: "drain"}, pacer.Segment{From: r, To: r, Dur: d})
		if err != nil {
			return ProbeStep{}, 0, err
		}
		out, err := Run(ctx, RunSpec{Name: ep + "-fine", Scenario: scn, Schedule: sch, Warmup: settle, Attack: o.Attack})
		if err != nil {
			return ProbeStep{}, 0, err
		}
		s, _ := out.Summary(ep)
		ps := ProbeStep{Phase: "fine", Offered: r, Requests: s.Requests, Share429: s.Rate429, P99Ms: s.Latency.P99}
		ps.Window = out.Window.Seconds()
		if out.Window > 0 {
			ps.OKRate = float64(s.StatusCodes["200"]+s.StatusCodes["201"]) / out.Window.Seconds()
		}
		o.Logf("probe %s: fine %.1f/s: 429 share %.1f%%", ep, r, ps.Share429*100)
		return ps, s.R429Count(), ctx.Err()
	}
	crossed := func(ps ProbeStep, n429 uint64) bool { return ps.Share429 > o.Onset429 && n429 >= 2 }
	for f := o.FineFrom; f <= 1.5+1e-9; f += o.FineStep {
		r := ceil * f
		ps, n429, err := fineStep(r)
		pp.Steps = append(pp.Steps, ps)
		if err != nil {
			return pp, err
		}
		if !crossed(ps, n429) {
			continue
		}
		// Confirm a crossing with a second measurement of the same step, so
		// that one disturbed step (a stalled generator or server leaves a
		// backlog that eats the refill) cannot report an early onset.
		ps2, n2, err := fineStep(r)
		ps2.Phase = "confirm"
		pp.Steps = append(pp.Steps, ps2)
		if err != nil {
			return pp, err
		}
		if crossed(ps2, n2) {
			pp.OnsetRate = r
			break
		}
		pp.Notes = append(pp.Notes, fmt.Sprintf("the crossing at %.1f req/s was not confirmed by a second measurement (disturbed step)", r))
	}
	if pp.OnsetRate == 0 {
		pp.Notes = append(pp.Notes, "no fine step crossed the onset share; onset above 1.5× the ceiling")
	}

	if o.Polite > 0 {
		if err := sleepCtx(ctx, o.Quiet); err != nil {
			return pp, err
		}
		pr := PoliteRun(ctx, scn, o.Polite, o.PoliteConc)
		pp.Polite = &pr
	}
	return pp, nil
}

// checkEnvelope validates a 429 body against the error envelope schema and
// the 429 specifics (statusCode 429, reason phrase).
func checkEnvelope(body []byte) error {
	if err := schemas.Validate(schemas.ErrorEnvelope, body); err != nil {
		return err
	}
	var env struct {
		StatusCode int    `json:"statusCode"`
		Error      string `json:"error"`
	}
	_ = json.Unmarshal(body, &env)
	if env.StatusCode != 429 {
		return fmt.Errorf("statusCode %d, want 429", env.StatusCode)
	}
	if env.Error != http.StatusText(429) {
		return fmt.Errorf("error %q, want %q", env.Error, http.StatusText(429))
	}
	return nil
}

// singleMaxBody bounds what single reads of an answer (it only needs the status).
const singleMaxBody = 64 << 10

// single sends one request of the scenario outside the attack.
func single(ctx context.Context, hc *http.Client, scn *Scenario) (int, http.Header) {
	var tgt vegeta.Target
	if err := scn.Targeter(&tgt); err != nil {
		return 0, nil
	}
	req, err := tgt.Request()
	if err != nil {
		return 0, nil
	}
	resp, err := hc.Do(req.WithContext(ctx))
	if err != nil {
		return 0, nil
	}
	httpclient.Drain(resp.Body, singleMaxBody)
	resp.Body.Close()
	return resp.StatusCode, resp.Header
}

func sleepCtx(ctx context.Context, d time.Duration) error {
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

// PoliteRun completes `work` requests with `conc` concurrent workers, retrying
// 429s with exponential backoff and full jitter, never sooner than Retry-After.
func PoliteRun(ctx context.Context, scn *Scenario, work, conc int) PoliteResult {
	hc := scn.client()
	raMax := scn.retryAfterMax()
	var next, attempts, got429, maxAtt atomic.Int64
	var completed, failed atomic.Int64
	start := time.Now()
	var wg sync.WaitGroup
	for w := 0; w < conc; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for int(next.Add(1)) <= work {
				var a int64
				for a = 1; a <= 12; a++ {
					attempts.Add(1)
					code, h := single(ctx, hc, scn)
					if code >= 200 && code < 300 {
						completed.Add(1)
						break
					}
					if ctx.Err() != nil {
						return
					}
					if code != http.StatusTooManyRequests && code != 0 && code < 500 {
						failed.Add(1)
						break
					}
					if code == http.StatusTooManyRequests {
						got429.Add(1)
					}
					capd := math.Min(5000, 50*math.Pow(2, float64(a-1))) // ms
					wait := time.Duration(rand.Float64()*capd) * time.Millisecond
					raD, _, err := httpclient.RetryAfterHeader(h, raMax)
					if err != nil {
						failed.Add(1) // the target asks for a longer wait than the cap: give up on this item
						break
					}
					if raD > wait {
						wait = raD + time.Duration(rand.Float64()*200)*time.Millisecond
					}
					if sleepCtx(ctx, wait) != nil {
						return
					}
				}
				if a > 12 {
					failed.Add(1)
				}
				for {
					m := maxAtt.Load()
					if a <= m || maxAtt.CompareAndSwap(m, a) {
						break
					}
				}
			}
		}()
	}
	wg.Wait()
	el := time.Since(start).Seconds()
	r := PoliteResult{Work: work, Completed: int(completed.Load()), Attempts: attempts.Load(), Got429: got429.Load(),
		Failed: int(failed.Load()), ElapsedSec: el, MaxAttempts: maxAtt.Load()}
	if el > 0 {
		r.EffectiveRS = float64(r.Completed) / el
	}
	return r
}
