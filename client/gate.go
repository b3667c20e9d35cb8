package client

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"sort"
	"strings"
	"sync"
	"time"
)

// A Gate paces the requests of a run under the rate limits the target
// shows. How the target groups its limits is not shown, so the gate learns
// one limit per endpoint group (reads, writes, the token exchange) from the
// 429 answers and rate-limit headers, and falls back to one limit for all
// groups once 429s come from two groups inside one window. Every request of
// a group waits for its slot: after a 429 until the window reopens
// (Retry-After, a stated reset, else exponential backoff), and from then on
// spaced at the rate the headers state (or, when none do, at the rate the
// target was seen to allow). A wait never ends after the run's deadline, the
// caller's context deadline or MaxWait: a longer one is refused at once with
// a *RateLimitedError (no verdict), without sleeping.
type Gate struct {
	o GateOptions

	mu     sync.Mutex
	groups map[Group]*limitState // groups share one state once merged
	merged string                // why the groups were merged ("" = not)
	stats  RateStats
}

// Group is the set of endpoints one learned limit is kept for.
type Group string

// The endpoint groups.
const (
	GroupReads  Group = "reads"
	GroupWrites Group = "writes"
	GroupToken  Group = "token"
)

var allGroups = []Group{GroupReads, GroupWrites, GroupToken}

// groupOf is the group of a request: the token exchange, safe methods
// (reads) and the rest (writes).
func groupOf(method, path string) Group {
	switch {
	case method == http.MethodPost && strings.HasSuffix(path, TokenPath):
		return GroupToken
	case method == http.MethodGet || method == http.MethodHead || method == http.MethodOptions:
		return GroupReads
	}
	return GroupWrites
}

// GateOptions configure a Gate.
type GateOptions struct {
	// Clock tells the time and sleeps (default: the wall clock).
	Clock Clock
	// Deadline is the run's deadline: no wait ends after it (zero: none).
	// Once it has passed, only a caller's context deadline bounds a wait
	// (the teardown's); a caller without one is not made to wait.
	Deadline time.Time
	// MaxWait bounds each wait (--retry-after-max; 0: the deadlines only,
	// DefaultMaxWait when there is none).
	MaxWait time.Duration
	// Logf reports holds and learned limits.
	Logf func(format string, args ...any)
}

// Clock is the time source of a Gate; tests inject one that does not sleep.
type Clock interface {
	Now() time.Time
	// Sleep waits d or until ctx ends (then it returns ctx's error).
	Sleep(ctx context.Context, d time.Duration) error
}

type wallClock struct{}

func (wallClock) Now() time.Time { return time.Now() }

func (wallClock) Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// Backoff without a Retry-After: exponential from backoffBase, at most
// backoffCap, with equal jitter (half fixed, half random) so that waiting
// clients spread out but each one's wait still grows.
const (
	backoffBase = 100 * time.Millisecond
	backoffCap  = time.Minute
)

// limitState is what the gate knows of one group's (or, merged, of every
// group's) limit.
type limitState struct {
	holdUntil time.Time     // no request before this
	holdWhy   string        // what asked for the hold
	interval  time.Duration // spacing of requests (0: none)
	paceWhy   string
	// Spacing is a token bucket of the learned rate (one request per
	// interval) holding burst requests, scheduled by its theoretical
	// arrival time tat (GCRA): time a group stayed idle lets it send up to
	// burst requests at once, as the target's own bucket would.
	burst int
	tat   time.Time

	last429     time.Time
	lastHold    time.Duration
	limit       int       // the quota the last 429's headers stated (0: none)
	consecutive int       // 429s since the last other answer
	first       time.Time // first request let through since the window last opened
	admitted    int       // requests let through since the window last opened
	count429    int
	// estimated marks a spacing estimated from what the target let
	// through (no header stated a rate): it shortens after each further
	// sample of requests let through without a 429.
	estimated bool
	sample    int
}

// minSample is the fewest requests an estimated spacing rests on: fewer say
// too little of the target's rate to slow a run down for.
const minSample = 10

// NewGate returns a gate.
func NewGate(o GateOptions) *Gate {
	if o.Clock == nil {
		o.Clock = wallClock{}
	}
	g := &Gate{o: o, groups: map[Group]*limitState{}}
	for _, grp := range allGroups {
		g.groups[grp] = &limitState{}
	}
	return g
}

// SetDeadline sets the run's deadline (zero: none).
func (g *Gate) SetDeadline(t time.Time) {
	g.mu.Lock()
	g.o.Deadline = t
	g.mu.Unlock()
}

// bound is the latest instant a wait starting at now may end, and a phrase
// naming what sets it (the same for every call refused alike, so that the
// reports group them).
func (g *Gate) bound(ctx context.Context, now time.Time) (time.Time, string) {
	var b time.Time
	why := ""
	runPassed := false
	if d := g.o.Deadline; !d.IsZero() {
		if d.After(now) {
			b, why = d, "the run deadline (--deadline)"
		} else {
			runPassed = true
		}
	}
	if cd, ok := ctx.Deadline(); ok && (b.IsZero() || cd.Before(b) || runPassed) {
		b, why = cd, "the call's own deadline"
	} else if !ok && runPassed {
		return now, "the run deadline (--deadline), which has passed"
	}
	max := g.o.MaxWait
	if max <= 0 && b.IsZero() {
		max = DefaultMaxWait
	}
	if max > 0 && (b.IsZero() || now.Add(max).Before(b)) {
		b, why = now.Add(max), fmt.Sprintf("the longest wait of %s (--retry-after-max)", max)
	}
	return b, why
}

