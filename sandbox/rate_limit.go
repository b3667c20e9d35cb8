package sandbox

import (
	"math"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

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
// merchant is known) and group. Buckets use real time: advancing the sandbox
// clock must not refill them. Changing the configuration drops every bucket,
// so new buckets start full under the new numbers.
type limiter struct {
	mu      sync.Mutex // serialises configuration changes
	cfg     atomic.Pointer[[numGroups]RateLimit]
	buckets sync.Map // string -> *bucketSet
}

type bucketSet [numGroups]*rate.Limiter

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

// allow takes one token from key's bucket of g. On refusal it also returns
// the bucket's state for the 429 headers.
func (l *limiter) allow(key string, g group) (ok bool, lim *rate.Limiter, cfg RateLimit) {
	cfg = l.cfg.Load()[g]
	if cfg.Rate <= 0 {
		return true, nil, cfg
	}
	v, found := l.buckets.Load(key)
	if !found {
		var bs bucketSet
		c := l.cfg.Load()
		for i := range bs {
			if c[i].Rate > 0 {
				bs[i] = rate.NewLimiter(rate.Limit(c[i].Rate), c[i].Burst)
			}
		}
		v, _ = l.buckets.LoadOrStore(key, &bs)
	}
	lim = v.(*bucketSet)[g]
	if lim == nil { // configuration changed between the loads: allow this once
		return true, nil, cfg
	}
	return lim.Allow(), lim, cfg
}

// rateLimit applies g's bucket for key, answering 429 itself when refused.
func (s *Server) rateLimit(rc *reqCtx, key string, g group) bool {
	ok, lim, cfg := s.limits.allow(key, g)
	if ok {
		return true
	}
	now := time.Now()
	tokens := lim.TokensAt(now)
	rps := float64(lim.Limit())
	retry := int(math.Ceil((1 - tokens) / rps))
	if retry < 1 {
		retry = 1
	}
	reset := int(math.Ceil((float64(cfg.Burst) - tokens) / rps))
	h := rc.w.Header()
	if !s.faults.rateLimitNoRetryAfter {
		h.Set("Retry-After", strconv.Itoa(retry))
	}
	h.Set("X-RateLimit-Limit", strconv.Itoa(cfg.Burst))
	h.Set("X-RateLimit-Remaining", strconv.Itoa(max(0, int(tokens))))
	h.Set("X-RateLimit-Reset", strconv.Itoa(max(1, reset)))
	s.writeError(rc, http.StatusTooManyRequests,
		"Rate limit exceeded for "+groupNames[g]+": retry after "+strconv.Itoa(retry)+" s")
	return false
}
