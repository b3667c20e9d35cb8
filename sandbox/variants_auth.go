package sandbox

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/merchant-harness/mph/sandbox/variant"
	"github.com/merchant-harness/mph/sandbox/wording"
)

// checksMerchantHeader reports whether X-Merchant-Id is checked at the
// token exchange (atToken) or on authenticated calls.
func (s *Server) checksMerchantHeader(atToken bool) bool {
	v := &s.variants
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

// kybApplies reports whether the KYB tier applies to request r.
func (s *Server) kybApplies(r *http.Request) bool {
	return !s.variants.On(variant.KYBWritesOnly) || (r.Method != http.MethodGet && r.Method != http.MethodHead)
}

// lockout windows of token-lockout-after-10-failures.
const (
	lockoutFailures = 10
	lockoutWindow   = 10 * time.Minute
	lockoutFor      = 60 * time.Second
)

// lockedOut answers 429 when merchant mid is locked out; it reports
// whether it answered.
func (s *Server) lockedOut(rc *reqCtx, mid string) bool {
	if !s.variants.On(variant.Lockout) {
		return false
	}
	vs := s.vstate
	vs.mu.Lock()
	f := vs.failures[mid]
	locked := len(f) >= lockoutFailures && rc.now.Sub(f[len(f)-1]) < lockoutFor
	vs.mu.Unlock()
	if locked {
		rc.w.Header().Set("Retry-After", strconv.Itoa(int(lockoutFor/time.Second)))
		s.writeError(rc, http.StatusTooManyRequests, "Too many failed attempts for this merchant: retry later")
	}
	return locked
}

// noteFailure records a failed exchange naming merchant mid.
func (s *Server) noteFailure(mid string, now time.Time) {
	if !s.variants.On(variant.Lockout) {
		return
	}
	vs := s.vstate
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

// jweHeader is the protected header of token-jwe-compact's tokens.
var jweHeader = base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"dir","enc":"A256GCM","cty":"JWT"}`))

// jweKey derives the content encryption key from the signing key.
func jweKey(key []byte) []byte {
	k := sha256.Sum256(append([]byte("mph-sandbox-jwe/"), key...))
	return k[:]
}

// sealJWE wraps a signed token in a JWE compact serialisation.
func sealJWE(key []byte, jws string) (string, error) {
	block, err := aes.NewCipher(jweKey(key))
	if err != nil {
		return "", err
	}
	gcm, err := cipher.NewGCM(block)
	if err != nil {
		return "", err
	}
	iv := make([]byte, gcm.NonceSize())
	if _, err := rand.Read(iv); err != nil {
		return "", err
	}
	sealed := gcm.Seal(nil, iv, []byte(jws), []byte(jweHeader))
	ct, tag := sealed[:len(sealed)-gcm.Overhead()], sealed[len(sealed)-gcm.Overhead():]
	enc := base64.RawURLEncoding.EncodeToString
	return jweHeader + ".." + enc(iv) + "." + enc(ct) + "." + enc(tag), nil
}

// openJWE unwraps a JWE compact token to the signed token inside.
func openJWE(key []byte, tok string) (string, error) {
	parts := strings.Split(tok, ".")
	if len(parts) != 5 || parts[0] != jweHeader || parts[1] != "" {
		return "", errors.New("not a JWE of this sandbox")
	}
	dec := base64.RawURLEncoding.DecodeString
	iv, err1 := dec(parts[2])
	ct, err2 := dec(parts[3])
	tag, err3 := dec(parts[4])
	if err := errors.Join(err1, err2, err3); err != nil {
		return "", err
	}
	block, err := aes.NewCipher(jweKey(key))
	if err != nil {
		return "", err
	}
	gcm, err := cipher.NewGCM(block)
	if err != nil || len(iv) != gcm.NonceSize() {
		return "", errors.New("bad JWE")
	}
	plain, err := gcm.Open(nil, iv, append(ct, tag...), []byte(parts[0]))
	return string(plain), err
}

// secretKeyBearer reads a secret key in the bearer position on the routes
// whose examples show one (secret-key-bearer-accepted) as the claims of its
// merchant and environment; nil when it is not one. The other checks of
// authenticate still apply.
func (s *Server) secretKeyBearer(rc *reqCtx, raw string) (*tokenClaims, error) {
	p := rc.r.URL.Path
	if !s.variants.On(variant.SecretBearer) || !(strings.HasSuffix(p, "/contact") || strings.HasSuffix(p, "/simulate-webhook")) {
		return nil, nil
	}
	ref, ok := rc.world.keys[raw]
	if !ok {
		return nil, nil
	}
	c := &tokenClaims{Env: ref.env.String()}
	c.Subject = ref.m.id
	return c, nil
}

// kybAtExchange refuses the token exchange of a LIVE merchant below Tier 2
// (kyb-at-token-exchange); it reports whether it answered.
func (s *Server) kybAtExchange(rc *reqCtx, m *merchant, env Env) bool {
	if !s.variants.On(variant.KYBAtExchange) || env != EnvLive || m.kyb >= 2 {
		return false
	}
	s.writeError(rc, http.StatusForbidden, wording.KYB)
	return true
}
