package access

import (
	"context"
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/merchant-harness/mph/client"
	"github.com/merchant-harness/mph/client/controls"
	"github.com/merchant-harness/mph/schemas"
	. "github.com/merchant-harness/mph/suites/expect"
	. "github.com/merchant-harness/mph/suites/framework"
	. "github.com/merchant-harness/mph/suites/specsupport"
)

// lowerReadLimit sets the sandbox's read group to a low limit for the spec
// and restores the previous limits afterwards. It reports whether it did.
func lowerReadLimit(ctx context.Context) bool {
	GinkgoHelper()
	if !Has(CapRateLimitCtl) {
		return false
	}
	limitForSpec(ctx, "read", controls.RateLimit{Rate: 5, Burst: 5})
	return true
}

// limitForSpec sets one rate-limit group through the sandbox controls and
// restores the previous limits when the spec ends.
func limitForSpec(ctx context.Context, group string, l controls.RateLimit) {
	GinkgoHelper()
	saved, err := Controls().RateLimits(ctx)
	if err != nil {
		HarnessError("sandbox control rate-limits: %v", err)
	}
	// Only the group this spec changes is put back: the control's answer may
	// carry members that are no group (a target echoing the request back),
	// and a PUT of them all would be refused and leave the limit in place.
	before, had := saved[group]
	if !had {
		before = controls.RateLimit{} // absent: the group had no limit (rate 0 disables one)
	}
	DeferCleanup(func(ctx SpecContext) {
		if err := Controls().SetRateLimits(ctx, map[string]controls.RateLimit{group: before}); err != nil {
			HarnessError("restoring the rate limits: %v", err)
		}
	})
	if err := Controls().SetRateLimits(ctx, map[string]controls.RateLimit{group: l}); err != nil {
		HarnessError("sandbox control rate-limits: %v", err)
	}
}

// burstUntil429 sends raw (never retried) GET /cards/config calls, with the
// profile's concurrency, until one answers 429 or the profile's bound is
// reached. It returns the first 429 (nil if none) and the number sent.
func burstUntil429(ctx context.Context, max, conc int) *burst {
	raw := API().Raw()
	return burstWith(ctx, max, conc, func(ctx context.Context) (*client.Response, error) { return raw.Get(ctx, "/cards/config", nil) })
}

// burst is what a burst met: the first 429 (nil if none), the calls sent,
// and what the others answered, for a message that says why no 429 came.
type burst struct {
	first *client.Response
	sent  int64
	seen  map[int]int      // status -> answers
	other *client.Response // the first answer neither a success nor a 429
	err   error            // the first call that got no answer
}

// String says what the burst's answers were ("200 x195, 401 x5; no answer: ...").
func (b *burst) String() string {
	codes := make([]int, 0, len(b.seen))
	for c := range b.seen {
		codes = append(codes, c)
	}
	sort.Ints(codes)
	parts := make([]string, 0, len(codes)+1)
	for _, c := range codes {
		parts = append(parts, fmt.Sprintf("%d x%d", c, b.seen[c]))
	}
	if b.other != nil {
		body, _ := Decode(b.other).(JSON)
		parts = append(parts, "the first "+strconv.Itoa(b.other.Status)+" said "+strconv.Quote(strings.Join(Messages(body), "; ")))
	}
	if b.err != nil {
		parts = append(parts, "no answer: "+b.err.Error())
	}
	return strings.Join(parts, ", ")
}

// burstWith sends call until one answer is a 429 or max calls were sent.
func burstWith(ctx context.Context, max, conc int, call func(context.Context) (*client.Response, error)) *burst {
	var sent atomic.Int64
	b := &burst{seen: map[int]int{}}
	var mu sync.Mutex
	var once sync.Once
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	for w := 0; w < conc; w++ {
		wg.Add(1)
		go func() {
			defer GinkgoRecover()
			defer wg.Done()
			for ctx.Err() == nil && sent.Add(1) <= int64(max) {
				resp, err := call(ctx)
				mu.Lock()
				if err != nil && b.err == nil && ctx.Err() == nil {
					b.err = err
				} else if err == nil {
					b.seen[resp.Status]++
					if b.other == nil && resp.Status >= 300 && resp.Status != http.StatusTooManyRequests {
						b.other = resp
					}
				}
				mu.Unlock()
				if err != nil {
					return
				}
				if resp.Status == http.StatusTooManyRequests {
					once.Do(func() { b.first = resp; cancel() })
					return
				}
			}
		}()
	}
	wg.Wait()
	b.sent = min(sent.Load(), int64(max))
	return b
}

