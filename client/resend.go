package client

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// RateLimitedError is a call the rate limit kept from an answer the spec
// can judge: a wait longer than the run allows (refused before sending), a
// 429 the client may not resend, or 429s beyond the retries. It is no
// verdict on the rule the spec checks, never a pass or a failure.
type RateLimitedError struct {
	Method, URL string
	Group       Group
	// Status is 429 when an answer was refused (0: the wait was refused
	// before sending).
	Status int
	// Wait is the wait the target's limit asked for; Bound names what
	// refused it (the run deadline, --retry-after-max) and Left is what it
	// left.
	Wait, Left time.Duration
	Bound      string
	// Why is what asked for the wait (Retry-After, reset, backoff).
	Why string
	// NotResent says why a refused request was not sent again.
	NotResent string
	// Retries is the number of 429s resent before giving up.
	Retries int
}

func (e *RateLimitedError) Error() string {
	switch {
	case e.NotResent != "":
		return fmt.Sprintf("rate limited: %s %s answered 429 and was not sent again: %s", e.Method, e.URL, e.NotResent)
	case e.Wait > 0:
		why := ""
		if e.Why != "" {
			why = " (" + e.Why + ")"
		}
		return fmt.Sprintf("rate limited: %s %s would wait %s for the %s limit%s, beyond %s",
			e.Method, e.URL, ceilSeconds(e.Wait), e.Group, why, e.Bound)
	}
	return fmt.Sprintf("rate limited: %s %s still answered 429 after %d retries", e.Method, e.URL, e.Retries)
}

// idempotent: RFC 9110 §9.2.2 (PUT and DELETE too: the same request twice
// leaves the state of once).
func idempotent(method string) bool {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodOptions, http.MethodTrace, http.MethodPut, http.MethodDelete:
		return true
	}
	return false
}

// mayResend decides whether a request answered 429 may be sent again, and
// says why not. The document tells clients to "retry with exponential
// backoff" on 429 but not whether a 429 can come after the request took
// effect, so a request that could act twice (POST, PATCH: a withdrawal, an
// issuance, a purchase, a status change the target may refuse as "already
// FROZEN") is resent only when a second attempt cannot act twice or the 429
// shows it came before processing:
//   - idempotent methods, and the token exchange (it creates nothing);
//   - a body carrying a merchant reference (the issuance and purchase
//     references): a second attempt with the same reference is a duplicate
//     the target refuses (409, "duplicate idempotency reference") or
//     replays; a 409 after a resent 429 is surfaced (Response.KeptAfter429);
//   - a 429 from a limiter in front of the handler: it carries Retry-After
//     or a rate-limit header and no resource (no "data" member), so it
//     states a refusal and nothing else. The resent bytes are the same.
//
// Any other 429 (a bare 429, or one carrying a resource) is handed back
// as no verdict: sending it again could move money twice.
func mayResend(method, path string, body []byte, refFields []string, resp *Response, li limitInfo) (bool, string) {
	if idempotent(method) || groupOf(method, path) == GroupToken {
		return true, ""
	}
	if ref := referenceIn(body, refFields); ref != "" {
		return true, ""
	}
	if len(li.from) == 0 {
		return false, fmt.Sprintf("the 429 carries no Retry-After or rate-limit header, so nothing shows it came before the %s took effect", method)
	}
	if carriesResource(resp.Body) {
		return false, fmt.Sprintf("the 429 carries a data member, so the %s may have taken effect", method)
	}
	return true, ""
}

// referenceIn returns the merchant reference a JSON body carries at one of
// the top-level fields named (default "reference").
func referenceIn(body []byte, fields []string) string {
	if len(body) == 0 || !bytes.HasPrefix(bytes.TrimSpace(body), []byte("{")) {
		return ""
	}
	var m map[string]any
	if json.Unmarshal(body, &m) != nil {
		return ""
	}
	if len(fields) == 0 {
		fields = []string{"reference"}
	}
	for _, f := range fields {
		if s, ok := m[f].(string); ok && strings.TrimSpace(s) != "" {
			return s
		}
	}
	return ""
}

// carriesResource reports whether an answer body is a JSON object with a
// non-null data member (Envelope A and B carry their result there).
func carriesResource(body []byte) bool {
	var m map[string]json.RawMessage
	if json.Unmarshal(body, &m) != nil {
		return false
	}
	d, ok := m["data"]
	return ok && string(bytes.TrimSpace(d)) != "null"
}

// NoVerdict says why an answer cannot be judged by a spec expecting one of
// want: a 429 the spec did not ask for (the client gave up waiting), or a
// 409 after the client resent a 429 of a request carrying a reference (the
// first attempt was most likely kept: the 409 is the client's doing).
func (r *Response) NoVerdict(want ...int) (string, bool) {
	if r == nil {
		return "", false
	}
	for _, w := range want {
		if w == r.Status {
			return "", false
		}
	}
	switch {
	case r.Status == http.StatusTooManyRequests:
		return fmt.Sprintf("rate limited: %s %s still answered 429 (Retry-After %q)", r.Exchange.Method, r.Exchange.URL, r.Header.Get("Retry-After")), true
	case r.KeptAfter429:
		return fmt.Sprintf("%s %s answered 429, was sent again with the same reference and then answered 409: the first attempt was most likely kept, so the 409 says nothing of the rule", r.Exchange.Method, r.Exchange.URL), true
	}
	return "", false
}

// ceilSeconds rounds a wait up to whole seconds (a refused wait is stated
// alike for the calls it refuses in the same second).
func ceilSeconds(d time.Duration) time.Duration {
	return (d + time.Second - 1).Truncate(time.Second)
}
