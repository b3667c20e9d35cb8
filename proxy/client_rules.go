package proxy

import (
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/merchant-harness/mph/api"
	"github.com/merchant-harness/mph/httpclient"
	"github.com/merchant-harness/mph/proxy/session"
	"github.com/merchant-harness/mph/redact"
	"github.com/merchant-harness/mph/schemas"
)

// Bounds of the stream state, so that a week behind a busy test
// environment keeps memory flat: beyond them the oldest facts are dropped
// (a rule then cannot fire for them; it never fires wrongly).
const (
	maxTokens  = 100_000
	maxRetries = 50_000
	maxRefs    = 200_000
	maxSecrets = 256
	// Grace on the server's expiry enforcement: the proxy sees the token
	// answer slightly after the server created the token.
	expiryGrace = 5 * time.Second
	// retryTolerance absorbs the proxy's own timing of a retry.
	retryTolerance = 10 * time.Millisecond
	// reuseMargin: a token with less life than this left may be replaced.
	reuseMargin = 60 * time.Second
)

// secretKeyRe matches the API's secret keys (sandbox keys begin sk_test_).
var secretKeyRe = regexp.MustCompile(`sk_(?:test|live)_[A-Za-z0-9_]+`)

type tokenInfo struct {
	merchant string
	env      string    // TEST or LIVE, as the token answer stated
	issued   time.Time // by the proxy's clock
	expires  time.Time
	lifetime time.Duration
	// serverIssued is the timestamp of the token answer: the server's own
	// clock, which decides expiry (a sandbox's clock may have been moved).
	serverIssued time.Time
	uses         int
}

// age returns how old a token is at an exchange: by the server's clock
// when both answers carry a timestamp, else by the proxy's.
func (t *tokenInfo) age(x *exCtx) time.Duration {
	if now, ok := serverTime(x); ok && !t.serverIssued.IsZero() {
		return now.Sub(t.serverIssued)
	}
	return x.ex.start.Sub(t.issued)
}