// first429 lowers the read limit when the controls allow and bursts until a
// 429; it skips when the limit could not be reached (numbers not shown).
func first429(ctx context.Context) *client.Response {
	GinkgoHelper()
	controlled := lowerReadLimit(ctx)
	rl := Profile().RateLimits
	max, conc := rl.ProbeMaxRequests, rl.ProbeConcurrency
	if controlled {
		max = 200 // the read group now allows 5 with a burst of 5
	}
	b := burstUntil429(ctx, max, conc)
	resp, n := b.first, b.sent
	if resp == nil {
		if controlled {
			Fail("no 429 within 200 calls although the read group was limited to 5/s with a burst of 5 through the sandbox controls; the answers: " + b.String())
		}
		NoVerdict("no 429 within " + strconv.FormatInt(n, 10) + " calls (rateLimits.probeMaxRequests; the answers: " + b.String() + "); the document does not show the numeric limits, so the limit could not be reached")
	}
	return resp
}

// retryAfter reads a 429's Retry-After in seconds or as an HTTP date
// (absent: 0, false).
func retryAfter(resp *client.Response) (time.Duration, bool) {
	v := strings.TrimSpace(resp.Header.Get("Retry-After"))
	if v == "" {
		return 0, false
	}
	if s, err := strconv.Atoi(v); err == nil && s >= 0 {
		return time.Duration(s) * time.Second, true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(0, time.Until(t)), true
	}
	return 0, false
}

// sleepCtx waits d unless the spec ends first.
func sleepCtx(ctx context.Context, d time.Duration) {
	GinkgoHelper()
	select {
	case <-ctx.Done():
		HarnessError("interrupted while backing off")
	case <-time.After(d):
	}
}

// backOff waits d before a retry and returns the time that passed. With the
// clock control it advances the sandbox clock instead, in whole seconds (the
// sandbox's buckets refill on its clock); elsewhere it sleeps.
func backOff(ctx context.Context, d time.Duration) time.Duration {
	GinkgoHelper()
	if !Has(CapClock) {
		sleepCtx(ctx, d)
		return d
	}
	secs := int64((d + time.Second - 1) / time.Second)
	AdvanceClock(ctx, secs)
	return time.Duration(secs) * time.Second
}

var _ = Describe("Rate limits", func() {
	rateLimitTable()
	backoffSpecs()
	tokenRateLimitTable()
})

// expect429 asserts the call was refused for the rate limit.
func expect429(resp *client.Response) {
	GinkgoHelper()
	Expect(resp).NotTo(BeNil(), "no 429")
	ExpectStatus(resp, http.StatusTooManyRequests)
}

// expect429Envelope asserts a 429 in the error envelope (statusCode 429, a
// reason phrase of 429, the echoed path where given). A gateway in front of
// the API may answer the 429 in its own form (RATE-02: "when its body is
// the error envelope"); under rateLimits.envelope: optional such an answer
// leaves the rule nothing to judge.
func expect429Envelope(resp *client.Response) {
	GinkgoHelper()
	expect429(resp)
	if Profile().RateLimits.Envelope != "required" && !carriesErrorEnvelope(resp) {
		Skip(fmt.Sprintf("not applicable: the 429 of %s %s is not the error envelope (Content-Type %q): a gateway's own answer, which rateLimits.envelope: optional accepts",
			resp.Exchange.Method, resp.Exchange.URL, resp.Header.Get("Content-Type")))
	}
	body := ExpectError(resp, http.StatusTooManyRequests)
	ExpectErrorComplete(body)
	ExpectErrorPath(resp, body)
}

// carriesErrorEnvelope reports whether an answer is JSON carrying statusCode
// (the error envelope's member every error has).
func carriesErrorEnvelope(resp *client.Response) bool {
	var body JSON
	if !IsJSONContentType(resp.Header.Get("Content-Type")) || resp.JSON(&body) != nil {
		return false
	}
	_, has := body["statusCode"]
	return has
}

func rateLimitTable() {
	refused := Shared(func(ctx SpecContext) *client.Response { return first429(ctx) })
	ConformanceTable("refuses a burst beyond the rate limit",
		func(ctx SpecContext, rule func(*client.Response)) { rule(refused(ctx)) },
		Serial,
		ConformanceEntry("answers a burst beyond the rate limit with 429", SpecID("rate-limits.answers-burst-beyond-rate"), expect429, Reqs("RATE-01")),
		ConformanceEntry("carries the error envelope on a 429 (statusCode 429, Too Many Requests)", SpecID("rate-limits.carries-error-envelope-429"), expect429Envelope, Reqs("RATE-02")),
	)
}

