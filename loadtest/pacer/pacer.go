// Package pacer holds the load driver's own vegeta.Pacer implementations:
// constant rate, linear ramp and steps, all expressed as one piecewise-linear
// rate schedule. Unlike vegeta's pacers, every Schedule can also answer the
// inverse question "when was hit n meant to be sent?" (HitAt), which is what
// open-model latency (measured from the intended send time) needs, and it can
// be split into interleaved shards whose union is exactly the whole schedule.
package pacer

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// Segment is one piece of a schedule: the rate moves linearly from From to To
// requests/s over Dur. From == To is a constant-rate segment.
type Segment struct {
	From, To float64
	Dur      time.Duration
	Label    string // e.g. "warmup", "step 3"
}

// Schedule is a piecewise-linear rate schedule. It implements vegeta.Pacer.
// Hit 0 is sent at offset 0; hit n at the instant where the integral of the
// rate reaches n. The attack stops after the last hit scheduled before the
// end of the last segment.
type Schedule struct {
	segs  []Segment
	start []time.Duration // start offset of each segment
	cum   []float64       // hits scheduled before each segment
	total float64         // hits in the whole schedule (fractional)
	dur   time.Duration

	// Sharding: this pacer sends global hits Index, Index+Count, ...
	shardIndex, shardCount uint64

	// unlimited: as fast as the workers allow (vegeta's -rate=0); there is
	// no intended send time, so latency is measured from the actual send.
	unlimited bool
	hits      uint64 // TotalHits, computed once
}

// Max is an unlimited-rate schedule of duration d: every worker sends as soon
// as it is free (vegeta's -rate=0; bound the workers with MaxWorkers). It is
// a closed model: there is no intended send time.
func Max(d time.Duration) (*Schedule, error) {
	if d <= 0 {
		return nil, fmt.Errorf("pacer: unlimited rate needs a duration > 0")
	}
	return &Schedule{segs: []Segment{{Dur: d, Label: "max"}}, start: []time.Duration{0}, cum: []float64{0}, dur: d, shardCount: 1, unlimited: true}, nil
}

// Unlimited reports whether the schedule is Max (no intended send times).
func (s *Schedule) Unlimited() bool { return s.unlimited }

var _ vegeta.Pacer = (*Schedule)(nil)

// New builds a schedule from segments. Rates must be >= 0 and durations > 0.
func New(segs ...Segment) (*Schedule, error) {
	if len(segs) == 0 {
		return nil, fmt.Errorf("pacer: empty schedule")
	}
	s := &Schedule{shardCount: 1}
	var off time.Duration
	var hits float64
	for i, g := range segs {
		if g.Dur <= 0 {
			return nil, fmt.Errorf("pacer: segment %d: duration must be > 0", i+1)
		}
		if g.From < 0 || g.To < 0 || math.IsNaN(g.From) || math.IsNaN(g.To) || math.IsInf(g.From, 0) || math.IsInf(g.To, 0) {
			return nil, fmt.Errorf("pacer: segment %d: rates must be finite and >= 0", i+1)
		}
		s.segs = append(s.segs, g)
		s.start = append(s.start, off)
		s.cum = append(s.cum, hits)
		off += g.Dur
		hits += (g.From + g.To) / 2 * g.Dur.Seconds()
	}
	s.total, s.dur = hits, off
	if hits < 1 {
		return nil, fmt.Errorf("pacer: schedule sends no request (%.2f hits)", hits)
	}
	s.hits = s.computeHits()
	return s, nil
}

// Constant is rate req/s for d.
func Constant(rate float64, d time.Duration) (*Schedule, error) {
	return New(Segment{From: rate, To: rate, Dur: d})
}

// Ramp goes linearly from `from` to `to` req/s over d.
func Ramp(from, to float64, d time.Duration) (*Schedule, error) {
	return New(Segment{From: from, To: to, Dur: d})
}

// Steps holds each rate for stepDur in turn.
func Steps(rates []float64, stepDur time.Duration) (*Schedule, error) {
	segs := make([]Segment, len(rates))
	for i, r := range rates {
		segs[i] = Segment{From: r, To: r, Dur: stepDur, Label: fmt.Sprintf("step %d", i+1)}
	}
	return New(segs...)
}

