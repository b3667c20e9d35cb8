package sandbox

import (
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/merchant-harness/mph/sandbox/answer"
	"github.com/merchant-harness/mph/sandbox/fault"
	"github.com/merchant-harness/mph/sandbox/state"
	"github.com/merchant-harness/mph/sandbox/token"
	"github.com/merchant-harness/mph/sandbox/validate"
	"github.com/merchant-harness/mph/sandbox/variant"
	"github.com/merchant-harness/mph/sandbox/wording"
)

type accessToken struct {
	AccessToken string `json:"accessToken"`
	TokenType   string `json:"tokenType"`
	ExpiresIn   int    `json:"expiresIn"`
	Environment string `json:"environment"`
	MerchantID  string `json:"merchantId"`
}

// handleToken is POST /auth/token.
func (s *Server) handleToken(rc *answer.Req) {
	b, ok := rc.ReadBody()
	if !ok {
		return
	}
	v := validate.Of(b)
	mid := v.Str("merchantId", true, validate.MaxText)
	key := v.Str("secretKey", true, validate.MaxText)
	if rc.Invalid(&v) || s.set.LockedOut(rc, mid) {
		return
	}
	ref, found := rc.World.Keys[key]
	if s.faults.On(fault.AuthWrongSecret) && (!found || ref.Merchant.ID != mid) {
		if m := rc.World.Merchants[mid]; m != nil {
			ref, found = state.KeyRef{Merchant: m, Env: state.EnvTest}, true // any key of a known merchant
		}
	}
	if !found || ref.Merchant.ID != mid {
		s.set.NoteFailure(mid, rc.Now)
		rc.Error(http.StatusUnauthorized, wording.BadCreds)
		return
	}
	if h := rc.R.Header.Get("X-Merchant-Id"); h != "" && h != mid && !s.faults.On(fault.AuthIgnoreMerchantHdr) && s.set.ChecksMerchantHeader(true) {
		rc.Error(http.StatusUnauthorized, wording.MerchantHdr)
		return
	}
	st := ref.Merchant.Envs[ref.Env]
	if (!s.variants.On(variant.IPCallsOnly) && !s.ipAllowed(rc, st)) || s.set.KYBAtExchange(rc, ref.Merchant, ref.Env) {
		return
	}
	issuedAt := rc.Now
	if s.faults.On(fault.TokenLifetime600) {
		issuedAt = issuedAt.Add(-300 * time.Second) // exp = now + 600 s
	}
	if s.faults.On(fault.TokenIssuedOnce) {
		st.FirstToken.CompareAndSwap(0, issuedAt.UnixNano())
		issuedAt = time.Unix(0, st.FirstToken.Load()) // the first token, again
	}
	tok, err := s.jwt.Issue(mid, ref.Env.String(), issuedAt)
	if err != nil {
		rc.Error(http.StatusInternalServerError, "Could not sign the access token")
		return
	}
	rc.EnvelopeA(http.StatusOK, s.tokenAnswer(tok, mid, ref.Env))
}

// tokenAnswer is the access token object, or a map as a token-answer fault
// bends it.
func (s *Server) tokenAnswer(tok, mid string, env state.Env) any {
	a := accessToken{AccessToken: tok, TokenType: "Bearer", ExpiresIn: int(token.Lifetime / time.Second), Environment: env.String(), MerchantID: mid}
	m := map[string]any{"accessToken": a.AccessToken, "tokenType": a.TokenType, "expiresIn": a.ExpiresIn, "environment": a.Environment, "merchantId": a.MerchantID}
	switch {
	case s.faults.On(fault.TokenNoEnvironment):
		delete(m, "environment")
	case s.faults.On(fault.TokenNoMerchantID):
		delete(m, "merchantId")
	case s.faults.On(fault.TokenBearerPrefixed):
		m["accessToken"] = "Bearer " + tok
	case s.faults.On(fault.TokenTypeLowercase):
		m["tokenType"] = "bearer"
	case s.faults.On(fault.TokenExpiresInMillis):
		m["expiresIn"] = int(token.Lifetime / time.Millisecond)
	default:
		return a
	}
	return m
}

