package sandbox

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Authentication and rate limits: the token is "a JWT", the X-Merchant-Id
// placement, the scope of "live operations" and what a limiter in front of
// the API answers are open.
var (
	dTokenForm = declareDimension("token-form", []string{"OPEN-JWT-FORM"},
		"Which JWT serialisation the access token uses.",
		quote("accessToken (string, JWT)", "The only scheme is bearer tokens (HTTP bearer, JWT)"),
		"token-jws-compact", "A signed JWT (JWS compact: three segments).")
	vTokenJWE = dTokenForm.setting("token-jwe-compact", "The access token is an encrypted JWT (JWE compact: five segments, alg dir, enc A256GCM).",
		`"accessToken (string, JWT)" (RFC 7519: a JWT is a JWS or a JWE)`, "", false)

	dTokenType = declareDimension("token-type-case", []string{"OPEN-TOKEN-TYPE-CASE"},
		"How tokenType spells Bearer.",
		quote("tokenType (Bearer)"),
		"token-type-bearer", "tokenType Bearer.")
	vTokenTypeLower = dTokenType.setting("token-type-lower-case", "tokenType is \"bearer\" (RFC 6749 §5.1: the token type is case-insensitive).",
		`"tokenType (Bearer)"; "HTTP bearer" (RFC 6750 and 6749: case-insensitive)`, "", true)

	dBearerChallenge = declareDimension("bearer-challenge", []string{"OPEN-BEARER-CHALLENGE"},
		"Whether a 401 carries a WWW-Authenticate challenge.",
		quote("The only scheme is bearer tokens (HTTP bearer, JWT)"),
		"bearer-challenge-absent", "No WWW-Authenticate header.")
	vBearerChallenge = dBearerChallenge.setting("bearer-challenge-header", "Every 401 carries WWW-Authenticate: Bearer realm=\"merchant\", error=\"invalid_token\" (RFC 6750).",
		`"HTTP bearer" (RFC 6750 defines the challenge; the document shows none)`, "", true)

	dTokenMerchant = declareDimension("token-merchant-id", []string{"OPEN-TOKEN-MERCHANT-ID"},
		"Which merchant id the token answer carries.",
		quote("merchantId (string)"),
		"token-merchant-id-as-given", "The merchantId of the exchange.")
	vTokenMerchantInternal = dTokenMerchant.setting("token-merchant-id-internal", "The token answer carries the merchant's internal id (mch_ and 8 digits), not the merchantId of the exchange.",
		`"merchantId (string)" (that it repeats the request's value is not stated)`, "", true)

	dTokenMembers = declareDimension("token-answer-members", []string{"OPEN-TOKEN-FIELD-PRESENCE"},
		"Which members of the access token answer are present.",
		quote("accessToken (string, JWT), tokenType (Bearer), expiresIn (number of seconds, 900), environment (TEST or LIVE), merchantId (string)"),
		"token-answer-all-members", "All five members.")
	vTokenNoMerchantID = dTokenMembers.setting("token-answer-without-merchant-id", "The token answer omits merchantId (environment, which the document says it states, stays).",
		`the access token's members are listed without saying which are always present; only environment is stated`, "", true)

	dSecretBearer = declareDimension("secret-key-bearer", []string{"OPEN-SECRET-KEY-AS-BEARER"},
		"Whether the secret key works in the bearer position where the document's examples put it.",
		quote("Two endpoint examples (contact update, webhook simulation) show a secret key in the bearer position instead of an access token"),
		"secret-key-bearer-refused", "Only access tokens are accepted.")
	vSecretBearer = dSecretBearer.setting("secret-key-bearer-accepted", "PATCH contact and POST simulate-webhook also accept the merchant's secret key as the bearer value, as the document's examples show.",
		`"Two endpoint examples ... show a secret key in the bearer position"`, "", false)

	dIPScope = declareDimension("ip-whitelist-scope", []string{"OPEN-IP-WHITELIST"},
		"Where the IP whitelist refuses a caller.",
		quote("Access can also be refused with 403 when the caller's IP address is not in the merchant's IP whitelist for that environment"),
		"ip-whitelist-everywhere", "At the token exchange and on every call.")
	vIPCallsOnly = dIPScope.setting("ip-whitelist-calls-only", "The token exchange is open to any address; every authenticated call from outside the whitelist is refused with 403.",
		`"Access can also be refused with 403 when the caller's IP address is not in the merchant's IP whitelist" (at which calls is not stated)`, "", false)

	dTokenMissing = declareDimension("token-missing-member", []string{"OPEN-TOKEN-MISSING-MEMBER"},
		"The refusal of a token exchange missing merchantId or secretKey.",
		quote("merchantId (string), secretKey (string), both required", "Wrong credentials give 401", "400 | missing parameters"),
		"token-missing-member-400", "400 with a constraint-violation array.")
	vTokenMissing401 = dTokenMissing.setting("token-missing-member-401", "A token exchange missing merchantId or secretKey is refused with 401 \"Invalid credentials\".",
		`"Wrong credentials give 401"; "400 | missing parameters" (both readings are documented)`, "", true)

	dMerchantHeader = declareDimension("merchant-header", []string{"OPEN-MERCHANT-ID-HEADER"},
		"Where X-Merchant-Id is checked.",
		quote("Where X-Merchant-Id is sent: not shown"),
		"merchant-header-everywhere", "A mismatching X-Merchant-Id is refused at the token exchange and on every call.")
	vMerchantHdrUnchecked = dMerchantHeader.setting("merchant-header-unchecked", "X-Merchant-Id is not checked anywhere.",
		`"Where X-Merchant-Id is sent: not shown"`,
		"auth:\n  merchantIdHeader: none\n", false)
	vMerchantHdrToken = dMerchantHeader.setting("merchant-header-token-only", "X-Merchant-Id is checked at the token exchange only.",
		`"Where X-Merchant-Id is sent: not shown"`, "auth:\n  merchantIdHeader: token\n", false)
	vMerchantHdrRequests = dMerchantHeader.setting("merchant-header-requests-only", "X-Merchant-Id is checked on authenticated calls only.",
		`"Where X-Merchant-Id is sent: not shown"`, "auth:\n  merchantIdHeader: requests\n", false)

	dKYBScope = declareDimension("access-refusal-point", []string{"OPEN-KYB-SCOPE"},
		"Which LIVE calls need KYB Tier 2.",
		quote("Live operations require KYB Tier 2 or higher"),
		"kyb-every-live-call", "Every LIVE call of a merchant below Tier 2 is refused with 403.")
	vKYBAtExchange = dKYBScope.setting("kyb-at-token-exchange", "A LIVE merchant below Tier 2 is refused with 403 at the token exchange already.",
		`"Live operations require KYB Tier 2 or higher" (where the refusal comes is not stated)`, "", false)
	vKYBWritesOnly = dKYBScope.setting("kyb-writes-only", "A merchant below Tier 2 may read (GET) in LIVE; every LIVE write is refused with 403.",
		`"Live operations require KYB Tier 2 or higher" (whether a read is an operation is not stated)`, "", false)

	dLockout = declareDimension("credential-lockout", []string{"OPEN-CREDENTIAL-LOCKOUT"},
		"Whether repeated wrong credentials lock a merchant out.",
		quote("Wrong credentials give 401", "other failure conditions: not shown"),
		"token-no-lockout", "Wrong credentials are refused with 401, however often.")
	vLockout = dLockout.setting("token-lockout-after-10-failures", "After 10 failed exchanges naming one merchant within 10 minutes, that merchant's exchanges are refused with 429 for 60 seconds.",
		`"Wrong credentials give 401"; a lockout is another failure condition, not shown`, "", false)

	dRateLimitForm = declareDimension("rate-limit-answer", []string{"OPEN-GATEWAY-429"},
		"What a 429 carries (a gateway in front of the API answers its own).",
		quote("429 | rate limit exceeded; retry with exponential backoff", "Exceeding the API rate limits gives 429"),
		"rate-limit-error-envelope", "The error envelope.")
	vRL429Text = dRateLimitForm.setting("rate-limit-gateway-plain-text", "429 answers are text/plain \"Too Many Requests\" (a gateway's own answer).",
		`"Exceeding the API rate limits gives 429" (which component answers, and its body, are not stated)`, "", true)
	vRL429JSON = dRateLimitForm.setting("rate-limit-gateway-json-message", "429 answers are {\"message\":\"Too Many Requests\"} (AWS API Gateway's answer).",
		`"Exceeding the API rate limits gives 429"`, "", true)
	vRL429HTML = dRateLimitForm.setting("rate-limit-gateway-html", "429 answers are a small text/html page (a CDN's answer).",
		`"Exceeding the API rate limits gives 429"`, "", true)

	dRateLimitKey = declareDimension("rate-limit-key", []string{"OPEN-RATE-LIMIT-POLICY"},
		"What a rate limit counts calls by.",
		quote("Numeric rate limits: not shown"),
		"rate-limit-per-merchant", "Calls are counted per merchant and group.")
	vRateLimitPerIP = dRateLimitKey.setting("rate-limit-per-client-ip", "Calls are counted per client IP address (a gateway's limiter), whatever the merchant.",
		`"Numeric rate limits: not shown"`, "", false)

	dRetryHint = declareDimension("rate-limit-window", []string{"OPEN-RETRY-AFTER"},
		"How a 429 says when to retry.",
		quote("429 | rate limit exceeded; retry with exponential backoff", "Numeric rate limits: not shown"),
		"retry-after-seconds", "Retry-After in seconds, with X-RateLimit-Limit, -Remaining and -Reset.")
	vRetryAfterLong = dRetryHint.setting("rate-limit-long-retry-after", "429 answers ask for Retry-After: 60 (a 60-second window).",
		`"429 | rate limit exceeded; retry with exponential backoff"; "Numeric rate limits: not shown"`, "", true)
	vNoRetryAfter = dRetryHint.setting("rate-limit-no-retry-after", "429 answers carry no Retry-After header.",
		`"429 | rate limit exceeded; retry with exponential backoff" (no header is stated)`, "", true)
	vRetryAfterDate = dRetryHint.setting("retry-after-http-date", "Retry-After is an HTTP date (RFC 9110 allows a date or seconds).",
		`"retry with exponential backoff" (no header is stated)`, "", true)
	vRateLimitDraft = dRetryHint.setting("ratelimit-reset-headers", "429 answers carry RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset (the IETF draft) and no Retry-After.",
		`"retry with exponential backoff" (no header is stated)`, "", true)
)

