package sandbox

import (
	"fmt"
	"strings"

	"github.com/merchant-harness/mph/sandbox/variant"
)

// Rate-limit keys: what one bucket is kept for.
const (
	LimitKeyMerchant = "merchant" // one bucket per merchant (the default)
	LimitKeyToken    = "token"    // one bucket per access token
	LimitKeyClient   = "client"   // one bucket per client IP, across merchants
)

// RateLimitTopology shapes the limiter beyond each group's numbers, so that
// a probe can be tested against limiters shared between paths or keyed
// differently. The zero value is the documented behaviour: one bucket per
// merchant and group (per client IP for the token exchange).
type RateLimitTopology struct {
	// Shared lists sets of groups that draw from one bucket per key; the
	// first group's rate and burst apply to the whole set.
	Shared [][]string `json:"shared,omitempty"`
	// Key of authenticated calls' buckets: merchant (default), token, client.
	Key string `json:"key,omitempty"`
}

func (t RateLimitTopology) validate() error {
	switch t.Key {
	case "", LimitKeyMerchant, LimitKeyToken, LimitKeyClient:
	default:
		return fmt.Errorf("sandbox: rate-limit key %q (want merchant, token or client)", t.Key)
	}
	seen := map[string]bool{}
	for _, set := range t.Shared {
		for _, n := range set {
			if _, ok := groupIndex(n); !ok {
				return fmt.Errorf("sandbox: shared rate-limit group %q (want token, read, secure or write)", n)
			}
			if seen[n] {
				return fmt.Errorf("sandbox: rate-limit group %q is in two shared sets", n)
			}
			seen[n] = true
		}
	}
	return nil
}

// ParseSharedGroups parses "read+secure,token+write" into shared sets.
func ParseSharedGroups(s string) [][]string {
	var out [][]string
	for _, set := range strings.Split(s, ",") {
		if set = strings.TrimSpace(set); set != "" {
			out = append(out, strings.Split(set, "+"))
		}
	}
	return out
}

// applyTopology makes the limiter draw shared groups from one bucket.
func (l *limiter) applyTopology(t RateLimitTopology) {
	if len(t.Shared) == 0 {
		return
	}
	var share [numGroups]group
	for i := range share {
		share[i] = group(i)
	}
	for _, set := range t.Shared {
		first, _ := groupIndex(set[0])
		for _, n := range set {
			g, _ := groupIndex(n)
			share[g] = first
		}
	}
	l.share = &share
}

// bucketGroup is the group whose bucket g draws from.
func (l *limiter) bucketGroup(g group) group {
	if l.share == nil {
		return g
	}
	return l.share[g]
}

// limitKey is the bucket key of an authenticated call.
func (s *Server) limitKey(rc *reqCtx) string {
	key := s.opts.RateLimitTopology.Key
	if s.variants.On(variant.RateLimitPerIP) {
		key = LimitKeyClient
	}
	switch key {
	case LimitKeyToken:
		return "tok:" + rc.r.Header.Get("Authorization")
	case LimitKeyClient:
		ip, _ := clientIP(rc.r)
		return "ip:" + ip.String()
	}
	return rc.st.m.id
}
