package sandbox

import (
	"testing"

	"github.com/merchant-harness/mph/sandbox/ratelimit"
)

// Shared groups draw from one bucket; the key decides who shares it.
func TestRateLimitTopology(t *testing.T) {
	for _, tc := range []struct {
		name          string
		key           string
		secondTokenOK bool // a second token of the same merchant still passes
		otherMerchOK  bool // the other merchant still passes
	}{
		{"merchant", "", false, true},
		{"token", ratelimit.KeyToken, true, true},
		{"client", ratelimit.KeyClient, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newSbx(t, Options{
				RateLimits:        map[string]ratelimit.Limit{"read": {Rate: 0.01, Burst: 3}, "secure": {Rate: 100, Burst: 100}},
				RateLimitTopology: ratelimit.Topology{Shared: [][]string{{"read", "secure"}}, Key: tc.key},
			})
			tok := h.token(alpha, alphaTest)
			tok2 := h.token(alpha, alphaTest)
			btok := h.token(bravo, bravoTest)
			id := h.card(tok, h.customer(tok), "5").s("data.id")
			// The card setup used none of the read/secure bucket; three calls empty it.
			h.api("GET", "/cards", tok, nil).want(200)
			h.api("GET", "/cards", tok, nil).want(200)
			h.api("GET", "/cards/"+id+"/secure", tok, nil).want(200)
			// The secure path shares the read bucket (and its numbers).
			h.api("GET", "/cards/"+id+"/secure", tok, nil).wantError(429, "Rate limit exceeded for secure")
			want := func(ok bool) int {
				if ok {
					return 200
				}
				return 429
			}
			h.api("GET", "/cards", tok2, nil).want(want(tc.secondTokenOK))
			h.api("GET", "/cards", btok, nil).want(want(tc.otherMerchOK))
		})
	}
	if _, err := New(Options{RateLimitTopology: ratelimit.Topology{Key: "moon"}}); err == nil {
		t.Error("unknown key accepted")
	}
	if _, err := New(Options{RateLimitTopology: ratelimit.Topology{Shared: [][]string{{"read", "bogus"}}}}); err == nil {
		t.Error("unknown group accepted")
	}
}
