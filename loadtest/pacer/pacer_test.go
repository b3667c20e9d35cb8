package pacer

import (
	"math"
	"testing"
	"time"
)

func TestScheduleHitsAndTimes(t *testing.T) {
	cases := []struct {
		name      string
		mk        func() (*Schedule, error)
		wantHits  uint64
		checkAt   uint64
		wantAt    time.Duration
		tolerance time.Duration
	}{
		{"constant 100/s 2s", func() (*Schedule, error) { return Constant(100, 2*time.Second) }, 200, 150, 1500 * time.Millisecond, time.Microsecond},
		{"constant 3/s 1s", func() (*Schedule, error) { return Constant(3, time.Second) }, 3, 2, 666666666, time.Microsecond},
		// ramp 0->100 over 10s: hits(t)=5t^2, total 500; hit 125 at t=5s
		{"ramp 0-100 10s", func() (*Schedule, error) { return Ramp(0, 100, 10*time.Second) }, 500, 125, 5 * time.Second, time.Millisecond},
		// ramp 100->0: hits(t)=100t-5t^2; hit 375 at t=5s
		{"ramp down", func() (*Schedule, error) { return Ramp(100, 0, 10*time.Second) }, 500, 375, 5 * time.Second, time.Millisecond},
		// steps 10,20 for 1s each: hit 10 at 1s, hit 20 at 1.5s
		{"steps", func() (*Schedule, error) { return Steps([]float64{10, 20}, time.Second) }, 30, 20, 1500 * time.Millisecond, time.Microsecond},
		// a pause: 10/s 1s, 0 for 1s, 10/s 1s: hit 10 at 2s
		{"pause", func() (*Schedule, error) {
			return New(Segment{10, 10, time.Second, ""}, Segment{0, 0, time.Second, ""}, Segment{10, 10, time.Second, ""})
		}, 20, 10, 2 * time.Second, time.Microsecond},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, err := c.mk()
			if err != nil {
				t.Fatal(err)
			}
			if got := s.TotalHits(); got != c.wantHits {
				t.Fatalf("TotalHits = %d, want %d", got, c.wantHits)
			}
			if got := s.HitAt(c.checkAt); absDur(got-c.wantAt) > c.tolerance {
				t.Fatalf("HitAt(%d) = %v, want %v", c.checkAt, got, c.wantAt)
			}
			// Monotone, inside the schedule, and Pace agrees with HitAt.
			prev := time.Duration(-1)
			for n := uint64(0); n < s.TotalHits(); n++ {
				at := s.HitAt(n)
				if at < prev || at >= s.Duration() {
					t.Fatalf("hit %d at %v (prev %v, dur %v)", n, at, prev, s.Duration())
				}
				prev = at
				w, stop := s.Pace(at-time.Millisecond, n)
				if stop || w != time.Millisecond {
					t.Fatalf("Pace before hit %d = %v,%v", n, w, stop)
				}
			}
			if _, stop := s.Pace(s.Duration(), s.TotalHits()); !stop {
				t.Fatal("Pace does not stop after the last hit")
			}
		})
	}
}

func TestShardsPartitionTheSchedule(t *testing.T) {
	for _, n := range []int{1, 2, 3, 7} {
		s, _ := Ramp(10, 300, 3*time.Second)
		var sum uint64
		seen := map[time.Duration]int{}
		for i := 0; i < n; i++ {
			sh, err := s.Shard(i, n)
			if err != nil {
				t.Fatal(err)
			}
			sum += sh.TotalHits()
			for k := uint64(0); k < sh.TotalHits(); k++ {
				seen[sh.HitAt(k)]++
			}
			if r := sh.Rate(time.Second); math.Abs(r-s.Rate(time.Second)/float64(n)) > 1e-9 {
				t.Fatalf("shard rate %v", r)
			}
		}
		if sum != s.TotalHits() {
			t.Fatalf("n=%d: shards send %d hits, schedule has %d", n, sum, s.TotalHits())
		}
		for k := uint64(0); k < s.TotalHits(); k++ {
			if seen[s.HitAt(k)] == 0 {
				t.Fatalf("n=%d: global hit %d not sent by any shard", n, k)
			}
		}
	}
	s, _ := Constant(10, time.Second)
	if _, err := s.Shard(2, 2); err == nil {
		t.Fatal("shard 2/2 accepted")
	}
}

func TestWarmupAndHitsBetween(t *testing.T) {
	s, _ := Constant(100, 2*time.Second)
	w := s.WithWarmup(50, time.Second)
	if w.Duration() != 3*time.Second || w.TotalHits() != 250 {
		t.Fatalf("warmup schedule: %v %d", w.Duration(), w.TotalHits())
	}
	if got := w.HitsBetween(0, time.Second); got != 50 {
		t.Fatalf("warm-up hits = %d", got)
	}
	if got := w.HitAt(50); got != time.Second {
		t.Fatalf("first measured hit at %v", got)
	}
}

func TestParse(t *testing.T) {
	cases := []struct {
		in      string
		rate    float64
		d       time.Duration
		hits    uint64
		wantErr bool
	}{
		{"constant", 10, time.Second, 10, false},
		{"", 10, time.Second, 10, false},
		{"ramp:0-20", 0, 2 * time.Second, 20, false},
		{"ramp", 21, 2 * time.Second, 22, false},
		{"steps:10,20", 0, 2 * time.Second, 30, false},
		{"steps:10@1s,20@2s", 0, 0, 50, false},
		{"constant", 0, 0, 0, true},
		{"ramp:x-1", 0, time.Second, 0, true},
		{"steps:", 0, time.Second, 0, true},
		{"steps:10@zz", 0, time.Second, 0, true},
		{"sine", 10, time.Second, 0, true},
		{"steps:-5", 0, time.Second, 0, true},
	}
	if s, err := Parse("constant", 0, time.Second); err != nil || !s.Unlimited() || s.TotalHits() != 0 {
		t.Fatalf("rate 0: %v %v", s, err)
	}
	if _, stop := (func() (time.Duration, bool) { s, _ := Max(time.Second); return s.Pace(2*time.Second, 5) })(); !stop {
		t.Fatal("unlimited schedule does not stop at its duration")
	}
	for _, c := range cases {
		s, err := Parse(c.in, c.rate, c.d)
		if (err != nil) != c.wantErr {
			t.Fatalf("Parse(%q) err = %v, wantErr %v", c.in, err, c.wantErr)
		}
		if err == nil && s.TotalHits() != c.hits {
			t.Fatalf("Parse(%q): %d hits, want %d", c.in, s.TotalHits(), c.hits)
		}
	}
}

func absDur(d time.Duration) time.Duration {
	if d < 0 {
		return -d
	}
	return d
}
