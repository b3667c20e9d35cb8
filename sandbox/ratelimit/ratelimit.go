// Package ratelimit is the sandbox's limiter: the four groups of
// docs/sandbox.md with their token buckets on the sandbox clock, the
// --rate-limit syntax, and the topology a probe is tested against (shared
// groups, the bucket key).
package ratelimit

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/time/rate"
)

// Limit is one token bucket: Rate tokens per second, Burst capacity.
// A Rate of 0 disables the group.
type Limit struct {
	Rate  float64 `json:"rate"`
	Burst int     `json:"burst"`
}

// Rate-limit groups of docs/sandbox.md.
const (
	GroupToken  = "token"
	GroupRead   = "read"
	GroupSecure = "secure"
	GroupWrite  = "write"
)

// Defaults returns the defaults of docs/sandbox.md.
func Defaults() map[string]Limit {
	return map[string]Limit{
		GroupToken:  {Rate: 100, Burst: 100},
		GroupRead:   {Rate: 500, Burst: 500},
		GroupSecure: {Rate: 100, Burst: 100},
		GroupWrite:  {Rate: 200, Burst: 200},
	}
}

// Norm gives an enabled bucket a usable burst.
func Norm(l Limit) Limit {
	if l.Rate <= 0 {
		return Limit{}
	}
	if l.Burst < 1 {
		l.Burst = max(1, int(l.Rate))
	}
	return l
}

// Parse reads one "group=rate[:burst]" setting (the --rate-limit
// syntax of every command): a known group, a rate >= 0 per second and an
// optional burst >= 1 (absent: the rate).
func Parse(spec string) (string, Limit, error) {
	g, v, ok := strings.Cut(spec, "=")
	if !ok {
		return "", Limit{}, fmt.Errorf("%q: want group=rate[:burst]", spec)
	}
	if _, known := Defaults()[g]; !known {
		return "", Limit{}, fmt.Errorf("%q: unknown group %q (token, read, secure, write)", spec, g)
	}
	rs, bs, hasBurst := strings.Cut(v, ":")
	r, err := strconv.ParseFloat(rs, 64)
	if err != nil || r < 0 || r > 1e9 {
		return "", Limit{}, fmt.Errorf("%q: rate must be a number >= 0", spec)
	}
	l := Limit{Rate: r}
	if hasBurst {
		if l.Burst, err = strconv.Atoi(bs); err != nil || l.Burst < 1 {
			return "", Limit{}, fmt.Errorf("%q: burst must be an integer >= 1", spec)
		}
	}
	return g, l, nil
}

// Group indexes the four rate-limit groups.
type Group uint8

const (
	Token Group = iota
	Read
	Secure
	Write
	numGroups
)

var groupNames = [numGroups]string{GroupToken, GroupRead, GroupSecure, GroupWrite}

// GroupOf is the group named name.
func GroupOf(name string) (Group, bool) {
	for i, n := range groupNames {
		if n == name {
			return Group(i), true
		}
	}
	return 0, false
}

// Limiter keeps one token bucket per key (merchant, or client IP before a
// merchant is known) and group. Buckets run on the sandbox clock, so advancing
// it refills them as waiting would: a client can back off without sleeping.
// Changing the configuration drops every bucket, so new buckets start full
// under the new numbers.
type Limiter struct {
	mu      sync.Mutex // serialises configuration changes
	cfg     atomic.Pointer[[numGroups]Limit]
	buckets sync.Map          // string -> *bucketSet
	stuck   sync.Map          // fault rate-limit-no-refill: key+group refused once, refused for ever
	share   *[numGroups]Group // shared groups (topology.go); nil = none
}

// bucketSet is one key's buckets, built under the configuration cfg.
type bucketSet struct {
	cfg *[numGroups]Limit
	l   [numGroups]*rate.Limiter
}

// New returns a limiter configured with m (Set).
func New(m map[string]Limit) *Limiter {
	l := &Limiter{}
	l.Set(m)
	return l
}

// Set replaces the whole configuration with m (groups absent from m: off).
func (l *Limiter) Set(m map[string]Limit) {
	var c [numGroups]Limit
	for i, n := range groupNames {
		c[i] = Norm(m[n])
	}
	l.mu.Lock()
	l.cfg.Store(&c)
	l.buckets.Clear()
	l.stuck.Clear()
	l.mu.Unlock()
}

// Snapshot returns the configuration as a map.
func (l *Limiter) Snapshot() map[string]Limit {
	c := l.cfg.Load()
	out := make(map[string]Limit, numGroups)
	for i, n := range groupNames {
		out[n] = c[i]
	}
	return out
}

// On reports whether group g is limited at all.
func (l *Limiter) On(g Group) bool { return l.cfg.Load()[g].Rate > 0 }

// Allow takes one token from key's bucket of g. On refusal it also returns
// the bucket's state for the 429 headers.
func (l *Limiter) Allow(key string, g Group, now time.Time) (ok bool, lim *rate.Limiter, cfg Limit) {
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

// NeverRefill is the fault rate-limit-no-refill: a key and group refused
// once (ok false) are refused for ever, refilled tokens or not. It returns
// whether the call is allowed.
func (l *Limiter) NeverRefill(key string, g Group, ok bool) bool {
	k := key + "\x00" + groupNames[g]
	if !ok {
		l.stuck.Store(k, true)
	} else if _, stuck := l.stuck.Load(k); stuck {
		ok = false // refilled tokens are never granted again
	}
	return ok
}

// String is the group's name.
func (g Group) String() string { return groupNames[g] }

// Secs rounds a wait up to whole seconds, at least 1 and at most a day (a
// tiny configured rate must not overflow the conversion).
func Secs(f float64) int {
	if !(f < 86400) { // also NaN
		return 86400
	}
	return max(1, int(math.Ceil(f)))
}
