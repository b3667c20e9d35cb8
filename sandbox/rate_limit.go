package sandbox

import (
	"math"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/merchant-harness/mph/sandbox/fault"

	"golang.org/x/time/rate"
)

// group indexes the four rate-limit groups.
type group uint8

const (
	grpToken group = iota
	grpRead
	grpSecure
	grpWrite
	numGroups
)

var groupNames = [numGroups]string{GroupToken, GroupRead, GroupSecure, GroupWrite}

func groupIndex(name string) (group, bool) {
	for i, n := range groupNames {
		if n == name {
			return group(i), true
		}
	}
	return 0, false
}

// limiter keeps one token bucket per key (merchant, or client IP before a
// merchant is known) and group. Buckets run on the sandbox clock, so advancing
// it refills them as waiting would: a client can back off without sleeping.
// Changing the configuration drops every bucket, so new buckets start full
// under the new numbers.
type limiter struct {
	mu      sync.Mutex // serialises configuration changes
	cfg     atomic.Pointer[[numGroups]RateLimit]
	buckets sync.Map          // string -> *bucketSet
	stuck   sync.Map          // fault rate-limit-no-refill: key+group refused once, refused for ever
	share   *[numGroups]group // shared groups (rate_limit_topology.go); nil = none
}

// bucketSet is one key's buckets, built under the configuration cfg.
type bucketSet struct {
	cfg *[numGroups]RateLimit
	l   [numGroups]*rate.Limiter
}

func newLimiter(m map[string]RateLimit) *limiter {
	l := &limiter{}
	l.set(m)
	return l
}

// set replaces the whole configuration with m (groups absent from m: off).
func (l *limiter) set(m map[string]RateLimit) {
	var c [numGroups]RateLimit
	for i, n := range groupNames {
		c[i] = normLimit(m[n])
	}
	l.mu.Lock()
	l.cfg.Store(&c)
	l.buckets.Clear()
	l.stuck.Clear()
	l.mu.Unlock()
}

// snapshot returns the configuration as a map.
func (l *limiter) snapshot() map[string]RateLimit {
	c := l.cfg.Load()
	out := make(map[string]RateLimit, numGroups)
	for i, n := range groupNames {
		out[n] = c[i]
	}
	return out
}

// on reports whether group g is limited at all.
func (l *limiter) on(g group) bool { return l.cfg.Load()[g].Rate > 0 }

// allow takes one token from key's bucket of g. On refusal it also returns
// the bucket's state for the 429 headers.
func (l *limiter) allow(key string, g group, now time.Time) (ok bool, lim *rate.Limiter, cfg RateLimit) {
	c := l.cfg.Load()
	g = l.bucketGroup(g)
	cfg = c[g]
	if cfg.Rate <= 0 {
		return true, nil, cfg
	}
	v, found := l.buckets.Load(key)
	// A set built under an older configuration (a change raced with its
	// creation) is replaced, so a change always takes effect.
	if !found || v.(*bucketSet).cfg != c {
		bs := &bucketSet{cfg: c}
		for i := range bs.l {
			if c[i].Rate > 0 {
				bs.l[i] = rate.NewLimiter(rate.Limit(c[i].Rate), c[i].Burst)
			}
		}
		if found {
			l.buckets.Store(key, bs)
			v = bs
		} else {
			v, _ = l.buckets.LoadOrStore(key, bs)
		}
	}
	lim = v.(*bucketSet).l[g]
	if lim == nil { // cannot happen (cfg.Rate > 0 under c); never fail closed
		return true, nil, cfg
	}
	return lim.AllowN(now, 1), lim, cfg
}

// rateLimit applies g's bucket for key, answering 429 itself when refused.
func (s *Server) rateLimit(rc *reqCtx, key string, g group) bool {
	now := s.clk.Now()
	ok, lim, cfg := s.limits.allow(key, g, now)
	if s.faults.On(fault.RateLimitNoRefill) && lim != nil {
		k := key + "\x00" + groupNames[g]
		if !ok {
			s.limits.stuck.Store(k, true)
		} else if _, stuck := s.limits.stuck.Load(k); stuck {
			ok = false // refilled tokens are never granted again
		}
	}
	if ok || s.faults.On(fault.RateLimitNever) {
		return true
	}
	tokens := lim.TokensAt(now)
	rps := float64(lim.Limit())
	retry := secs((1 - tokens) / rps)
	reset := secs((float64(cfg.Burst) - tokens) / rps)
	h := rc.w.Header()
	h.Set("Retry-After", strconv.Itoa(retry))
	h.Set("X-RateLimit-Limit", strconv.Itoa(cfg.Burst))
	h.Set("X-RateLimit-Remaining", strconv.Itoa(max(0, int(tokens))))
	h.Set("X-RateLimit-Reset", strconv.Itoa(reset))
	if s.faults.On(fault.RateLimitBare) {
		h.Set("Content-Type", "text/plain; charset=utf-8")
		rc.w.WriteHeader(http.StatusTooManyRequests)
		_, _ = rc.w.Write([]byte("Too Many Requests\n"))
		return false
	}
	s.writeError(rc, http.StatusTooManyRequests,
		"Rate limit exceeded for "+groupNames[g]+": retry after "+strconv.Itoa(retry)+" s")
	return false
}

// secs rounds a wait up to whole seconds, at least 1 and at most a day (a
// tiny configured rate must not overflow the conversion).
func secs(f float64) int {
	if !(f < 86400) { // also NaN
		return 86400
	}
	return max(1, int(math.Ceil(f)))
}