// checksMerchantHeader reports whether X-Merchant-Id is checked at the
// token exchange (atToken) or on authenticated calls.
func (s *Server) checksMerchantHeader(atToken bool) bool {
	v := &s.variants
	switch {
	case v.on(vMerchantHdrUnchecked):
		return false
	case v.on(vMerchantHdrToken):
		return atToken
	case v.on(vMerchantHdrRequests):
		return !atToken
	}
	return true
}

// kybApplies reports whether the KYB tier applies to request r.
func (s *Server) kybApplies(r *http.Request) bool {
	return !s.variants.on(vKYBWritesOnly) || (r.Method != http.MethodGet && r.Method != http.MethodHead)
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
	if !s.variants.on(vLockout) {
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
	if !s.variants.on(vLockout) {
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

// rewriteTokenAnswer applies the token answer settings.
func (s *Server) rewriteTokenAnswer(rest string, top map[string]any) {
	d, _ := top["data"].(map[string]any)
	if rest != "/auth/token" || d == nil {
		return
	}
	v := &s.variants
	if v.on(vTokenTypeLower) {
		d["tokenType"] = "bearer"
	}
	if id, ok := d["merchantId"].(string); ok && v.on(vTokenMerchantInternal) {
		h := sha256.Sum256([]byte(id))
		d["merchantId"] = fmt.Sprintf("mch_%08d", binary.BigEndian.Uint32(h[:4])%100000000)
	}
	if v.on(vTokenNoMerchantID) {
		delete(d, "merchantId")
	}
}

// secretKeyBearer reads a secret key in the bearer position on the routes
// whose examples show one (secret-key-bearer-accepted) as the claims of its
// merchant and environment; nil when it is not one. The other checks of
// authenticate still apply.
func (s *Server) secretKeyBearer(rc *reqCtx, raw string) (*tokenClaims, error) {
	p := rc.r.URL.Path
	if !s.variants.on(vSecretBearer) || !(strings.HasSuffix(p, "/contact") || strings.HasSuffix(p, "/simulate-webhook")) {
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
	if !s.variants.on(vKYBAtExchange) || env != EnvLive || m.kyb >= 2 {
		return false
	}
	s.writeError(rc, http.StatusForbidden, msgKYB)
	return true
}

// challenge adds the bearer challenge to a 401 (bearer-challenge-header).
func (s *Server) challenge(code int, h http.Header) {
	if code == http.StatusUnauthorized && s.variants.on(vBearerChallenge) {
		h.Set("WWW-Authenticate", `Bearer realm="merchant", error="invalid_token"`)
	}
}

// rewriteRateLimitHeaders applies the retry-hint settings to a 429.
func (s *Server) rewriteRateLimitHeaders(h http.Header) {
	v := &s.variants
	secs := h.Get("Retry-After")
	switch {
	case v.on(vRetryAfterLong):
		h.Set("Retry-After", "60")
	case v.on(vNoRetryAfter):
		h.Del("Retry-After")
	case v.on(vRetryAfterDate):
		n, _ := strconv.Atoi(secs)
		// An HTTP date is read against the client's clock: real time, not
		// the sandbox clock the controls may have advanced.
		h.Set("Retry-After", time.Now().Add(time.Duration(n+1)*time.Second).UTC().Format(http.TimeFormat))
	case v.on(vRateLimitDraft):
		h.Set("RateLimit-Limit", h.Get("X-RateLimit-Limit"))
		h.Set("RateLimit-Remaining", h.Get("X-RateLimit-Remaining"))
		h.Set("RateLimit-Reset", secs)
		for _, k := range []string{"Retry-After", "X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"} {
			h.Del(k)
		}
	}
}

// gateway429 is a gateway's own 429 body under the answer settings.
func (s *Server) gateway429(h http.Header) ([]byte, bool) {
	v := &s.variants
	switch {
	case v.on(vRL429Text):
		h.Set("Content-Type", "text/plain; charset=utf-8")
		return []byte("Too Many Requests\n"), true
	case v.on(vRL429JSON):
		h.Set("Content-Type", "application/json")
		return []byte(`{"message":"Too Many Requests"}`), true
	case v.on(vRL429HTML):
		h.Set("Content-Type", "text/html; charset=utf-8")
		return []byte("<html><head><title>429 Too Many Requests</title></head><body><h1>429 Too Many Requests</h1></body></html>\n"), true
	}
	return nil, false
}
