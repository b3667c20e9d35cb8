package sandbox

import (
	"strconv"
	"testing"

	"github.com/merchant-harness/mph/sandbox/ratelimit"
)

func TestRateLimits(t *testing.T) {
	h := newSbx(t, Options{RateLimits: map[string]ratelimit.Limit{"secure": {Rate: 0.5, Burst: 2}, "token": {Rate: 0.5, Burst: 3}}})
	tok := h.token(alpha, alphaTest) // 1 of 3 token-group tokens
	id := h.card(tok, h.customer(tok), "5").s("data.id")
	for range 2 {
		h.api("GET", "/cards/"+id+"/secure", tok, nil).want(200)
	}
	r := h.api("GET", "/cards/"+id+"/secure", tok, nil).wantError(429, "Rate limit exceeded for secure: retry after ")
	ra, err := strconv.Atoi(r.hdr.Get("Retry-After"))
	if err != nil || ra < 1 || ra > 2 {
		t.Fatalf("Retry-After %q", r.hdr.Get("Retry-After"))
	}
	if r.hdr.Get("X-RateLimit-Limit") != "2" || r.hdr.Get("X-RateLimit-Remaining") != "0" || r.hdr.Get("X-RateLimit-Reset") == "" {
		t.Fatalf("headers: %v", r.hdr)
	}
	if r.s("error") != "Too Many Requests" {
		t.Fatalf("envelope: %s", r.body)
	}
	// Other groups and other merchants have their own buckets.
	h.api("GET", "/cards/"+id, tok, nil).want(200)
	btok := h.token(bravo, bravoTest) // 2 of 3: token group is per client IP
	bid := h.card(btok, h.customer(btok), "5").s("data.id")
	h.api("GET", "/cards/"+bid+"/secure", btok, nil).want(200)

	// Token group: per client IP before the merchant is known.
	h.token(alpha, alphaTest)
	h.api("POST", "/auth/token", "", map[string]string{"merchantId": alpha, "secretKey": alphaTest}).wantError(429, "Rate limit exceeded for token")
	h.ip = "10.0.0.9:1"
	h.token(alpha, alphaTest)

	// The control reads and changes the limits; rate 0 disables a group.
	g := h.ctl("GET", "/rate-limits", nil).want(200)
	if g.num("secure.rate") != "0.5" || g.num("secure.burst") != "2" || g.num("read.rate") != "500" || g.num("write.burst") != "200" {
		t.Fatalf("GET rate-limits: %s", g.body)
	}
	h.ctl("PUT", "/rate-limits", `{"secure":{"rate":0}}`).want(200)
	for range 5 {
		h.api("GET", "/cards/"+id+"/secure", tok, nil).want(200)
	}
	p := h.ctl("PUT", "/rate-limits", `{"read":{"rate":1,"burst":1}}`).want(200)
	if p.num("read.rate") != "1" || p.num("secure.rate") != "0" {
		t.Fatalf("PUT answer: %s", p.body)
	}
	h.api("GET", "/cards", tok, nil).want(200)
	h.api("GET", "/cards", tok, nil).wantError(429, "Rate limit exceeded for read")
	if r := h.ctl("PUT", "/rate-limits", `{"write":{"rate":33.333333}}`).want(200); r.num("write.rate") != "33.333333" || r.num("write.burst") != "33" {
		t.Fatalf("fractional rate: %s", r.body)
	}
	for _, b := range []string{`{"bogus":{"rate":1}}`, `{"read":{"rate":"1"}}`, `{"read":5}`, `{"read":{"rate":-1}}`, `{"read":{}}`, `{"read":{"rate":1,"burst":-2}}`} {
		h.ctl("PUT", "/rate-limits", b).want(400)
	}
}

func TestRateLimitOptions(t *testing.T) {
	for _, bad := range []map[string]ratelimit.Limit{{"nope": {Rate: 1}}, {"read": {Rate: -1}}} {
		if _, err := New(Options{RateLimits: bad}); err == nil {
			t.Errorf("rate limits %v accepted", bad)
		}
	}
	s, err := New(Options{RateLimits: map[string]ratelimit.Limit{"read": {Rate: 7}}})
	if err != nil {
		t.Fatal(err)
	}
	got := s.limits.Snapshot()
	if got["read"] != (ratelimit.Limit{Rate: 7, Burst: 7}) || got["token"] != (ratelimit.Limit{Rate: 100, Burst: 100}) || got["secure"] != (ratelimit.Limit{Rate: 100, Burst: 100}) || got["write"] != (ratelimit.Limit{Rate: 200, Burst: 200}) {
		t.Fatalf("merged defaults: %v", got)
	}
	s, _ = New(Options{DisableRateLimits: true})
	for g, l := range s.limits.Snapshot() {
		if l.Rate != 0 {
			t.Errorf("%s not disabled", g)
		}
	}
}

// Buckets run on the sandbox clock: advancing it refills them as waiting would.
func TestRateLimitRefillsWithClock(t *testing.T) {
	h := newSbx(t, Options{RateLimits: map[string]ratelimit.Limit{"read": {Rate: 0.01, Burst: 1}}})
	tok := h.token(alpha, alphaTest)
	h.api("GET", "/cards", tok, nil).want(200)
	h.api("GET", "/cards", tok, nil).wantError(429, "Rate limit exceeded for read")
	h.ctl("POST", "/clock/advance", `{"seconds":100}`).want(200)
	h.api("GET", "/cards", tok, nil).want(200)
	h.api("GET", "/cards", tok, nil).wantError(429, "Rate limit exceeded for read")
}
