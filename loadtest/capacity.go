package loadtest

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/merchant-harness/mph/loadtest/pacer"
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
	Attack     AttackOptions
	Logf       func(string, ...any)
}

// Capacity searches the highest rate meeting the SLO: step up, binary
// search between the last pass and the first failure, then confirm with a
// longer run. Every trial is a fresh attacker.
func Capacity(ctx context.Context, scn *Scenario, o CapacityOptions) (*CapacityReport, error) {
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
	rep := &CapacityReport{SLO: o.SLO.String()}
	trial := func(phase string, rate float64, d time.Duration) (bool, error) {
		sch, err := pacer.Constant(rate, d)
		if err != nil {
			return false, err
		}
		out, err := Run(ctx, RunSpec{Name: "capacity", Scenario: scn, Schedule: sch, Attack: o.Attack})
		if err != nil {
			return false, err
		}
		s, _ := out.Summary("all")
		st := CapacityStep{Phase: phase, Rate: rate, Achieved: s.AchievedRate, P99Ms: s.Latency.P99, Errors: s.ErrorRatio, Pass: true}
		var why []string
		if s.AchievedRate < o.SLO.MinAchieved*rate {
			why = append(why, fmt.Sprintf("achieved %.1f/s", s.AchievedRate))
		}
		if s.Latency.P99 > float64(o.SLO.MaxP99)/float64(time.Millisecond) {
			why = append(why, fmt.Sprintf("p99 %.1fms", s.Latency.P99))
		}
		if s.ErrorRatio > o.SLO.MaxErrors {
			why = append(why, fmt.Sprintf("errors %.2f%%", s.ErrorRatio*100))
		}
		if len(why) > 0 {
			st.Pass, st.Why = false, strings.Join(why, ", ")
		}
		rep.Steps = append(rep.Steps, st)
		o.Logf("capacity %s %.0f/s: pass=%v %s", phase, rate, st.Pass, st.Why)
		if out.Interrupted {
			return false, context.Canceled
		}
		return st.Pass, nil
	}
	lo, hi := 0.0, 0.0
	for r := o.StartRate; r <= o.MaxRate; r *= o.Factor {
		ok, err := trial("step-up", r, o.StepDur)
		if err != nil {
			return rep, err
		}
		if !ok {
			hi = r
			break
		}
		lo = r
	}
	if hi == 0 {
		rep.Note = fmt.Sprintf("SLO met up to --max-rate %.0f/s", o.MaxRate)
		hi = lo
	}
	if lo == 0 {
		rep.Note = "the SLO fails already at the start rate"
		return rep, nil
	}
	for hi > lo && (hi-lo)/lo >= o.Precision {
		mid := (lo + hi) / 2
		ok, err := trial("search", mid, o.StepDur)
		if err != nil {
			return rep, err
		}
		if ok {
			lo = mid
		} else {
			hi = mid
		}
	}
	for i := 0; i < 3 && lo > 0; i++ {
		ok, err := trial("confirm", lo, o.ConfirmDur)
		if err != nil {
			return rep, err
		}
		if ok {
			rep.Capacity, rep.Confirmed = lo, true
			return rep, nil
		}
		lo *= 0.95
	}
	rep.Note = "could not confirm a rate meeting the SLO"
	return rep, nil
}
