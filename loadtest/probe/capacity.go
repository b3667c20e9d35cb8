package probe

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/merchant-harness/mph/loadtest"
	"github.com/merchant-harness/mph/loadtest/pacer"
	"github.com/merchant-harness/mph/loadtest/summary"
)

// SLO is what a capacity step must meet.
type SLO struct {
	MinAchieved float64 // achieved/offered rate, default 0.99
	MaxP99      time.Duration
	MaxErrors   float64 // non-2xx ratio (429 included), default 0.01
}

func (s SLO) String() string {
	return fmt.Sprintf("achieved >= %.0f%% of offered, p99 <= %s, errors <= %.2f%%", s.MinAchieved*100, s.MaxP99, s.MaxErrors*100)
}

// CapacityOptions configure Capacity.
type CapacityOptions struct {
	SLO        SLO
	StartRate  float64       // default 50
	Factor     float64       // step-up growth (default 2)
	MaxRate    float64       // default 100000
	StepDur    time.Duration // default 5s
	ConfirmDur time.Duration // default 2×StepDur
	Precision  float64       // stop the binary search when (hi-lo)/lo < Precision (default 0.05)
	Attack     loadtest.AttackOptions
	Logf       func(string, ...any)
}

// Capacity searches the highest rate meeting the SLO: step up, binary
// search between the last pass and the first failure, then confirm with a
// longer run. Every trial is a fresh attacker.
func Capacity(ctx context.Context, scn *loadtest.Scenario, o CapacityOptions) (*summary.CapacityReport, error) {
	o.defaults()
	c := &capacitySearch{ctx: ctx, scn: scn, o: o, rep: &summary.CapacityReport{SLO: o.SLO.String()}}
	lo, hi, err := c.stepUp()
	if err != nil || lo == 0 {
		return c.rep, err
	}
	if lo, err = c.search(lo, hi); err != nil {
		return c.rep, err
	}
	return c.rep, c.confirm(lo)
}

func (o *CapacityOptions) defaults() {
	if o.SLO.MinAchieved <= 0 {
		o.SLO.MinAchieved = 0.99
	}
	if o.SLO.MaxErrors < 0 {
		o.SLO.MaxErrors = 0.01
	}
	if o.SLO.MaxP99 <= 0 {
		o.SLO.MaxP99 = 100 * time.Millisecond
	}
	if o.StartRate <= 0 {
		o.StartRate = 50
	}
	if o.Factor <= 1 {
		o.Factor = 2
	}
	if o.MaxRate <= 0 {
		o.MaxRate = 100000
	}
	if o.StepDur <= 0 {
		o.StepDur = 5 * time.Second
	}
	if o.ConfirmDur <= 0 {
		o.ConfirmDur = 2 * o.StepDur
	}
	if o.Precision <= 0 {
		o.Precision = 0.05
	}
	if o.Logf == nil {
		o.Logf = func(string, ...any) {}
	}
}

// capacitySearch holds what the phases of one search share.
type capacitySearch struct {
	ctx context.Context
	scn *loadtest.Scenario
	o   CapacityOptions
	rep *summary.CapacityReport
}

// trial runs one rate and tells whether it met the SLO.
func (c *capacitySearch) trial(phase string, rate float64, d time.Duration) (bool, error) {
	sch, err := pacer.Constant(rate, d)
	if err != nil {
		return false, err
	}
	out, err := loadtest.Run(c.ctx, loadtest.RunSpec{Name: "capacity", Scenario: c.scn, Schedule: sch, Attack: c.o.Attack})
	if err != nil {
		return false, err
	}
	s, _ := out.Summary("all")
	st := summary.CapacityStep{Phase: phase, Rate: rate, Achieved: s.AchievedRate, P99Ms: s.Latency.P99, Errors: s.ErrorRatio, Pass: true}
	if why := c.o.SLO.misses(s.AchievedRate, rate, s.Latency.P99, s.ErrorRatio); why != "" {
		st.Pass, st.Why = false, why
	}
	if s.Requests > 0 && s.SuccessRatio == 0 {
		// Whatever the SLO allows (--max-errors 1), a rate at which nothing
		// succeeds is no capacity: the search stops climbing there.
		st.Pass, st.Why = false, "no valid 2xx answer: the target answered nothing but errors, redirects or 429s"
	}
	c.rep.Steps = append(c.rep.Steps, st)
	c.o.Logf("capacity %s %.0f/s: pass=%v %s", phase, rate, st.Pass, st.Why)
	if out.Interrupted {
		return false, context.Canceled
	}
	return st.Pass, nil
}

// misses names what a step missed of the SLO ("" when it met it).
func (s SLO) misses(achieved, rate, p99Ms, errRatio float64) string {
	var why []string
	if achieved < s.MinAchieved*rate {
		why = append(why, fmt.Sprintf("achieved %.1f/s", achieved))
	}
	if p99Ms > float64(s.MaxP99)/float64(time.Millisecond) {
		why = append(why, fmt.Sprintf("p99 %.1fms", p99Ms))
	}
	if errRatio > s.MaxErrors {
		why = append(why, fmt.Sprintf("errors %.2f%%", errRatio*100))
	}
	return strings.Join(why, ", ")
}

// stepUp multiplies the rate until a step fails: the last pass and the
// first failure (the last pass again when none failed; 0 when the first
// step failed).
func (c *capacitySearch) stepUp() (lo, hi float64, err error) {
	o := c.o
	hi, err = climb(o.StartRate, o.Factor, o.MaxRate, func(r float64) (bool, error) {
		ok, err := c.trial("step-up", r, o.StepDur)
		if ok {
			lo = r
		}
		return !ok, err
	})
	if err != nil {
		return 0, 0, err
	}
	if hi == 0 {
		c.rep.Note = fmt.Sprintf("SLO met up to --max-rate %.0f/s", o.MaxRate)
		hi = lo
	}
	if lo == 0 {
		c.rep.Note = "the SLO fails already at the start rate"
	}
	return lo, hi, nil
}

// search halves the interval between the last pass and the first failure
// down to the precision.
func (c *capacitySearch) search(lo, hi float64) (float64, error) {
	for hi > lo && (hi-lo)/lo >= c.o.Precision {
		mid := (lo + hi) / 2
		ok, err := c.trial("search", mid, c.o.StepDur)
		if err != nil {
			return lo, err
		}
		if ok {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo, nil
}

// confirm runs the found rate longer, stepping 5% down on failure (three
// tries).
func (c *capacitySearch) confirm(lo float64) error {
	for i := 0; i < 3 && lo > 0; i++ {
		ok, err := c.trial("confirm", lo, c.o.ConfirmDur)
		if err != nil {
			return err
		}
		if ok {
			c.rep.Capacity, c.rep.Confirmed = lo, true
			return nil
		}
		lo *= 0.95
	}
	c.rep.Note = "could not confirm a rate meeting the SLO"
	return nil
}
