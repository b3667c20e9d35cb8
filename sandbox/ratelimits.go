package sandbox

import "github.com/merchant-harness/mph/sandbox/ratelimit"

// The rate limits as the commands give them; the limiter is
// sandbox/ratelimit.

// RateLimit is one token bucket: Rate tokens per second, Burst capacity.
// A Rate of 0 disables the group.
type RateLimit = ratelimit.Limit

// RateLimitTopology shapes the limiter beyond each group's numbers: shared
// groups and the bucket key (ratelimit.Topology).
type RateLimitTopology = ratelimit.Topology

// Rate-limit groups of docs/sandbox.md, and the keys a bucket is kept for.
const (
	GroupToken  = ratelimit.GroupToken
	GroupRead   = ratelimit.GroupRead
	GroupSecure = ratelimit.GroupSecure
	GroupWrite  = ratelimit.GroupWrite

	LimitKeyMerchant = ratelimit.KeyMerchant
	LimitKeyToken    = ratelimit.KeyToken
	LimitKeyClient   = ratelimit.KeyClient
)

// DefaultRateLimits returns the defaults of docs/sandbox.md.
func DefaultRateLimits() map[string]RateLimit { return ratelimit.Defaults() }

// ParseRateLimit reads one "group=rate[:burst]" setting (the --rate-limit
// syntax of every command).
func ParseRateLimit(spec string) (string, RateLimit, error) { return ratelimit.Parse(spec) }

// ParseSharedGroups parses "read+secure,token+write" into shared sets.
func ParseSharedGroups(s string) [][]string { return ratelimit.ParseShared(s) }
