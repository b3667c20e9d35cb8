package probe

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"sort"
	"strings"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/merchant-harness/mph/httpclient"
	"github.com/merchant-harness/mph/loadtest"
	"github.com/merchant-harness/mph/loadtest/metrics"
	"github.com/merchant-harness/mph/loadtest/pacer"
	"github.com/merchant-harness/mph/loadtest/summary"
)

// Path characterises the rate limit of the scenario's single path. The
// measuring generator never retries.
func Path(ctx context.Context, scn *loadtest.Scenario, o PathOptions) (*summary.PathProbe, error) {
	o.defaults()
	if len(scn.Endpoints) != 1 {
		return nil, fmt.Errorf("probe: needs a single-path scenario (token, list or secure)")
	}
	ep := scn.Endpoints[0]
	p := &pathProber{ctx: ctx, scn: scn, o: o, ep: ep,
		pp: &summary.PathProbe{Endpoint: ep, Headers: map[string]string{}, HeaderPresence: map[string]float64{}}}
	hi, err := p.coarseLadder()
	if err != nil || hi == 0 {
		return p.pp, err
	}
	p.pp.LimitFound = true
	if err := loadtest.Sleep(ctx, o.Quiet); err != nil {
		return p.pp, err
	}
	blast := 1.5 * hi
	blastEnd, lastRA, err := p.blast(blast)
	if err != nil {
		return p.pp, err
	}
	if err := p.recovery(blastEnd, blast, lastRA); err != nil {
		return p.pp, err
	}
	if err := p.fineLadder(hi, blast); err != nil {
		return p.pp, err
	}
	if o.Polite > 0 {
		if err := loadtest.Sleep(ctx, o.Quiet); err != nil {
			return p.pp, err
		}
		pr := PoliteRun(ctx, scn, o.Polite, o.PoliteConc, &p.pp.RATE02)
		p.pp.Polite = &pr
	}
	return p.pp, nil
}

// pathProber holds what the steps of one path's probe share.
type pathProber struct {
	ctx context.Context
	scn *loadtest.Scenario
	o   PathOptions
	ep  string
	pp  *summary.PathProbe
}

// single sends one request of the path outside a run, judging a 429 by
// RATE-02, and returns the answer's status.
func (p *pathProber) single() int {
	code, h, body := p.scn.Send(p.ctx)
	if code == http.StatusTooManyRequests {
		p.scn.Judge429(&p.pp.RATE02, h, body)
	}
	return code
}

// measure runs one schedule and states it as a ladder step.
func (p *pathProber) measure(phase string, rate float64, spec loadtest.RunSpec) (*loadtest.Outcome, summary.ProbeStep, error) {
	spec.Name, spec.Scenario, spec.Attack = p.ep+"-"+phase, p.scn, p.o.Attack
	out, err := loadtest.Run(p.ctx, spec)
	if err != nil {
		return nil, summary.ProbeStep{}, err
	}
	out.Tally429(&p.pp.RATE02)
	s, _ := out.Summary(p.ep)
	ps := summary.ProbeStep{Phase: phase, Offered: rate, Requests: s.Requests, Share429: s.Rate429, P99Ms: s.Latency.P99}
	ps.Window = out.Window.Seconds()
	if out.Window > 0 {
		ps.OKRate = float64(s.StatusCodes["200"]+s.StatusCodes["201"]) / out.Window.Seconds()
	}
	return out, ps, nil
}

// errInterrupted stops a ladder whose step was interrupted.
var errInterrupted = errors.New("interrupted")

// coarseLadder raises the rate until 429s clearly appear and returns that
// rate (0: no limit found up to the maximum rate).
func (p *pathProber) coarseLadder() (float64, error) {
	o, pp := p.o, p.pp
	hi, err := climb(o.StartRate, o.Factor, o.MaxRate, func(r float64) (bool, error) {
		sch, err := pacer.Constant(r, o.StepDur)
		if err != nil {
			return false, err
		}
		out, ps, err := p.measure("coarse", r, loadtest.RunSpec{Schedule: sch})
		if err != nil {
			return false, err
		}
		pp.Steps = append(pp.Steps, ps)
		o.Logf("probe %s: coarse %.0f/s: 429 share %.1f%%", p.ep, r, ps.Share429*100)
		if s, _ := out.Summary(p.ep); noSuccess(s) != "" {
			pp.NoSuccess = fmt.Sprintf("at %.0f req/s the target answered nothing but %s: the probe stopped climbing", r, noSuccess(s))
			o.Logf("probe %s: %s", p.ep, pp.NoSuccess)
			return true, p.ctx.Err()
		}
		if ps.Share429 > 0 && pp.CoarseOnset == 0 {
			pp.CoarseOnset = r
		}
		if out.Interrupted || p.ctx.Err() != nil {
			return false, errInterrupted
		}
		return ps.Share429 > 0.05, nil
	})
	if errors.Is(err, errInterrupted) {
		return 0, p.ctx.Err()
	}
	if err != nil || pp.NoSuccess != "" {
		return 0, err // nothing succeeded: no limit to measure
	}
	if hi == 0 {
		pp.Notes = append(pp.Notes, fmt.Sprintf("no rate limit found up to %.0f req/s", o.MaxRate))
	}
	return hi, nil
}