// longestWait is the longest a wait starting now may last (the run's
// deadline or MaxWait).
func (g *Gate) longestWait() time.Duration {
	g.mu.Lock()
	defer g.mu.Unlock()
	now := g.o.Clock.Now()
	b, _ := g.bound(context.Background(), now)
	return max(0, b.Sub(now))
}

// wait takes the group's next slot and sleeps until it. It returns without
// sleeping when the slot lies beyond the bound.
func (g *Gate) wait(ctx context.Context, grp Group, method, url string) error {
	g.mu.Lock()
	st := g.groups[grp]
	now := g.o.Clock.Now()
	slot := now
	if st.holdUntil.After(slot) {
		slot = st.holdUntil
	}
	if st.interval > 0 {
		if earliest := st.tat.Add(-time.Duration(max(st.burst, 1)-1) * st.interval); earliest.After(slot) {
			slot = earliest
		}
	}
	if slot.After(now) {
		if b, bwhy := g.bound(ctx, now); slot.After(b) {
			why := st.holdWhy
			if st.holdUntil.Before(slot) {
				why = fmt.Sprintf("requests paced at one per %s: %s", st.interval.Round(time.Microsecond), st.paceWhy)
			}
			g.stats.Refused++
			g.mu.Unlock()
			statRefused.Add(1)
			return &RateLimitedError{Method: method, URL: url, Group: grp, Wait: slot.Sub(now), Left: max(0, b.Sub(now)),
				Why: why, Bound: bwhy}
		}
	}
	if st.interval > 0 {
		st.tat = maxTime(st.tat, slot).Add(st.interval)
	}
	if st.admitted == 0 {
		st.first = slot
	}
	st.admitted++
	g.relaxLocked(st)
	held := max(0, minTime(st.holdUntil, slot).Sub(now))
	paced := slot.Sub(now) - held
	g.stats.BackoffWait += held
	g.stats.PacedWait += paced
	g.mu.Unlock()
	addWaits(held, paced)
	if d := slot.Sub(now); d > 0 {
		if err := g.o.Clock.Sleep(ctx, d); err != nil {
			return err
		}
	}
	return nil
}

// observe learns from one answer of the group.
func (g *Gate) observe(grp Group, status int, h http.Header) {
	g.mu.Lock()
	defer g.mu.Unlock()
	now := g.o.Clock.Now()
	li := readLimitHeaders(h, now)
	st := g.groups[grp]
	if status != http.StatusTooManyRequests {
		// An answer that states its window is spent holds the group until
		// the reset; a stated policy spaces it (before any 429).
		st.consecutive = 0
		if li.hasReset && li.remaining == 0 {
			g.holdLocked(st, now, li.reset, fmt.Sprintf("the window is spent: reset in %s (%s)", li.reset.Round(time.Millisecond), strings.Join(li.from, ", ")))
		}
		if li.window > 0 {
			st.interval, st.paceWhy, st.burst, st.estimated = li.pace(), paceNote(li), burstOf(li), false
		}
		return
	}
	g.stats.TooManyRequests++
	st.count429++
	st.consecutive++
	g.mergeLocked(grp, now, li.limit)
	st = g.groups[grp]
	st.limit = li.limit
	d, why, ok := li.hold()
	if !ok {
		d = backoffFor(st.consecutive)
		why = fmt.Sprintf("exponential backoff after %d 429s in a row (no Retry-After or reset)", st.consecutive)
	}
	g.holdLocked(st, now, d, why)
	st.last429, st.lastHold = now, d
	g.learnPaceLocked(st, li, now, d)
	st.admitted = 0
}

// relaxLocked shortens an estimated spacing by an eighth once another
// sample of requests went through without a 429 (an estimate is a lower
// bound of the target's rate: it may rest on a window others had drained);
// below a millisecond the group is no longer spaced.
func (g *Gate) relaxLocked(st *limitState) {
	if !st.estimated || st.admitted < st.sample {
		return
	}
	st.admitted = 0
	st.interval -= st.interval / 8
	if st.interval < time.Millisecond {
		st.interval, st.estimated, st.paceWhy = 0, false, ""
	}
}

func (g *Gate) holdLocked(st *limitState, now time.Time, d time.Duration, why string) {
	if until := now.Add(d); until.After(st.holdUntil) {
		st.holdUntil, st.holdWhy = until, why
		g.logf("rate limit: holding %s for %s (%s)", g.nameLocked(st), d.Round(time.Millisecond), why)
	}
}

