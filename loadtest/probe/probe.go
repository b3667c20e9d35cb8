// Package probe holds the searches that run the load engine step by step
// up one ladder of rates (climb, ladder.go): the characterisation of one
// path's rate limit (Path: coarse ladder, blast, recovery and Retry-After,
// fine ladder, polite client; every 429 judged by RATE-02) and the highest
// rate that meets an SLO (Capacity). Each step is a fresh run of the engine;
// the figures go to package summary.
package probe

import (
	"context"
	"math"
	"math/rand/v2"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/merchant-harness/mph/httpclient"
	"github.com/merchant-harness/mph/loadtest"
	"github.com/merchant-harness/mph/loadtest/summary"
)

// PathOptions configure the 429 characterisation of one path.
type PathOptions struct {
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
	Attack     loadtest.AttackOptions
	Logf       func(string, ...any)
}

func (o *PathOptions) defaults() {
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

// PoliteRun completes `work` requests with `conc` concurrent workers, retrying
// 429s with exponential backoff and full jitter, never sooner than
// Retry-After. Every 429 it meets is judged by RATE-02 into judged.
func PoliteRun(ctx context.Context, scn *loadtest.Scenario, work, conc int, judged *summary.Judged429) summary.PoliteResult {
	p := &politeClient{ctx: ctx, scn: scn, raMax: scn.RetryAfterMax(), judged: judged}
	start := time.Now()
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < conc; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for int(next.Add(1)) <= work {
				a, stop := p.item()
				if stop {
					return
				}
				storeMax(&p.maxAtt, a)
			}
		}()
	}
	wg.Wait()
	el := time.Since(start).Seconds()
	r := summary.PoliteResult{Work: work, Completed: int(p.completed.Load()), Attempts: p.attempts.Load(), Got429: p.got429.Load(),
		Failed: int(p.failed.Load()), ElapsedSec: el, MaxAttempts: p.maxAtt.Load()}
	if el > 0 {
		r.EffectiveRS = float64(r.Completed) / el
	}
	return r
}

// storeMax raises v to n unless it is already higher.
func storeMax(v *atomic.Int64, n int64) {
	for {
		m := v.Load()
		if n <= m || v.CompareAndSwap(m, n) {
			return
		}
	}
}

// politeClient is the polite client's shared state and tallies.
type politeClient struct {
	ctx                      context.Context
	scn                      *loadtest.Scenario
	raMax                    time.Duration
	attempts, got429, maxAtt atomic.Int64
	completed, failed        atomic.Int64
	mu                       sync.Mutex
	judged                   *summary.Judged429
}

// item completes one request in at most 12 attempts and returns the
// attempts made; stop when the context ended.
func (p *politeClient) item() (int64, bool) {
	var a int64
	for a = 1; a <= 12; a++ {
		p.attempts.Add(1)
		code, h, body := p.scn.Send(p.ctx)
		if code >= 200 && code < 300 {
			p.completed.Add(1)
			return a, false
		}
		if p.ctx.Err() != nil {
			return a, true
		}
		if code != http.StatusTooManyRequests && code != 0 && code < 500 {
			p.failed.Add(1)
			return a, false
		}
		if code == http.StatusTooManyRequests {
			p.got429.Add(1)
			p.mu.Lock()
			p.scn.Judge429(p.judged, h, body)
			p.mu.Unlock()
		}
		capd := math.Min(5000, 50*math.Pow(2, float64(a-1))) // ms
		wait := time.Duration(rand.Float64()*capd) * time.Millisecond
		raD, _, err := httpclient.RetryAfterHeader(h, p.raMax)
		if err != nil {
			p.failed.Add(1) // the target asks for a longer wait than the cap: give up on this item
			return a, false
		}
		if raD > wait {
			wait = raD + time.Duration(rand.Float64()*200)*time.Millisecond
		}
		if loadtest.Sleep(p.ctx, wait) != nil {
			return a, true
		}
	}
	p.failed.Add(1)
	return a, false
}
