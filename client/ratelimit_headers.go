package client

import (
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// What an answer's headers say about the target's rate limit. The document
// states only "429 | rate limit exceeded; retry with exponential backoff"
// and "Numeric rate limits: not shown", so every convention in use is read:
// Retry-After (RFC 9110 §10.2.3: delay-seconds or an HTTP-date), the IETF
// httpapi drafts (RateLimit-Limit/-Remaining/-Reset and RateLimit-Policy
// "100;w=60" of the early drafts; RateLimit "limit=100, remaining=0,
// reset=50"; RateLimit "\"p\";r=0;t=30" with RateLimit-Policy
// "\"p\";q=100;w=60" of the later ones) and the X-RateLimit-Limit/-Remaining/
// -Reset family (Reset as seconds from now, or as a Unix time).

// limitInfo is what one answer's headers state; zero fields were not stated.
type limitInfo struct {
	// retryAfter is the wait a Retry-After asks for (hasRetryAfter).
	retryAfter    time.Duration
	hasRetryAfter bool
	retryAfterRaw string
	// remaining requests in the current window (-1: not stated) and the
	// time until the window resets (hasReset).
	remaining int
	reset     time.Duration
	hasReset  bool
	// limit is the stated quota (0: not stated); window is the length of
	// the window a policy states (0: not stated).
	limit  int
	window time.Duration
	// from names the headers read, for the run's summary.
	from []string
}

// pace is the spacing the stated quota allows (0: none can be derived). A
// policy (quota per window) states it; otherwise, at an exhausted window, the
// quota over the time to the reset approximates it (a token bucket's reset is
// its refill time; a fixed window's is at most the window).
func (li limitInfo) pace() time.Duration {
	switch {
	case li.limit <= 0:
		return 0
	case li.window > 0:
		return li.window / time.Duration(li.limit)
	case li.hasReset && li.remaining == 0 && li.reset > 0:
		return li.reset / time.Duration(li.limit)
	}
	return 0
}

// hold is how long the window stays closed, when the headers say so: the
// Retry-After, else the reset of an exhausted window.
func (li limitInfo) hold() (time.Duration, string, bool) {
	if li.hasRetryAfter {
		return li.retryAfter, "Retry-After: " + li.retryAfterRaw, true
	}
	if li.hasReset && li.remaining == 0 {
		return li.reset, "reset in " + li.reset.Round(time.Millisecond).String() + " (" + strings.Join(li.from, ", ") + ")", true
	}
	return 0, "", false
}

// readLimitHeaders reads every rate-limit header of h against now.
func readLimitHeaders(h http.Header, now time.Time) limitInfo {
	li := limitInfo{remaining: -1}
	if h == nil {
		return li
	}
	if v := strings.TrimSpace(h.Get("Retry-After")); v != "" {
		if d, ok := parseRetryAfter(v, now); ok {
			li.retryAfter, li.hasRetryAfter, li.retryAfterRaw = d, true, v
			li.from = append(li.from, "Retry-After")
		}
	}
	for _, fam := range []string{"RateLimit", "X-RateLimit"} {
		li.readFamily(h, fam, now)
	}
	if v := h.Get("RateLimit"); v != "" {
		li.readCombined(v)
	}
	if v := h.Get("RateLimit-Policy"); v != "" {
		li.readPolicy(v)
	}
	return li
}

// parseRetryAfter reads delay-seconds or an HTTP-date (a past date is 0).
func parseRetryAfter(v string, now time.Time) (time.Duration, bool) {
	if s, err := strconv.ParseInt(v, 10, 64); err == nil {
		if s < 0 {
			return 0, false
		}
		return secondsDuration(float64(s)), true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(0, t.Sub(now)), true
	}
	return 0, false
}

// readFamily reads <fam>-Limit, -Remaining and -Reset.
func (li *limitInfo) readFamily(h http.Header, fam string, now time.Time) {
	if n, ok := firstInt(h.Get(fam + "-Limit")); ok && n > 0 {
		li.limit = minPositive(li.limit, n)
		li.from = append(li.from, fam+"-Limit")
		// Early drafts put the policy in the Limit header: "10, 10;w=1, 50;w=60".
		li.readPolicy(h.Get(fam + "-Limit"))
	}
	if n, ok := firstInt(h.Get(fam + "-Remaining")); ok && n >= 0 {
		li.setRemaining(n)
		li.from = append(li.from, fam+"-Remaining")
	}
	if v := strings.TrimSpace(h.Get(fam + "-Reset")); v != "" {
		if d, ok := resetValue(v, now); ok {
			li.setReset(d)
			li.from = append(li.from, fam+"-Reset")
		}
	}
}

// resetValue reads a reset as seconds from now or, when the number is
// clearly a Unix time (after 2001), as that instant; an HTTP-date is read too.
func resetValue(v string, now time.Time) (time.Duration, bool) {
	if f, err := strconv.ParseFloat(v, 64); err == nil && f >= 0 && !math.IsInf(f, 0) {
		if f > 1e9 {
			return max(0, time.Unix(int64(f), 0).Sub(now)), true
		}
		return secondsDuration(f), true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(0, t.Sub(now)), true
	}
	return 0, false
}

// readCombined reads the RateLimit header: "limit=100, remaining=0,
// reset=50" or structured items "\"p\";r=0;t=30".
func (li *limitInfo) readCombined(v string) {
	for _, item := range splitItems(v) {
		params := itemParams(item)
		for k, val := range params {
			n, err := strconv.ParseFloat(val, 64)
			if err != nil || n < 0 || math.IsInf(n, 0) {
				continue
			}
			switch k {
			case "limit", "q":
				li.limit = minPositive(li.limit, int(n))
			case "remaining", "r":
				li.setRemaining(int(n))
			case "reset", "t":
				li.setReset(secondsDuration(n))
			}
		}
	}
	li.from = append(li.from, "RateLimit")
}

// readPolicy reads quota-per-window policies: "100;w=60" or "\"p\";q=100;w=60".
// The slowest policy stated is kept.
func (li *limitInfo) readPolicy(v string) {
	for _, item := range splitItems(v) {
		params := itemParams(item)
		w, err := strconv.ParseFloat(params["w"], 64)
		if err != nil || w <= 0 || math.IsInf(w, 0) {
			continue
		}
		q, ok := firstInt(item)
		if s, has := params["q"]; has {
			n, err := strconv.Atoi(s)
			q, ok = n, err == nil
		}
		if !ok || q <= 0 {
			continue
		}
		win := secondsDuration(w)
		if li.window == 0 || win/time.Duration(q) > li.window/time.Duration(max(li.limit, 1)) {
			li.limit, li.window = q, win
		}
	}
	if li.window > 0 && !contains(li.from, "RateLimit-Policy") {
		li.from = append(li.from, "RateLimit-Policy")
	}
}

func (li *limitInfo) setRemaining(n int) {
	if li.remaining < 0 || n < li.remaining {
		li.remaining = n
	}
}

func (li *limitInfo) setReset(d time.Duration) {
	if !li.hasReset || d > li.reset {
		li.reset, li.hasReset = d, true
	}
}

// splitItems splits a header list at commas outside quotes.
func splitItems(v string) []string {
	var out []string
	quoted, start := false, 0
	for i := 0; i < len(v); i++ {
		switch v[i] {
		case '"':
			quoted = !quoted
		case ',':
			if !quoted {
				out = append(out, strings.TrimSpace(v[start:i]))
				start = i + 1
			}
		}
	}
	return append(out, strings.TrimSpace(v[start:]))
}

// itemParams reads the key=value parts of one item ("limit=100" or
// "\"p\";q=100;w=60"); keys are lower-cased, quotes dropped.
func itemParams(item string) map[string]string {
	out := map[string]string{}
	for _, part := range strings.Split(item, ";") {
		k, v, ok := strings.Cut(strings.TrimSpace(part), "=")
		if ok {
			out[strings.ToLower(strings.TrimSpace(k))] = strings.Trim(strings.TrimSpace(v), `"`)
		}
	}
	return out
}

// firstInt reads the leading integer of a header value ("100", "100;w=60").
func firstInt(v string) (int, bool) {
	v = strings.TrimSpace(v)
	end := 0
	for end < len(v) && v[end] >= '0' && v[end] <= '9' {
		end++
	}
	if end == 0 || end > 9 {
		return 0, false
	}
	n, err := strconv.Atoi(v[:end])
	return n, err == nil
}

// secondsDuration converts seconds to a duration, capped at a day (a
// target's number must not overflow the conversion).
func secondsDuration(s float64) time.Duration {
	if !(s < 86400) {
		return 24 * time.Hour
	}
	return time.Duration(s * float64(time.Second))
}

func minPositive(a, b int) int {
	if a <= 0 || (b > 0 && b < a) {
		return b
	}
	return a
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}