// WithWarmup prepends a warm-up segment at `rate` for d (d <= 0: unchanged).
func (s *Schedule) WithWarmup(rate float64, d time.Duration) *Schedule {
	if d <= 0 || rate <= 0 || s.unlimited {
		return s
	}
	segs := append([]Segment{{From: rate, To: rate, Dur: d, Label: "warmup"}}, s.segs...)
	n, _ := New(segs...)
	n.shardIndex, n.shardCount = s.shardIndex, s.shardCount
	n.hits = n.computeHits()
	return n
}

// Shard returns the part of s that shard i of n sends: global hits i, i+n,
// i+2n, ... at their global times, so n shards started at the same instant
// together send exactly the whole schedule.
func (s *Schedule) Shard(i, n int) (*Schedule, error) {
	if n < 1 || i < 0 || i >= n {
		return nil, fmt.Errorf("pacer: shard %d/%d out of range", i, n)
	}
	if s.unlimited && n > 1 {
		return nil, fmt.Errorf("pacer: an unlimited rate cannot be sharded")
	}
	c := *s
	c.shardIndex, c.shardCount = uint64(i), uint64(n)
	c.hits = c.computeHits()
	return &c, nil
}

// Duration is the length of the whole schedule.
func (s *Schedule) Duration() time.Duration { return s.dur }

// Segments returns the schedule's segments with their start offsets.
func (s *Schedule) Segments() ([]Segment, []time.Duration) { return s.segs, s.start }

// TotalHits is the number of hits this (shard of the) schedule sends.
func (s *Schedule) TotalHits() uint64 { return s.hits }

func (s *Schedule) computeHits() uint64 {
	if s.unlimited {
		return 0
	}
	g := s.globalHits()
	if g <= s.shardIndex {
		return 0
	}
	return (g-s.shardIndex-1)/s.shardCount + 1
}

// globalHits: hits n = 0.. with globalAt(n) < dur.
func (s *Schedule) globalHits() uint64 {
	n := uint64(math.Ceil(s.total - 1e-9))
	// hit n is at the instant the integral reaches n; hits with n < total fit.
	for n > 0 && s.globalAt(n-1) >= s.dur {
		n--
	}
	return n
}

// HitAt is the intended send offset of this pacer's hit number n (0-based),
// or Duration() when the schedule has no such hit.
func (s *Schedule) HitAt(n uint64) time.Duration {
	return s.globalAt(n*s.shardCount + s.shardIndex)
}

func (s *Schedule) globalAt(g uint64) time.Duration {
	x := float64(g)
	if x >= s.total {
		return s.dur
	}
	// Find the last segment whose cumulative start <= x and that has hits.
	k := sort.Search(len(s.cum), func(i int) bool { return s.cum[i] > x }) - 1
	if k < 0 {
		k = 0
	}
	for k < len(s.segs)-1 && s.cum[k+1] <= x && s.segs[k].From+s.segs[k].To == 0 {
		k++
	}
	g0 := s.segs[k]
	m := x - s.cum[k] // hits into the segment
	a, b, d := g0.From, g0.To, g0.Dur.Seconds()
	var tau float64
	switch {
	case m <= 0:
		tau = 0
	case a == b:
		tau = m / a
	default:
		// a*t + (b-a)/(2d) t^2 = m, solved in a cancellation-free form.
		disc := a*a + 2*(b-a)*m/d
		if disc < 0 {
			disc = 0
		}
		tau = 2 * m / (a + math.Sqrt(disc))
	}
	if tau > d {
		tau = d
	}
	return s.start[k] + time.Duration(tau*float64(time.Second))
}

// Pace implements vegeta.Pacer: wait until hit `hits` is due.
func (s *Schedule) Pace(elapsed time.Duration, hits uint64) (time.Duration, bool) {
	if s.unlimited {
		return 0, elapsed >= s.dur
	}
	if hits >= s.TotalHits() {
		return 0, true
	}
	return s.HitAt(hits) - elapsed, false
}

// Rate implements vegeta.Pacer: the instantaneous rate of this shard.
func (s *Schedule) Rate(elapsed time.Duration) float64 {
	return s.GlobalRate(elapsed) / float64(s.shardCount)
}

// GlobalRate is the instantaneous rate of the whole (unsharded) schedule.
func (s *Schedule) GlobalRate(elapsed time.Duration) float64 {
	if s.unlimited {
		return 0
	}
	if elapsed < 0 || elapsed >= s.dur {
		return 0
	}
	k := sort.Search(len(s.start), func(i int) bool { return s.start[i] > elapsed }) - 1
	g := s.segs[k]
	f := float64(elapsed-s.start[k]) / float64(g.Dur)
	return g.From + (g.To-g.From)*f
}

