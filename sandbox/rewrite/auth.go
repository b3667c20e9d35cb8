package rewrite

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/merchant-harness/mph/sandbox/variant"
)

// challenge adds the bearer challenge to a 401 (bearer-challenge-header).
func (s *Rewriter) challenge(code int, h http.Header) {
	if code == http.StatusUnauthorized && s.variants.On(variant.BearerChallenge) {
		h.Set("WWW-Authenticate", `Bearer realm="merchant", error="invalid_token"`)
	}
}

// rewriteRateLimitHeaders applies the retry-hint settings to a 429.
func (s *Rewriter) rewriteRateLimitHeaders(h http.Header) {
	v := &s.variants
	secs := h.Get("Retry-After")
	switch {
	case v.On(variant.RetryAfterLong):
		h.Set("Retry-After", "60")
	case v.On(variant.NoRetryAfter):
		h.Del("Retry-After")
	case v.On(variant.RetryAfterDate):
		n, _ := strconv.Atoi(secs)
		// An HTTP date is read against the client's clock: real time, not
		// the sandbox clock the controls may have advanced.
		h.Set("Retry-After", time.Now().Add(time.Duration(n+1)*time.Second).UTC().Format(http.TimeFormat))
	case v.On(variant.RateLimitDraft):
		h.Set("RateLimit-Limit", h.Get("X-RateLimit-Limit"))
		h.Set("RateLimit-Remaining", h.Get("X-RateLimit-Remaining"))
		h.Set("RateLimit-Reset", secs)
		for _, k := range []string{"Retry-After", "X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"} {
			h.Del(k)
		}
	}
}

// gateway429 is a gateway's own 429 body under the answer settings.
func (s *Rewriter) gateway429(h http.Header) ([]byte, bool) {
	v := &s.variants
	switch {
	case v.On(variant.RL429Text):
		h.Set("Content-Type", "text/plain; charset=utf-8")
		return []byte("Too Many Requests\n"), true
	case v.On(variant.RL429JSON):
		h.Set("Content-Type", "application/json")
		return []byte(`{"message":"Too Many Requests"}`), true
	case v.On(variant.RL429HTML):
		h.Set("Content-Type", "text/html; charset=utf-8")
		return []byte("<html><head><title>429 Too Many Requests</title></head><body><h1>429 Too Many Requests</h1></body></html>\n"), true
	}
	return nil, false
}

// rewriteTokenAnswer applies the token answer settings.
func (s *Rewriter) rewriteTokenAnswer(rest string, top map[string]any) {
	d, _ := top["data"].(map[string]any)
	if rest != "/auth/token" || d == nil {
		return
	}
	v := &s.variants
	if v.On(variant.TokenTypeLower) {
		d["tokenType"] = "bearer"
	}
	if id, ok := d["merchantId"].(string); ok && v.On(variant.TokenMerchantInternal) {
		h := sha256.Sum256([]byte(id))
		d["merchantId"] = fmt.Sprintf("mch_%08d", binary.BigEndian.Uint32(h[:4])%100000000)
	}
	if v.On(variant.TokenNoMerchantID) {
		delete(d, "merchantId")
	}
}
