package probe

import (
	"math"
	"net/http"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/merchant-harness/mph/loadtest"
	"github.com/merchant-harness/mph/loadtest/summary"
)

// blastTally gathers what a saturating blast shows: the 2xx over time, the
// first and last 429, and a sample of 429 headers.
type blastTally struct {
	pp                *summary.PathProbe
	hits              []blastHit
	first429, last429 time.Time
	lastRA            string
	samples, sampled  int
	presence          map[string]int
}

type blastHit struct {
	t  time.Time
	ok bool
}

func (t *blastTally) add(r *vegeta.Result) {
	ok := r.Code >= 200 && r.Code < 300
	if len(t.hits) < 200000 {
		t.hits = append(t.hits, blastHit{r.Timestamp, ok})
	}
	if r.Code != http.StatusTooManyRequests {
		return
	}
	if t.first429.IsZero() || r.Timestamp.Before(t.first429) {
		t.first429 = r.Timestamp
	}
	if r.Timestamp.After(t.last429) {
		t.last429 = r.Timestamp
		t.lastRA = r.Headers.Get("Retry-After")
	}
	if t.sampled < t.samples {
		t.sample(r)
	}
}

// sample records which rate-limit headers a 429 carries (RATE-02 is judged
// on every 429 by the run's validator, loadtest/rate429.go).
func (t *blastTally) sample(r *vegeta.Result) {
	pp := t.pp
	t.sampled++
	for _, h := range loadtest.RateLimitHeaders {
		if v := r.Headers.Get(h); v != "" {
			t.presence[h]++
			pp.Headers[h] = v
		}
	}
}

// finish states the blast's figures: the accepted ceiling from the 2xx
// after the first 429 (once the burst is spent) and the burst as the 2xx
// before it less the refill meanwhile.
func (t *blastTally) finish(out *loadtest.Outcome) {
	pp := t.pp
	pp.Sampled429 = t.sampled
	for h, n := range t.presence {
		pp.HeaderPresence[h] = float64(n) / float64(t.sampled)
	}
	pp.RetryAfter = t.lastRA
	pp.BlastSeconds = out.Window.Seconds()
	if t.first429.IsZero() {
		return
	}
	var okBefore, okTail int
	tailFrom := t.first429.Add(300 * time.Millisecond)
	var tailEnd time.Time
	for _, h := range t.hits {
		if h.t.After(tailEnd) {
			tailEnd = h.t
		}
		if h.ok && h.t.Before(t.first429) {
			okBefore++
		}
		if h.ok && !h.t.Before(tailFrom) {
			okTail++
		}
	}
	if span := tailEnd.Sub(tailFrom).Seconds(); span > 0.2 {
		pp.Ceiling = float64(okTail) / span
	}
	pp.Burst = math.Max(0, float64(okBefore)-pp.Ceiling*t.first429.Sub(out.Start).Seconds())
}