// learnPaceLocked spaces the group's requests after a 429: at the rate the
// headers state, else at the rate the target was seen to allow (the requests
// let through since the last window opened, over that span and the hold).
// A 429 never makes the spacing shorter.
func (g *Gate) learnPaceLocked(st *limitState, li limitInfo, now time.Time, hold time.Duration) {
	iv, why, estimated := li.pace(), paceNote(li), false
	if iv == 0 && st.admitted >= minSample {
		span := max(0, now.Sub(st.first)) + hold
		iv, estimated = span/time.Duration(st.admitted), true
		why = fmt.Sprintf("estimated: %d requests sent in %s up to this 429 (no header states the rate)", st.admitted, span.Round(time.Millisecond))
	}
	if iv > st.interval {
		st.interval, st.paceWhy, st.estimated, st.sample = iv, why, estimated, max(minSample, st.admitted)
		st.burst = 1
		if !estimated {
			st.burst = burstOf(li)
		}
		g.logf("rate limit: spacing %s %s apart, bursts of %d (%s)", g.nameLocked(st), iv.Round(time.Microsecond), st.burst, why)
	}
	// The target's bucket is empty: ours starts empty when the hold ends.
	st.tat = st.holdUntil.Add(time.Duration(max(st.burst, 1)-1) * st.interval)
}

// burstOf is the burst the gate allows under a stated quota: half of it, so
// that a fixed window (whose reset is not its length) is not overrun twice.
func burstOf(li limitInfo) int { return max(1, li.limit/2) }

func paceNote(li limitInfo) string {
	if li.window > 0 {
		return fmt.Sprintf("%d per %s (%s)", li.limit, li.window, strings.Join(li.from, ", "))
	}
	return fmt.Sprintf("%d per %s (%s)", li.limit, li.reset.Round(time.Millisecond), strings.Join(li.from, ", "))
}

// mergeLocked falls back to one limit for every group when 429s come from
// two groups and show one limit: inside one window, or stating the same
// quota (the groups then drew from one bucket, each paced as if alone).
// 429s stating different quotas are two limits.
func (g *Gate) mergeLocked(grp Group, now time.Time, limit int) {
	if g.merged != "" {
		return
	}
	st := g.groups[grp]
	for _, other := range allGroups {
		o := g.groups[other]
		if o == st || o.last429.IsZero() {
			continue
		}
		inWindow := !now.After(o.last429.Add(o.lastHold + time.Second))
		stated := limit > 0 && o.limit > 0
		if !(stated && limit == o.limit) && !(inWindow && !stated) {
			continue
		}
		one := &limitState{last429: o.last429, lastHold: o.lastHold}
		for _, x := range allGroups {
			s := g.groups[x]
			if s.holdUntil.After(one.holdUntil) {
				one.holdUntil, one.holdWhy = s.holdUntil, s.holdWhy
			}
			if s.interval > one.interval {
				one.interval, one.paceWhy, one.estimated, one.sample, one.burst = s.interval, s.paceWhy, s.estimated, s.sample, s.burst
			}
			one.tat = maxTime(one.tat, s.tat)
			one.count429 += s.count429
			one.consecutive = max(one.consecutive, s.consecutive)
		}
		for _, x := range allGroups {
			g.groups[x] = one
		}
		g.merged = fmt.Sprintf("429s in %s and %s within %s: one limit for every group from then on", other, grp, (o.lastHold + time.Second).Round(time.Millisecond))
		if stated {
			g.merged = fmt.Sprintf("429s in %s and %s stating the same quota (%d): one limit for every group from then on", other, grp, limit)
		}
		g.logf("rate limit: %s", g.merged)
		return
	}
}

func minTime(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

func maxTime(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

func backoffFor(n int) time.Duration {
	d := backoffCap
	if n < 20 {
		d = min(backoffCap, backoffBase<<(n-1))
	}
	return d/2 + time.Duration(rand.Int64N(int64(d/2)+1))
}

func (g *Gate) nameLocked(st *limitState) string {
	if g.merged != "" {
		return "every group"
	}
	for _, grp := range allGroups {
		if g.groups[grp] == st {
			return string(grp)
		}
	}
	return "?"
}

func (g *Gate) logf(format string, args ...any) {
	if g.o.Logf != nil {
		g.o.Logf(format, args...)
	}
}

// Stats returns what the gate met and waited.
func (g *Gate) Stats() RateStats {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.stats
}

// Learned describes, one line per group (or one for all when merged), the
// limits the gate learned: for the run's summary.
func (g *Gate) Learned() []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	var out []string
	seen := map[*limitState]bool{}
	for _, grp := range allGroups {
		st := g.groups[grp]
		if seen[st] || (st.count429 == 0 && st.interval == 0 && st.holdWhy == "") {
			continue
		}
		seen[st] = true
		line := fmt.Sprintf("%s: %d answers 429", g.nameLocked(st), st.count429)
		if st.holdWhy != "" {
			line += "; last hold: " + st.holdWhy
		}
		if st.interval > 0 {
			line += fmt.Sprintf("; paced at one per %s, bursts of %d: %s", st.interval.Round(time.Microsecond), max(st.burst, 1), st.paceWhy)
		}
		out = append(out, line)
	}
	if g.merged != "" {
		out = append(out, "merged: "+g.merged)
	}
	sort.Strings(out)
	return out
}