// authenticate resolves the bearer token to a merchant environment and applies
// the X-Merchant-Id, IP whitelist and KYB rules, answering the error itself.
func (s *Server) authenticate(rc *answer.Req) bool {
	h := rc.R.Header.Get("Authorization")
	const prefix = "bearer "
	bearerMsg := wording.Bearer
	if s.faults.On(fault.BearerMsgVague) {
		bearerMsg = http.StatusText(http.StatusUnauthorized)
	}
	if h == "" && s.faults.On(fault.AuthNoHeaderServed) {
		rc.St = rc.World.Merchants[DemoMerchants()[0].ID].Envs[state.EnvTest]
		return true
	}
	if len(h) <= len(prefix) || !strings.EqualFold(h[:len(prefix)], prefix) {
		rc.Error(http.StatusUnauthorized, bearerMsg)
		return false
	}
	raw := strings.TrimSpace(h[len(prefix):])
	if s.faults.On(fault.TokenBearerPrefixed) && len(raw) > len(prefix) && strings.EqualFold(raw[:len(prefix)], prefix) {
		raw = strings.TrimSpace(raw[len(prefix):]) // the token it answered
	}
	c, err := s.set.SecretKeyBearer(rc, raw)
	if c == nil {
		c, err = s.jwt.Verify(raw, s.faults.On(fault.AuthExpiredAccepted))
	}
	if err != nil && s.faults.On(fault.AuthForgedAccepted) && errors.Is(err, jwt.ErrTokenSignatureInvalid) {
		if u, uerr := token.Decode(raw); uerr == nil {
			c, err = u, nil // trusted on its claims alone
		}
	}
	if dc, derr := s.crossDecodesOnly(rc, raw, err); dc != nil {
		c, err = dc, derr
	}
	if err != nil {
		if err == token.ErrExpired {
			rc.Error(http.StatusUnauthorized, wording.Expired)
		} else {
			rc.Error(http.StatusUnauthorized, bearerMsg)
		}
		return false
	}
	m := rc.World.Merchants[c.Subject]
	env, okEnv := state.ParseEnv(c.Env)
	if m == nil || !okEnv {
		rc.Error(http.StatusUnauthorized, bearerMsg)
		return false
	}
	if x := rc.R.Header.Get("X-Merchant-Id"); x != "" && x != m.ID && !s.faults.On(fault.AuthIgnoreMerchantHdr) && s.set.ChecksMerchantHeader(false) {
		rc.Error(http.StatusUnauthorized, wording.MerchantHdr)
		return false
	}
	st := m.Envs[env]
	if !s.faults.On(fault.AuthIPPerCallSkipped) && !s.ipAllowed(rc, st) {
		return false
	}
	if env == state.EnvLive && m.KYB < 2 && !s.faults.On(fault.AuthKYBSkipped) && !s.crossSkipsKYB(rc) && s.set.KYBApplies(rc.R) {
		rc.Error(http.StatusForbidden, wording.KYB)
		return false
	}
	rc.St = st
	return true
}

// ipAllowed applies the merchant environment's IP whitelist to the caller.
func (s *Server) ipAllowed(rc *answer.Req, st *state.EnvState) bool {
	if s.crossSkipsIP(rc) {
		return true
	}
	wl := st.Whitelist.Load()
	if wl == nil || len(*wl) == 0 {
		return true
	}
	ip, ok := clientIP(rc.R)
	if ok {
		for _, a := range *wl {
			if a == ip {
				return true
			}
		}
	}
	shown := "unknown"
	if ok {
		shown = ip.String()
	}
	rc.Error(http.StatusForbidden, wording.IPNotAllowed(shown))
	return false
}