// noSuccess describes a step without one valid 2xx answer and without a
// 429 (errors, redirects, invalid answers: "500 ×20, 307 ×3"); "" when the
// step had a success or a 429, or no answer at all.
func noSuccess(s metrics.Summary) string {
	if s.Requests == 0 || s.SuccessRatio > 0 || s.R429Count() > 0 {
		return ""
	}
	codes := make([]string, 0, len(s.StatusCodes))
	for c := range s.StatusCodes {
		codes = append(codes, c)
	}
	sort.Slice(codes, func(i, j int) bool {
		return s.StatusCodes[codes[i]] > s.StatusCodes[codes[j]] || s.StatusCodes[codes[i]] == s.StatusCodes[codes[j]] && codes[i] < codes[j]
	})
	var parts []string
	for i, c := range codes {
		if i == 4 {
			parts = append(parts, "…")
			break
		}
		what := c
		if c == "0" {
			what = "transport errors"
		} else if c[0] == '2' {
			what = c + " (invalid)"
		}
		parts = append(parts, fmt.Sprintf("%s ×%d", what, s.StatusCodes[c]))
	}
	return "errors or redirects (" + strings.Join(parts, ", ") + ")"
}

// blast measures burst, ceiling, envelopes and headers under a saturating
// rate after a quiet period. It returns when the load stopped and the
// Retry-After of the last 429.
func (p *pathProber) blast(rate float64) (time.Time, string, error) {
	pp := p.pp
	pp.BlastRate = rate
	bd := time.Duration(math.Max(3, 150/rate) * float64(time.Second)) // long enough to spend the burst and measure the tail
	t := &blastTally{pp: pp, samples: p.o.Samples, presence: map[string]int{}}
	sch, _ := pacer.Constant(rate, bd)
	out, err := loadtest.Run(p.ctx, loadtest.RunSpec{Name: p.ep + "-blast", Scenario: p.scn, Schedule: sch, Attack: p.o.Attack,
		OnResult: func(_ string, r *vegeta.Result, _ bool) { t.add(r) }})
	if err != nil {
		return time.Time{}, "", err
	}
	end := time.Now()
	out.Tally429(&pp.RATE02)
	t.finish(out)
	if s, ok := out.Summary(p.ep); ok {
		pp.Series = s.Series
	}
	return end, t.lastRA, nil
}

// recovery sends a request right as the load stops and polls to the first
// 2xx, then checks that waiting out Retry-After is enough.
func (p *pathProber) recovery(blastEnd time.Time, blast float64, lastRA string) error {
	pp := p.pp
	code := p.single()
	pp.FirstAfterLoad = code
	for code == http.StatusTooManyRequests && time.Since(blastEnd) < 30*time.Second {
		if err := loadtest.Sleep(p.ctx, 10*time.Millisecond); err != nil {
			return err
		}
		code = p.single()
	}
	pp.RecoveryMs = float64(time.Since(blastEnd).Microseconds()) / 1000
	ra, raOK, raErr := httpclient.RetryAfter(lastRA, time.Now(), p.scn.RetryAfterMax())
	switch {
	case raErr != nil:
		pp.Notes = append(pp.Notes, "Retry-After not waited out: "+raErr.Error())
	case raOK:
		return p.retryAfter(blast, ra)
	default:
		pp.Notes = append(pp.Notes, "429 answers carry no usable Retry-After header")
	}
	return nil
}

// retryAfter saturates briefly again so the bucket is empty, waits out the
// last 429's Retry-After (ra when it has none) and sends one request.
func (p *pathProber) retryAfter(blast float64, ra time.Duration) error {
	pp := p.pp
	sch, _ := pacer.Constant(blast, 500*time.Millisecond)
	var l429 time.Time
	var ra2 string
	out, err := loadtest.Run(p.ctx, loadtest.RunSpec{Name: p.ep + "-retry-after", Scenario: p.scn, Schedule: sch, Attack: p.o.Attack,
		OnResult: func(_ string, r *vegeta.Result, _ bool) {
			if r.Code == http.StatusTooManyRequests && r.Timestamp.After(l429) {
				l429, ra2 = r.Timestamp, r.Headers.Get("Retry-After")
			}
		}})
	if err != nil {
		return err
	}
	out.Tally429(&pp.RATE02)
	if v, ok, err := httpclient.RetryAfter(ra2, l429, p.scn.RetryAfterMax()); err != nil {
		pp.Notes = append(pp.Notes, "Retry-After not waited out: "+err.Error())
		return nil
	} else if ok {
		ra = v
	}
	if l429.IsZero() {
		return nil
	}
	pp.JustBefore = http.StatusTooManyRequests
	if err := loadtest.Sleep(p.ctx, time.Until(l429.Add(ra).Add(20*time.Millisecond))); err != nil {
		return err
	}
	pp.AfterWait = p.single()
	pp.Honoured = pp.AfterWait >= 200 && pp.AfterWait < 300
	return nil
}
