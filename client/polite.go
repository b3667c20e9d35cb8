package client

import (
	"errors"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// Politeness toward a shared target: a client-side request-rate cap and
// counters of the 429 answers met and the time waited, for the run summary.

// RateStats are what the politeness machinery met. Waits are summed over
// requests (concurrent waits add up), not wall time.
type RateStats struct {
	TooManyRequests int           // 429 answers received
	Provoked        int           // of which answered to raw calls (rate-limit specs asking for them)
	BackoffWait     time.Duration // waited out after 429s (Retry-After, a stated reset, backoff)
	PacedWait       time.Duration // waited spacing requests under a learned limit
	LimiterWait     time.Duration // waited in the --max-rps limiter
	Refused         int           // waits refused as longer than the run allows (no verdict)
}

var (
	stat429      atomic.Int64
	statProvoked atomic.Int64
	statBackoff  atomic.Int64
	statPaced    atomic.Int64
	statLimiter  atomic.Int64
	statRefused  atomic.Int64
)

// Stats returns the counters of this process since its start.
func Stats() RateStats {
	return RateStats{
		TooManyRequests: int(stat429.Load()),
		Provoked:        int(statProvoked.Load()),
		BackoffWait:     time.Duration(statBackoff.Load()),
		PacedWait:       time.Duration(statPaced.Load()),
		LimiterWait:     time.Duration(statLimiter.Load()),
		Refused:         int(statRefused.Load()),
	}
}

func addWaits(held, paced time.Duration) {
	statBackoff.Add(int64(held))
	statPaced.Add(int64(paced))
}

// Limiter spaces requests evenly at most RPS per second (burst 1); it is
// shared by every client of a process so that the cap is the process's.
type Limiter struct {
	interval time.Duration
	mu       sync.Mutex
	next     time.Time
}

// NewLimiter returns a limiter of rps requests per second (nil when rps <= 0:
// no cap).
func NewLimiter(rps float64) *Limiter {
	if rps <= 0 {
		return nil
	}
	return &Limiter{interval: time.Duration(float64(time.Second) / rps)}
}

// reserve returns how long the caller must wait for its slot.
func (l *Limiter) reserve() time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := time.Now()
	if l.next.Before(now) {
		l.next = now
	}
	wait := l.next.Sub(now)
	l.next = l.next.Add(l.interval)
	return wait
}

// Polite returns a copy of hc whose transport waits for lim (nil: no cap)
// before each request and counts 429 answers. hc must have its Transport
// (httpclient builds every client with one).
func Polite(hc *http.Client, lim *Limiter) *http.Client {
	cp := *hc
	cp.Transport = politeTransport{base: hc.Transport, lim: lim}
	return &cp
}

var errNoTransport = errors.New("client: the HTTP client has no transport")

type politeTransport struct {
	base http.RoundTripper
	lim  *Limiter
}

func (t politeTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if t.lim != nil {
		if wait := t.lim.reserve(); wait > 0 {
			tm := time.NewTimer(wait)
			select {
			case <-r.Context().Done():
				tm.Stop()
				return nil, r.Context().Err()
			case <-tm.C:
			}
			statLimiter.Add(int64(wait))
		}
	}
	if t.base == nil {
		return nil, errNoTransport
	}
	resp, err := t.base.RoundTrip(r)
	if err == nil && resp.StatusCode == http.StatusTooManyRequests {
		stat429.Add(1)
	}
	return resp, err
}
