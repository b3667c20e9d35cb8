package settings

import (
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/merchant-harness/mph/sandbox/answer"
	"github.com/merchant-harness/mph/sandbox/state"
	"github.com/merchant-harness/mph/sandbox/token"
	"github.com/merchant-harness/mph/sandbox/variant"
	"github.com/merchant-harness/mph/sandbox/wording"
)

// ChecksMerchantHeader reports whether X-Merchant-Id is checked at the
// token exchange (atToken) or on authenticated calls.
func (s *Settings) ChecksMerchantHeader(atToken bool) bool {
	v := &s.v
	switch {
	case v.On(variant.MerchantHdrUnchecked):
		return false
	case v.On(variant.MerchantHdrToken):
		return atToken
	case v.On(variant.MerchantHdrRequests):
		return !atToken
	}
	return true
}

// KYBApplies reports whether the KYB tier applies to request r.
func (s *Settings) KYBApplies(r *http.Request) bool {
	return !s.v.On(variant.KYBWritesOnly) || (r.Method != http.MethodGet && r.Method != http.MethodHead)
}

// lockout windows of token-lockout-after-10-failures.
const (
	lockoutFailures = 10
	lockoutWindow   = 10 * time.Minute
	lockoutFor      = 60 * time.Second
)

// LockedOut answers 429 when merchant mid is locked out; it reports
// whether it answered.
func (s *Settings) LockedOut(q *answer.Req, mid string) bool {
	if !s.v.On(variant.Lockout) {
		return false
	}
	vs := s.mem
	vs.mu.Lock()
	f := vs.failures[mid]
	locked := len(f) >= lockoutFailures && q.Now.Sub(f[len(f)-1]) < lockoutFor
	vs.mu.Unlock()
	if locked {
		q.W.Header().Set("Retry-After", strconv.Itoa(int(lockoutFor/time.Second)))
		q.Error(http.StatusTooManyRequests, "Too many failed attempts for this merchant: retry later")
	}
	return locked
}

// NoteFailure records a failed exchange naming merchant mid.
func (s *Settings) NoteFailure(mid string, now time.Time) {
	if !s.v.On(variant.Lockout) {
		return
	}
	vs := s.mem
	vs.mu.Lock()
	defer vs.mu.Unlock()
	var kept []time.Time
	for _, t := range vs.failures[mid] {
		if now.Sub(t) < lockoutWindow {
			kept = append(kept, t)
		}
	}
	vs.failures[mid] = append(kept, now)
}

// SecretKeyBearer reads a secret key in the bearer position on the routes
// whose examples show one (secret-key-bearer-accepted) as the claims of its
// merchant and environment; nil when it is not one. The other checks of
// authenticate still apply.
func (s *Settings) SecretKeyBearer(q *answer.Req, raw string) (*token.Claims, error) {
	p := q.R.URL.Path
	if !s.v.On(variant.SecretBearer) || !(strings.HasSuffix(p, "/contact") || strings.HasSuffix(p, "/simulate-webhook")) {
		return nil, nil
	}
	ref, ok := q.World.Keys[raw]
	if !ok {
		return nil, nil
	}
	c := &token.Claims{Env: ref.Env.String()}
	c.Subject = ref.Merchant.ID
	return c, nil
}

// KYBAtExchange refuses the token exchange of a LIVE merchant below Tier 2
// (kyb-at-token-exchange); it reports whether it answered.
func (s *Settings) KYBAtExchange(q *answer.Req, m *state.Merchant, env state.Env) bool {
	if !s.v.On(variant.KYBAtExchange) || env != state.EnvLive || m.KYB >= 2 {
		return false
	}
	q.Error(http.StatusForbidden, wording.KYB)
	return true
}