// tokenBurst limits the token group to 2/s with a burst of 2 through the
// sandbox controls (restored when the spec ends) and bursts token exchanges
// until a 429.
func tokenBurst(ctx SpecContext) *client.Response {
	limitForSpec(ctx, "token", controls.RateLimit{Rate: 2, Burst: 2})
	p := Cfg().Primary
	anon := Anonymous().Raw().RawAuth()
	b := burstWith(ctx, 100, 4, func(ctx context.Context) (*client.Response, error) {
		return anon.Post(ctx, client.TokenPath, client.TokenBody{MerchantID: p.MerchantID, SecretKey: p.SecretKey})
	})
	Expect(b.first).NotTo(BeNil(), "no 429 within 100 token exchanges although the token group was limited to 2/s with a burst of 2; the answers: "+b.String())
	return b.first
}

func tokenRateLimitTable() {
	refused := Shared(tokenBurst)
	ConformanceTable("refuses a burst of token exchanges beyond the limit (sandbox rate-limit control)",
		func(ctx SpecContext, rule func(*client.Response)) { rule(refused(ctx)) },
		Serial, Needs(CapRateLimitCtl),
		ConformanceEntry("answers a burst of token exchanges beyond the limit with 429", SpecID("rate-limits.answers-burst-token-exchanges"), expect429, Reqs("RATE-01")),
		ConformanceEntry("carries the error envelope on a token exchange's 429 and issues no token", SpecID("rate-limits.carries-error-envelope-token"), func(resp *client.Response) {
			expect429Envelope(resp)
			Expect(string(resp.Body)).NotTo(ContainSubstring("accessToken"), "a refused exchange issues no token")
		}, Reqs("RATE-02")),
	)
}

// clockedBackoffMax bounds a back-off the sandbox clock carries out: it
// costs no real time, and stays well within the 900 s token lifetime.
const clockedBackoffMax = 5 * time.Minute

// backoffBound is the longest back-off RATE-03 carries out: the profile's
// rateLimits.maxRetryAfter of real time, or with the sandbox clock control
// (which moves the target's time instead of waiting) clockedBackoffMax.
func backoffBound() time.Duration {
	limit := Timeouts().RetryAfterMax
	if Has(CapClock) {
		limit = max(limit, clockedBackoffMax)
	}
	return limit
}

// backoffSpecs: after a 429 the caller backs off and is served again.
func backoffSpecs() {
	// "Retry with exponential backoff": the wait is the server's Retry-After
	// when it sends one, else exponential from 100 ms; a window longer than
	// backoffBound is not waited out (no verdict: when a retry is served
	// again is not shown, and the numbers are not).
	ConformanceIt("serves again after backing off from a 429 (Retry-After when given, else exponential backoff)", SpecID("rate-limits.serves-again-after-backing"),
		Reqs("RATE-03"), Serial,
		func(ctx SpecContext) {
			resp := first429(ctx)
			ExpectStatus(resp, http.StatusTooManyRequests)
			limit := backoffBound()
			wait, given := retryAfter(resp)
			if given && wait > limit {
				NoVerdict(fmt.Sprintf("the 429 asks for Retry-After %s, longer than the back-off bound %s (rateLimits.maxRetryAfter; the sandbox clock: %s): recovery not waited out", wait, limit, clockedBackoffMax))
			}
			raw := API().Raw()
			step, waited := 100*time.Millisecond, time.Duration(0)
			if given {
				step = wait
			}
			for waited < limit {
				step = max(min(step, limit-waited), 50*time.Millisecond)
				waited += backOff(ctx, step)
				r := Must(raw.Get(ctx, "/cards/config", nil))
				if r.Status != http.StatusTooManyRequests {
					ExpectEnvelopeA(r, schemas.ConfigResponse)
					return
				}
				if d, ok := retryAfter(r); ok {
					step = d
				} else {
					step *= 2
				}
			}
			why := fmt.Sprintf("still 429 after backing off %s (first Retry-After %q; the back-off bound is %s)", waited, resp.Header.Get("Retry-After"), limit)
			if !Has(CapClock) {
				// Without the clock, a window longer than the bound cannot be
				// told from one that never reopens.
				NoVerdict(why + ": the window may be longer than rateLimits.maxRetryAfter")
			}
			Fail(why + " on the sandbox clock")
		})
}
