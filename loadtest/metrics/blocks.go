package metrics

import (
	"math/rand/v2"
	"sort"
)

// MinBlocks is the fewest intervals a block bootstrap is run on.
const MinBlocks = 8

// BlockQuantileCI is a 95% block-bootstrap confidence interval (ms) of the
// q-th percentile (0..100) of the open-model latency: the series' intervals
// (one second each, or wider in long runs) are resampled with replacement
// as whole blocks, so that a stall, which slows many neighbouring requests
// at once, counts as one event rather than as many independent ones. The
// resolution is the series sketch's (12.5%). ok is false with fewer than
// MinBlocks non-empty intervals.
func (s *Series) BlockQuantileCI(q float64, reps int, rng *rand.Rand) (lo, hi float64, blocks int, ok bool) {
	if s == nil {
		return 0, 0, 0, false
	}
	type cell struct {
		idx int
		n   uint64
	}
	var bs [][]cell
	for _, iv := range s.Intervals {
		var b []cell
		if iv.dense != nil {
			for i, c := range iv.dense {
				if c > 0 {
					b = append(b, cell{i, uint64(c)})
				}
			}
		} else {
			for i, c := range iv.Sketch {
				if c > 0 && i >= 0 && i < sketchBuckets {
					b = append(b, cell{i, uint64(c)})
				}
			}
		}
		if len(b) > 0 {
			bs = append(bs, b)
		}
	}
	if len(bs) < MinBlocks {
		return 0, 0, len(bs), false
	}
	est := make([]float64, reps)
	var acc [sketchBuckets]uint64
	for r := range est {
		acc = [sketchBuckets]uint64{}
		var n uint64
		for range bs {
			for _, c := range bs[rng.IntN(len(bs))] {
				acc[c.idx] += c.n
				n += c.n
			}
		}
		rank := uint64(q/100*float64(n) + 0.5)
		var cum uint64
		for i, c := range acc {
			cum += c
			if cum >= max(rank, 1) {
				est[r] = float64(sketchValue(i)) / 1000
				break
			}
		}
	}
	sort.Float64s(est)
	return est[int(0.025*float64(reps))], est[int(0.975*float64(reps-1))], len(bs), true
}

// IntervalMeans are the mean latencies (µs) of the series' non-empty
// intervals, in time order: one figure per interval, so that a test over
// them treats a stall slowing a whole interval as one observation.
func (s *Series) IntervalMeans() []float64 {
	if s == nil {
		return nil
	}
	var out []float64
	for _, iv := range s.Intervals {
		if iv.Scheduled > 0 {
			out = append(out, float64(iv.SumUs)/float64(iv.Scheduled))
		}
	}
	return out
}