// HitsBetween is the number of this shard's hits intended in [from, to).
func (s *Schedule) HitsBetween(from, to time.Duration) uint64 {
	return s.hitsBefore(to) - s.hitsBefore(from)
}

func (s *Schedule) hitsBefore(t time.Duration) uint64 {
	total := s.TotalHits()
	// binary search the first hit at or after t
	return uint64(sort.Search(int(total), func(i int) bool { return s.HitAt(uint64(i)) >= t }))
}

// String describes the schedule, e.g. "constant 100/s for 30s".
func (s *Schedule) String() string {
	if s.unlimited {
		return fmt.Sprintf("max rate (closed model) for %s", s.dur)
	}
	var parts []string
	for _, g := range s.segs {
		p := ""
		if g.From == g.To {
			p = fmt.Sprintf("%s/s for %s", fmtRate(g.From), g.Dur)
		} else {
			p = fmt.Sprintf("%s→%s/s over %s", fmtRate(g.From), fmtRate(g.To), g.Dur)
		}
		if g.Label != "" {
			p = g.Label + " " + p
		}
		parts = append(parts, p)
	}
	out := strings.Join(parts, ", ")
	if s.shardCount > 1 {
		out += fmt.Sprintf(" (shard %d/%d)", s.shardIndex, s.shardCount)
	}
	return out
}

func fmtRate(r float64) string { return strconv.FormatFloat(r, 'f', -1, 64) }

// Parse builds a schedule from the command-line profile syntax:
//
//	constant            rate req/s for d
//	ramp:FROM-TO        linear ramp from FROM to TO req/s over d (FROM defaults to 1)
//	steps:R1,R2,...     each rate for d/len(rates); a rate may carry its own
//	                    duration: steps:50@10s,100@10s,200@20s
func Parse(profile string, rate float64, d time.Duration) (*Schedule, error) {
	kind, arg, _ := strings.Cut(strings.TrimSpace(profile), ":")
	switch kind {
	case "", "constant":
		if arg != "" {
			return nil, fmt.Errorf("profile constant takes no argument (use --rate)")
		}
		if rate == 0 && d > 0 {
			return Max(d)
		}
		if rate <= 0 || d <= 0 {
			return nil, fmt.Errorf("profile constant needs --rate > 0 and --duration > 0")
		}
		return Constant(rate, d)
	case "ramp":
		from, to := 1.0, rate
		if arg != "" {
			a, b, ok := strings.Cut(arg, "-")
			if !ok {
				return nil, fmt.Errorf("ramp profile: want ramp:FROM-TO, got %q", profile)
			}
			var err1, err2 error
			from, err1 = strconv.ParseFloat(a, 64)
			to, err2 = strconv.ParseFloat(b, 64)
			if err1 != nil || err2 != nil {
				return nil, fmt.Errorf("ramp profile: bad rates in %q", profile)
			}
		}
		if d <= 0 {
			return nil, fmt.Errorf("ramp profile needs --duration > 0")
		}
		return Ramp(from, to, d)
	case "steps":
		items := strings.Split(arg, ",")
		if arg == "" || len(items) == 0 {
			return nil, fmt.Errorf("steps profile: want steps:R1,R2,... got %q", profile)
		}
		segs := make([]Segment, 0, len(items))
		for i, it := range items {
			rs, ds, hasDur := strings.Cut(strings.TrimSpace(it), "@")
			r, err := strconv.ParseFloat(rs, 64)
			if err != nil {
				return nil, fmt.Errorf("steps profile: bad rate %q", rs)
			}
			sd := time.Duration(0)
			if hasDur {
				if sd, err = time.ParseDuration(ds); err != nil {
					return nil, fmt.Errorf("steps profile: bad duration %q", ds)
				}
			} else {
				if d <= 0 {
					return nil, fmt.Errorf("steps profile needs --duration or per-step @durations")
				}
				sd = d / time.Duration(len(items))
			}
			segs = append(segs, Segment{From: r, To: r, Dur: sd, Label: fmt.Sprintf("step %d", i+1)})
		}
		return New(segs...)
	}
	return nil, fmt.Errorf("unknown profile %q (want constant, ramp:FROM-TO or steps:R1,R2,...)", profile)
}