// serverTime reads the answer's timestamp member.
func serverTime(x *exCtx) (time.Time, bool) {
	v, _ := member(x.json, "timestamp")
	s, ok := v.(string)
	if !ok {
		return time.Time{}, false
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	return t, err == nil
}

type retryInfo struct {
	at       time.Time     // when the last 429 reached the proxy
	after    time.Duration // its Retry-After
	hasAfter bool
	gap      time.Duration // the wait before the request that got it
	n        int           // consecutive 429s
}

type refInfo struct {
	seq      int64
	accepted bool
}

// streamState holds what the client rules learn across exchanges.
type streamState struct {
	prof    *api.Profile
	tokens  map[[32]byte]*tokenInfo
	latest  map[string][32]byte // client|merchant → newest token
	secrets map[string]bool     // secret keys seen at the token exchange (memory only)
	retries map[string]*retryInfo
	refs    map[string]refInfo
}

func newStreamState(p *api.Profile) *streamState {
	return &streamState{
		prof: p, tokens: map[[32]byte]*tokenInfo{}, latest: map[string][32]byte{},
		secrets: map[string]bool{}, retries: map[string]*retryInfo{}, refs: map[string]refInfo{},
	}
}

// bearer splits an Authorization header into scheme and credential.
func bearer(h http.Header) (scheme, cred string, present bool) {
	v := h.Get("Authorization")
	if v == "" {
		return "", "", false
	}
	scheme, cred, _ = strings.Cut(strings.TrimSpace(v), " ")
	return scheme, strings.TrimSpace(cred), true
}

// clientRules checks the caller's side of one exchange.
func (c *checker) clientRules(x *exCtx) {
	c.contentTypeRule(x)
	if x.ep.Token() {
		c.tokenRequestRules(x)
	} else {
		c.bearerRules(x)
		c.amountRule(x)
		c.referenceRule(x)
	}
	c.secretElsewhereRule(x)
	c.retryRule(x, c.retryKey(x))
}

// contentTypeRule: requests with a body declare JSON (ENV-09).
func (c *checker) contentTypeRule(x *exCtx) {
	if x.ex.req.n == 0 {
		return
	}
	ct := x.ex.reqHeader.Get("Content-Type")
	x.verdict(!mediaJSON(ct), session.Client, "ENV-09", "request header Content-Type",
		"request with a body declares Content-Type %q, not application/json", ct)
}

// tokenRequestRules: the token exchange's X-Merchant-Id matches its merchantId
// (AUTH-20), and the secret key is learned so it can be found elsewhere.
func (c *checker) tokenRequestRules(x *exCtx) {
	var body struct {
		MerchantID string `json:"merchantId"`
		SecretKey  string `json:"secretKey"`
	}
	if !x.ex.req.complete() || json.Unmarshal(x.ex.req.buf, &body) != nil {
		return
	}
	if body.SecretKey != "" && len(c.st.secrets) < maxSecrets {
		c.st.secrets[body.SecretKey] = true
		// Masked by value everywhere from now on, whatever its form.
		redact.RegisterCredentials(body.MerchantID, body.SecretKey)
	}
	if h := x.ex.reqHeader.Get("X-Merchant-Id"); h != "" && body.MerchantID != "" {
		x.verdict(h != body.MerchantID, session.Client, "AUTH-20", "request header X-Merchant-Id",
			"X-Merchant-Id %q does not match the merchantId %q of the token request", h, body.MerchantID)
		c.merchantHeaderServerRule(x, h != body.MerchantID, "token")
	}
}

// bearerRules: a bearer access token on every call but the token exchange
// (AUTH-09, AUTH-10), never a secret key in its place (AUTH-17), not used
// past its lifetime (AUTH-14), and X-Merchant-Id consistent with the
// token's merchant when sent (AUTH-20).
func (c *checker) bearerRules(x *exCtx) {
	scheme, cred, present := bearer(x.ex.reqHeader)
	accepted := x.ex.status >= 200 && x.ex.status < 300
	switch {
	case !present:
		x.fail(session.Client, "AUTH-09", "request header Authorization", "no Authorization header: every call but the token exchange needs Authorization: Bearer <ACCESS_TOKEN>")
		x.verdict(accepted, session.Server, "AUTH-09", "response status", "a call without a bearer token was answered %d instead of 401", x.ex.status)
		return
	case !strings.EqualFold(scheme, "Bearer") || cred == "":
		x.pass(session.Client, "AUTH-09")
		x.fail(session.Client, "AUTH-10", "request header Authorization", "Authorization scheme %q: the only scheme is Bearer with an access token", scheme)
		x.verdict(accepted, session.Server, "AUTH-10", "response status", "a call with the %q scheme was answered %d instead of 401", scheme, x.ex.status)
		return
	}
	x.pass(session.Client, "AUTH-09")
	x.verdict(c.isSecret(cred), session.Client, "AUTH-17", "request header Authorization",
		"a secret key is sent in the bearer position instead of an access token")
	tok := c.st.tokens[sha256.Sum256([]byte(cred))]
	if tok == nil {
		return // a token issued before the proxy started, or not by this upstream
	}
	tok.uses++
	late := tok.age(x) - tok.lifetime
	x.verdict(late >= 0, session.Client, "AUTH-14", "request header Authorization",
		"access token used %s after its lifetime of %s ended: a new token must be requested", late.Round(time.Millisecond), tok.lifetime)
	if late > expiryGrace && x.ex.status >= 200 && x.ex.status < 300 {
		x.fail(session.Server, "AUTH-12", "response status", "a token %s past its lifetime was accepted (status %d); expired tokens get 401", late.Round(time.Second), x.ex.status)
	} else if late > expiryGrace {
		x.pass(session.Server, "AUTH-12")
	}
	h := x.ex.reqHeader.Get("X-Merchant-Id")
	if h != "" {
		x.verdict(h != tok.merchant, session.Client, "AUTH-20", "request header X-Merchant-Id",
			"X-Merchant-Id %q does not match the token's merchant %q", h, tok.merchant)
		c.merchantHeaderServerRule(x, h != tok.merchant, "requests")
	}
	if late < -expiryGrace && (h == "" || h == tok.merchant) {
		x.verdict(x.ex.status == http.StatusUnauthorized, session.Server, "AUTH-13", "response status",
			"a token %s into its lifetime of %s was refused with 401", tok.age(x).Round(time.Second), tok.lifetime)
	}
}

// merchantHeaderServerRule: a mismatching X-Merchant-Id gets 401 (AUTH-20),
// where the profile says the target checks the header (where it is sent
// is not shown).
func (c *checker) merchantHeaderServerRule(x *exCtx, mismatch bool, where string) {
	w := c.st.prof.Auth.MerchantIDHeader
	if !mismatch || (w != "both" && w != where) {
		return
	}
	x.verdict(x.ex.status != http.StatusUnauthorized, session.Server, "AUTH-20", "response status",
		"a mismatching X-Merchant-Id was answered %d instead of 401", x.ex.status)
}

func (c *checker) isSecret(s string) bool {
	return c.st.secrets[s] || secretKeyRe.MatchString(s)
}

// secretElsewhereRule: secret keys go nowhere but the token exchange body
// (AUTH-16): not in a query, another header, or another call's body.
func (c *checker) secretElsewhereRule(x *exCtx) {
	where := ""
	if c.containsSecret(x.ex.rawQuery) || c.containsSecret(unescapeQuery(x.ex.rawQuery)) {
		where = "request query"
	}
	for k, vs := range x.ex.reqHeader {
		if where != "" || strings.EqualFold(k, "Authorization") {
			continue // the bearer position is AUTH-17's
		}
		for _, v := range vs {
			if c.containsSecret(v) {
				where = "request header " + k
			}
		}
	}
	if where == "" && !x.ep.Token() && c.containsSecret(string(x.ex.req.buf)) {
		where = "request body"
	}
	x.verdict(where != "", session.Client, "AUTH-16", where, "a secret key is sent outside the token exchange body")
}

func (c *checker) containsSecret(s string) bool {
	if s == "" {
		return false
	}
	if secretKeyRe.MatchString(s) {
		return true
	}
	for k := range c.st.secrets {
		if strings.Contains(s, k) {
			return true
		}
	}
	return false
}

func unescapeQuery(q string) string {
	s, err := url.QueryUnescape(q)
	if err != nil {
		return q
	}
	return s
}

// usdAmounts lists the USD amount members of each request body.
var usdAmounts = map[string][]string{
	"POST /cards/{id}/withdraw":    {"amount"},
	"PUT /cards/{id}/spend-limits": {"transactionLimit", "dailyLimit", "monthlyLimit", "allTimeLimit"},
}

// amountRule: USD amounts are whole cents (CLIENT-01).
func (c *checker) amountRule(x *exCtx) {
	fields := usdAmounts[x.ep.Key()]
	if x.ep.Order == "issuance" {
		fields = []string{"amount"}
	}
	if len(fields) == 0 || !x.ex.req.complete() {
		return
	}
	m := decodeObject(x.ex.req.buf)
	if m == nil {
		return
	}
	for _, f := range fields {
		n, ok := m[f].(json.Number)
		if !ok || schemas.NumberReadable(n.String()) != "" {
			continue // not a number, or beyond what the harness computes with
		}
		r, ok := new(big.Rat).SetString(n.String())
		if !ok {
			continue
		}
		cents := new(big.Rat).Mul(r, big.NewRat(100, 1))
		x.verdict(!cents.IsInt(), session.Client, "CLIENT-01", "request body /"+f,
			"USD amount %s has more than 2 decimal places", n.String())
	}
}

func decodeObject(b []byte) map[string]any {
	var v any
	if decodeJSON(b, &v) != nil {
		return nil
	}
	m, _ := v.(map[string]any)
	return m
}

// referenceField returns the profile's reference member of an order call.
func (c *checker) referenceField(ep api.Endpoint) string {
	switch ep.Order {
	case "issuance":
		return c.st.prof.Issuance.ReferenceField
	case "gift":
		return c.st.prof.GiftCards.Purchase.Fields["reference"]
	}
	return ""
}

// referenceRule: a reference names one order (ERR-11): the client reuses
// none that an accepted order already holds, and the server refuses such a
// duplicate (409) instead of creating a second order.
func (c *checker) referenceRule(x *exCtx) {
	field := c.referenceField(x.ep)
	if field == "" || !x.ex.req.complete() {
		return
	}
	ref, _ := decodeObject(x.ex.req.buf)[field].(string)
	if ref == "" {
		return
	}
	key := x.ep.Order + "|" + c.scope(x) + "|" + ref
	prev, seen := c.st.refs[key]
	accepted := x.ex.status >= 200 && x.ex.status < 300
	if seen && prev.accepted {
		x.fail(session.Client, "ERR-11", "request body /"+field, "reference %q reused: exchange #%d already created an order with it", ref, prev.seq)
		x.verdict(accepted, session.Server, "ERR-11", "response status",
			"a duplicate reference %q was accepted (status %d) instead of refused with 409", ref, x.ex.status)
		return
	}
	x.pass(session.Client, "ERR-11")
	if len(c.st.refs) >= maxRefs {
		clear(c.st.refs)
	}
	if !seen || accepted {
		c.st.refs[key] = refInfo{seq: x.ex.seq, accepted: accepted}
	}
}

// scope names the caller for per-merchant facts: the token's merchant when
// known, else a digest of its credential.
func (c *checker) scope(x *exCtx) string {
	_, cred, _ := bearer(x.ex.reqHeader)
	sum := sha256.Sum256([]byte(cred))
	if tok := c.st.tokens[sum]; tok != nil {
		return "m:" + tok.merchant
	}
	return fmt.Sprintf("c:%x", sum[:8])
}

// retryKey names "the same call by the same caller".
func (c *checker) retryKey(x *exCtx) string {
	_, cred, _ := bearer(x.ex.reqHeader)
	if x.ep.Token() {
		cred = "token-exchange"
	}
	sum := sha256.Sum256([]byte(cred))
	return fmt.Sprintf("%s|%s|%x", x.ex.client, x.ep.Key(), sum[:8])
}

// retryRule: after a 429 the caller waits at least its Retry-After, and
// without one backs off, each wait longer than the last (RATE-03). Requests
// sent before the 429 arrived are not retries.
func (c *checker) retryRule(x *exCtx, key string) {
	ri := c.st.retries[key]
	if ri == nil || !x.ex.start.After(ri.at) {
		return
	}
	gap := x.ex.start.Sub(ri.at)
	switch {
	case ri.hasAfter:
		x.verdict(gap+retryTolerance < ri.after, session.Client, "RATE-03", "request time",
			"retried %s after a 429 whose Retry-After asked for %s", gap.Round(time.Millisecond), ri.after)
	case ri.n >= 2:
		x.verdict(gap <= ri.gap, session.Client, "RATE-03", "request time",
			"retried %s after %d consecutive 429s, no longer than the previous wait of %s: back off exponentially",
			gap.Round(time.Millisecond), ri.n, ri.gap.Round(time.Millisecond))
	default:
		x.pass(session.Client, "RATE-03")
	}
}

// streamRules learns from a completed exchange: tokens issued (and token
// reuse, AUTH-15), 429s and their Retry-After.
func (c *checker) streamRules(x *exCtx) {
	key := c.retryKey(x)
	if x.ex.status == http.StatusTooManyRequests {
		ri := &retryInfo{at: x.ex.respAt, n: 1}
		if prev := c.st.retries[key]; prev != nil && x.ex.start.After(prev.at) {
			ri.gap, ri.n = x.ex.start.Sub(prev.at), prev.n+1
		}
		ri.after, ri.hasAfter = retryAfter(x.ex.respHeader.Get("Retry-After"), x.ex.respAt)
		if len(c.st.retries) >= maxRetries {
			clear(c.st.retries)
		}
		c.st.retries[key] = ri
	} else if ri := c.st.retries[key]; ri != nil && x.ex.start.After(ri.at) {
		delete(c.st.retries, key)
	}
	if x.ep.Token() && x.ex.status >= 200 && x.ex.status < 300 {
		c.learnToken(x)
	}
}

// learnToken records an issued token and checks the previous one of the
// same caller and merchant was reused rather than replaced after one call.
func (c *checker) learnToken(x *exCtx) {
	data, _ := member(x.json, "data")
	tokStr, _ := member(data, "accessToken")
	merchant, _ := member(data, "merchantId")
	exp, _ := member(data, "expiresIn")
	tok, ok := tokStr.(string)
	if !ok || tok == "" {
		return
	}
	m, _ := merchant.(string)
	secs, err := strconv.ParseFloat(fmt.Sprint(exp), 64)
	if err != nil || secs <= 0 {
		secs = 900 // the document's lifetime
	}
	lk := x.ex.client + "|" + m
	if prevSum, ok := c.st.latest[lk]; ok {
		if prev := c.st.tokens[prevSum]; prev != nil {
			left := prev.expires.Sub(x.ex.start)
			x.verdict(left > reuseMargin && prev.uses <= 1, session.Client, "AUTH-15", "request POST /auth/token",
				"a new token was requested while the previous one (used %d time(s)) had %s left: reuse a token and refresh shortly before its expiry",
				prev.uses, left.Round(time.Second))
		}
	}
	if len(c.st.tokens) >= maxTokens {
		c.pruneTokens(x.ex.start)
	}
	sum := sha256.Sum256([]byte(tok))
	life := time.Duration(secs * float64(time.Second))
	env, _ := member(data, "environment")
	envStr, _ := env.(string)
	info := &tokenInfo{merchant: m, env: envStr, issued: x.ex.respAt, expires: x.ex.respAt.Add(life), lifetime: life}
	info.serverIssued, _ = serverTime(x)
	c.st.tokens[sum] = info
	c.st.latest[lk] = sum
}

func (c *checker) pruneTokens(now time.Time) {
	for k, t := range c.st.tokens {
		if now.After(t.expires.Add(time.Hour)) {
			delete(c.st.tokens, k)
		}
	}
	if len(c.st.tokens) >= maxTokens {
		clear(c.st.tokens)
		clear(c.st.latest)
	}
}

// retryAfter reads a Retry-After value (delay-seconds or an HTTP date) with
// the harness's one parser; a wait beyond its cap is taken as stated, as
// the proxy only compares it and never sleeps on it.
func retryAfter(v string, now time.Time) (time.Duration, bool) {
	wait, ok, err := httpclient.RetryAfter(v, now, 24*time.Hour)
	var long *httpclient.RetryAfterError
	if errors.As(err, &long) {
		return long.Wait, true
	}
	return wait, ok && err == nil
}
