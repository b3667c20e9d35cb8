package ratelimit

import (
	"fmt"
	"strings"
)

// Rate-limit keys: what one bucket is kept for.
const (
	KeyMerchant = "merchant" // one bucket per merchant (the default)
	KeyToken    = "token"    // one bucket per access token
	KeyClient   = "client"   // one bucket per client IP, across merchants
)

// Topology shapes the limiter beyond each group's numbers, so that
// a probe can be tested against limiters shared between paths or keyed
// differently. The zero value is the documented behaviour: one bucket per
// merchant and group (per client IP for the token exchange).
type Topology struct {
	// Shared lists sets of groups that draw from one bucket per key; the
	// first group's rate and burst apply to the whole set.
	Shared [][]string `json:"shared,omitempty"`
	// Key of authenticated calls' buckets: merchant (default), token, client.
	Key string `json:"key,omitempty"`
}

// Validate refuses an unknown key or group, and a group in two sets.
func (t Topology) Validate() error {
	switch t.Key {
	case "", KeyMerchant, KeyToken, KeyClient:
	default:
		return fmt.Errorf("sandbox: rate-limit key %q (want merchant, token or client)", t.Key)
	}
	seen := map[string]bool{}
	for _, set := range t.Shared {
		for _, n := range set {
			if _, ok := GroupOf(n); !ok {
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

// ParseShared parses "read+secure,token+write" into shared sets.
func ParseShared(s string) [][]string {
	var out [][]string
	for _, set := range strings.Split(s, ",") {
		if set = strings.TrimSpace(set); set != "" {
			out = append(out, strings.Split(set, "+"))
		}
	}
	return out
}

// ApplyTopology makes the limiter draw shared groups from one bucket.
func (l *Limiter) ApplyTopology(t Topology) {
	if len(t.Shared) == 0 {
		return
	}
	var share [numGroups]Group
	for i := range share {
		share[i] = Group(i)
	}
	for _, set := range t.Shared {
		first, _ := GroupOf(set[0])
		for _, n := range set {
			g, _ := GroupOf(n)
			share[g] = first
		}
	}
	l.share = &share
}

// bucketGroup is the group whose bucket g draws from.
func (l *Limiter) bucketGroup(g Group) Group {
	if l.share == nil {
		return g
	}
	return l.share[g]
}
