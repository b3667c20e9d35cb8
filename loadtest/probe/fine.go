package probe

import (
	"fmt"
	"math"
	"time"

	"github.com/merchant-harness/mph/loadtest"
	"github.com/merchant-harness/mph/loadtest/pacer"
	"github.com/merchant-harness/mph/loadtest/summary"
)

// fineLadder steps around the ceiling, each step after draining the
// limiter, so that the burst allowance cannot hide the onset; a crossing is
// confirmed by a second measurement of the same step.
func (p *pathProber) fineLadder(hi, blast float64) error {
	o, pp := p.o, p.pp
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
	crossed := func(ps summary.ProbeStep, n429 uint64) bool { return ps.Share429 > o.Onset429 && n429 >= 2 }
	for f := o.FineFrom; f <= 1.5+1e-9; f += o.FineStep {
		r := ceil * f
		ps, n429, err := p.fineStep(r, drainRate, drainDur)
		pp.Steps = append(pp.Steps, ps)
		if err != nil {
			return err
		}
		if !crossed(ps, n429) {
			continue
		}
		// One disturbed step (a stalled generator or server leaves a
		// backlog that eats the refill) must not report an early onset.
		ps2, n2, err := p.fineStep(r, drainRate, drainDur)
		ps2.Phase = "confirm"
		pp.Steps = append(pp.Steps, ps2)
		if err != nil {
			return err
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
	return nil
}

// fineStep measures one rate in one schedule: drain (excluded like a
// warm-up), then the step itself with no gap in which the limiter could
// refill. The first two requests after the drain are excluded too: the
// limiter is empty then, and they would be refused at any rate.
func (p *pathProber) fineStep(r, drainRate float64, drainDur time.Duration) (summary.ProbeStep, uint64, error) {
	d := p.o.StepDur
	if need := time.Duration(float64(p.o.FineMinReq) / r * float64(time.Second)); need > d {
		d = need
	}
	settle := drainDur + time.Duration(2/r*float64(time.Second))
	sch, err := pacer.New(pacer.Segment{From: drainRate, To: drainRate, Dur: drainDur, Label: "drain"}, pacer.Segment{From: r, To: r, Dur: d})
	if err != nil {
		return summary.ProbeStep{}, 0, err
	}
	out, ps, err := p.measure("fine", r, loadtest.RunSpec{Schedule: sch, Warmup: settle})
	if err != nil {
		return summary.ProbeStep{}, 0, err
	}
	s, _ := out.Summary(p.ep)
	p.o.Logf("probe %s: fine %.1f/s: 429 share %.1f%%", p.ep, r, ps.Share429*100)
	return ps, s.R429Count(), p.ctx.Err()
}
