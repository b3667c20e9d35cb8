package httpclient

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// RetryAfterError is a Retry-After longer than the harness will wait.
type RetryAfterError struct {
	Value string        // the header as sent
	Wait  time.Duration // what it asks for
	Max   time.Duration // the cap (--retry-after-max)
}

func (e *RetryAfterError) Error() string {
	return fmt.Sprintf("the target asked to wait %s (Retry-After: %s), longer than the %s the harness waits (--retry-after-max)",
		e.Wait.Round(time.Second), e.Value, e.Max)
}

// RetryAfter interprets a Retry-After value (delay-seconds or HTTP-date,
// RFC 9110 §10.2.3) against now. ok is false when the value is absent or
// malformed; a wait longer than max (DefaultRetryAfterMax when max <= 0) is
// a *RetryAfterError, so no caller ever sleeps unboundedly on a target's say-so.
func RetryAfter(value string, now time.Time, max time.Duration) (wait time.Duration, ok bool, err error) {
	if max <= 0 {
		max = DefaultRetryAfterMax
	}
	v := strings.TrimSpace(value)
	if v == "" {
		return 0, false, nil
	}
	if s, perr := strconv.ParseInt(v, 10, 64); perr == nil {
		if s < 0 {
			return 0, false, nil
		}
		if s > int64(max/time.Second)+1 {
			return 0, true, &RetryAfterError{Value: v, Wait: time.Duration(min(s, 1<<32)) * time.Second, Max: max}
		}
		wait = time.Duration(s) * time.Second
	} else if t, perr := http.ParseTime(v); perr == nil {
		wait = max0(t.Sub(now))
	} else {
		return 0, false, nil
	}
	if wait > max {
		return 0, true, &RetryAfterError{Value: v, Wait: wait, Max: max}
	}
	return wait, true, nil
}

// RetryAfterHeader is RetryAfter of h's Retry-After at time.Now().
func RetryAfterHeader(h http.Header, max time.Duration) (time.Duration, bool, error) {
	if h == nil {
		return 0, false, nil
	}
	return RetryAfter(h.Get("Retry-After"), time.Now(), max)
}

func max0(d time.Duration) time.Duration {
	if d < 0 {
		return 0
	}
	return d
}
