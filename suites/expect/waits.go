package expect

// Bounded waits for what the document leaves untimed: only GET /cards/{id}
// is documented as real-time ("balance is real-time"), so a listing, a
// search or the vault balance read right after a write may lag; and a
// calendar day whose time zone is not shown.

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/merchant-harness/mph/suites/framework"
	. "github.com/onsi/ginkgo/v2"
	"github.com/onsi/gomega"
)

// stillStale is the panic a check's Gomega raises on a failed assertion:
// EventuallyFresh catches it and reads again.
type stillStale struct{}

// EventuallyFresh reads again until check passes, within the profile's
// cards.listingFreshness (Timeouts().ListingFreshness): check asserts with
// g (g.Expect) what may lag behind a write, e.g. that a listing contains the
// card just issued, or no longer lists the card just frozen under ACTIVE.
// Assertions through the global Expect inside check, schema and status
// checks included, are not retried: a malformed answer fails at once. When
// the bound passes with check still failing, the spec reaches no verdict
// (how fresh listings are is not shown), or fails under
// strict.listingFreshness; what names the read in either message.
func EventuallyFresh(ctx context.Context, what string, check func(g gomega.Gomega)) {
	GinkgoHelper()
	t := framework.Timeouts()
	deadline := time.Now().Add(t.ListingFreshness)
	pause := t.FreshPoll
	for {
		last := freshOnce(check)
		if last == "" {
			return
		}
		if !time.Now().Before(deadline) {
			staleVerdict(what, t.ListingFreshness, last)
			return
		}
		select {
		case <-ctx.Done():
			framework.HarnessError("interrupted while waiting for %s", what)
		case <-time.After(min(pause, time.Until(deadline)+time.Millisecond)):
		}
		pause = min(pause*3/2, 2*time.Second)
	}
}

// freshOnce runs check once and returns its failure message ("" when it
// passed); any other panic (Skip, a global Expect, a harness error) goes on.
func freshOnce(check func(g gomega.Gomega)) (msg string) {
	g := gomega.NewGomega(func(message string, _ ...int) {
		msg = message
		panic(stillStale{})
	})
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(stillStale); !ok {
				panic(r)
			}
		}
	}()
	check(g)
	return msg
}

func staleVerdict(what string, bound time.Duration, last string) {
	GinkgoHelper()
	last = strings.TrimSpace(last)
	if framework.Profile().Strict.ListingFreshness {
		Fail(fmt.Sprintf("%s: still not so after %s (profile cards.listingFreshness, strict.listingFreshness):\n%s", what, bound, last))
	}
	if len(last) > 300 {
		last = last[:300] + "…"
	}
	framework.NoVerdict(fmt.Sprintf("%s: still not so after %s (profile cards.listingFreshness; only GET /cards/{id} is documented as real-time): %s",
		what, bound, strings.Join(strings.Fields(last), " ")))
}

// Zone offsets in use lie between UTC-12 and UTC+14, in steps of 15 minutes.
const (
	westmostOffset = -12 * time.Hour
	eastmostOffset = 14 * time.Hour
	offsetStep     = 15 * time.Minute
)

// CalendarDayTurnsWithin reports whether a calendar day (and so possibly a
// month) ends within d from now in the zone of the spend limits: the
// profile's cards.spendLimitTimezone, or, when it is "" (not shown), any
// zone in use.
func CalendarDayTurnsWithin(now time.Time, d time.Duration) bool {
	return dayTurnsIn(framework.Profile().Cards.SpendLimitTimezone, now, d)
}

// dayTurnsIn is CalendarDayTurnsWithin for the zone name ("" for any).
func dayTurnsIn(zone string, now time.Time, d time.Duration) bool {
	if zone != "" {
		if loc, err := time.LoadLocation(zone); err == nil {
			return dayTurns(now.In(loc), d)
		}
	}
	for off := westmostOffset; off <= eastmostOffset; off += offsetStep {
		if dayTurns(now.In(time.FixedZone("", int(off/time.Second))), d) {
			return true
		}
	}
	return false
}

// dayTurns reports whether local midnight falls in (t, t+d].
func dayTurns(t time.Time, d time.Duration) bool {
	y, m, day := t.Date()
	next := time.Date(y, m, day+1, 0, 0, 0, 0, t.Location())
	return !next.After(t.Add(d))
}

// SameCalendarDayFor waits, when needed, until the next d holds no end of a
// calendar day in the spend limits' zone (any zone in use when it is not
// shown): specs about daily and monthly limits then run within one day
// whatever the target's zone. The wait is at most d plus a quarter hour's
// step, since midnights of the zones in use are 15 minutes apart.
func SameCalendarDayFor(ctx context.Context, d time.Duration) {
	GinkgoHelper()
	if framework.Profile().Cards.SpendLimitTimezone == "" && d >= offsetStep {
		framework.NoVerdict(fmt.Sprintf("a spend-limit day of %s cannot be kept clear of midnight in every zone in use (cards.spendLimitTimezone is not set; the document does not show it)", d))
	}
	for CalendarDayTurnsWithin(time.Now(), d) {
		select {
		case <-ctx.Done():
			framework.HarnessError("interrupted while waiting for a calendar day to turn")
		case <-time.After(time.Second):
		}
	}
}
