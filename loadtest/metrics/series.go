package metrics

import (
	"math/bits"
	"time"
)

// sketchBuckets: a coarse log-linear latency sketch (8 linear sub-buckets per
// power of two of microseconds, i.e. <= 12.5% relative error) used only for
// per-interval percentiles in the time series. Exact whole-run figures come
// from the HDR histograms.
const (
	sketchSub     = 8
	sketchOctaves = 28 // up to 2^28 µs ≈ 268 s
	sketchBuckets = sketchOctaves*sketchSub + sketchSub
)

func sketchIndex(us int64) int {
	if us < sketchSub {
		if us < 0 {
			return 0
		}
		return int(us)
	}
	l := bits.Len64(uint64(us)) // >= 4
	shift := l - 4              // keep the leading one + 3 bits
	sub := int(uint64(us)>>uint(shift)) & (sketchSub - 1)
	idx := (l-3)*sketchSub + sub
	if idx >= sketchBuckets {
		return sketchBuckets - 1
	}
	return idx
}

// sketchValue is the upper edge (µs) of bucket idx.
func sketchValue(idx int) int64 {
	if idx < sketchSub {
		return int64(idx)
	}
	l := idx/sketchSub + 3
	sub := idx % sketchSub
	shift := l - 4
	return (int64(sketchSub+sub+1) << uint(shift)) - 1
}

// Interval is one time-series bucket, keyed by intended send time.
type Interval struct {
	Scheduled uint64         `json:"scheduled"` // requests whose intended send time falls here
	Sent      uint64         `json:"sent"`      // requests actually sent in this interval
	OK        uint64         `json:"ok"`        // 2xx
	R429      uint64         `json:"r429"`
	Other     uint64         `json:"other"` // any other status or transport error
	SumUs     uint64         `json:"sumUs"`
	MaxUs     int64          `json:"maxUs"`
	LagMaxUs  int64          `json:"lagMaxUs,omitempty"`  // largest send lag
	LateSends uint64         `json:"lateSends,omitempty"` // sends whose lag exceeded LateSend
	Sketch    map[int]uint32 `json:"sketch,omitempty"`    // sparse latency sketch (merge input)
	dense     *[sketchBuckets]uint32
}

func (iv *Interval) sketch() *[sketchBuckets]uint32 {
	if iv.dense == nil {
		iv.dense = new([sketchBuckets]uint32)
		for k, v := range iv.Sketch {
			if k >= 0 && k < sketchBuckets {
				iv.dense[k] += v
			}
		}
		iv.Sketch = nil
	}
	return iv.dense
}

func (iv *Interval) merge(o *Interval) {
	iv.Scheduled += o.Scheduled
	iv.Sent += o.Sent
	iv.OK += o.OK
	iv.R429 += o.R429
	iv.Other += o.Other
	iv.SumUs += o.SumUs
	iv.MaxUs = max(iv.MaxUs, o.MaxUs)
	iv.LagMaxUs = max(iv.LagMaxUs, o.LagMaxUs)
	iv.LateSends += o.LateSends
	a, b := iv.sketch(), o.sketch()
	for i := range a {
		a[i] += b[i]
	}
}

// quantile of the interval's latency sketch, in µs.
func (iv *Interval) quantile(q float64) int64 {
	sk := iv.sketch()
	var n uint64
	for _, c := range sk {
		n += uint64(c)
	}
	if n == 0 {
		return 0
	}
	rank := uint64(q*float64(n) + 0.5)
	if rank < 1 {
		rank = 1
	}
	var acc uint64
	for i, c := range sk {
		acc += uint64(c)
		if acc >= rank {
			v := sketchValue(i)
			if v > iv.MaxUs {
				v = iv.MaxUs
			}
			return v
		}
	}
	return iv.MaxUs
}

func (iv *Interval) freeze() {
	if iv.dense == nil {
		return
	}
	iv.Sketch = make(map[int]uint32)
	for i, c := range iv.dense {
		if c != 0 {
			iv.Sketch[i] = c
		}
	}
}

// Series is a bounded time series: at most MaxIntervals buckets; when a run
// outgrows it, the bucket width doubles and neighbours merge, so memory stays
// bounded however long the run.
type Series struct {
	Start     time.Time     `json:"start"` // absolute time of interval 0 (the attack start)
	Width     time.Duration `json:"width"`
	Intervals []*Interval   `json:"intervals"`
	max       int
}

// MaxIntervals bounds a Series.
const MaxIntervals = 900

func newSeries(start time.Time) *Series {
	return &Series{Start: start, Width: time.Second, max: MaxIntervals}
}

func (s *Series) at(off time.Duration) *Interval {
	if off < 0 {
		off = 0
	}
	i := int(off / s.Width)
	for i >= s.maxN() {
		s.coarsen()
		i = int(off / s.Width)
	}
	for len(s.Intervals) <= i {
		s.Intervals = append(s.Intervals, &Interval{})
	}
	return s.Intervals[i]
}

func (s *Series) maxN() int {
	if s.max == 0 {
		return MaxIntervals
	}
	return s.max
}

func (s *Series) coarsen() {
	n := (len(s.Intervals) + 1) / 2
	out := make([]*Interval, n)
	for i := range out {
		a := s.Intervals[2*i]
		if 2*i+1 < len(s.Intervals) {
			a.merge(s.Intervals[2*i+1])
		}
		out[i] = a
	}
	s.Intervals = out
	s.Width *= 2
}

// Merge adds o into s, aligning intervals by absolute time.
func (s *Series) Merge(o *Series) {
	if o == nil || len(o.Intervals) == 0 {
		return
	}
	if s.Start.IsZero() || (o.Start.Before(s.Start) && len(s.Intervals) == 0) {
		s.Start = o.Start
	}
	for s.Width < o.Width {
		s.coarsen()
	}
	for i, iv := range o.Intervals {
		off := o.Start.Sub(s.Start) + time.Duration(i)*o.Width
		s.at(off).merge(iv)
	}
}

// Point is a rendered interval.
type Point struct {
	T         float64 `json:"t"` // seconds since Start, interval begin
	Scheduled float64 `json:"scheduledPerSec"`
	Sent      float64 `json:"sentPerSec"`
	OK        float64 `json:"okPerSec"`
	R429      float64 `json:"r429PerSec"`
	Other     float64 `json:"otherPerSec"`
	P50Ms     float64 `json:"p50Ms"`
	P99Ms     float64 `json:"p99Ms"`
	MaxMs     float64 `json:"maxMs"`
	LagMaxMs  float64 `json:"lagMaxMs"`
	LateSends uint64  `json:"lateSends"` // sends whose lag exceeded LateSend (a count, not a rate)
}

// Points renders the series as per-second rates and latency figures.
func (s *Series) Points() []Point {
	w := s.Width.Seconds()
	out := make([]Point, 0, len(s.Intervals))
	for i, iv := range s.Intervals {
		out = append(out, Point{
			T:         float64(i) * w,
			Scheduled: float64(iv.Scheduled) / w,
			Sent:      float64(iv.Sent) / w,
			OK:        float64(iv.OK) / w,
			R429:      float64(iv.R429) / w,
			Other:     float64(iv.Other) / w,
			P50Ms:     float64(iv.quantile(0.50)) / 1000,
			P99Ms:     float64(iv.quantile(0.99)) / 1000,
			MaxMs:     float64(iv.MaxUs) / 1000,
			LagMaxMs:  float64(iv.LagMaxUs) / 1000,
			LateSends: iv.LateSends,
		})
	}
	return out
}

func (s *Series) freeze() {
	for _, iv := range s.Intervals {
		iv.freeze()
	}
}
