package sandbox

import (
	"github.com/merchant-harness/mph/sandbox/answer"
	"github.com/merchant-harness/mph/sandbox/ratelimit"
	"github.com/merchant-harness/mph/sandbox/variant"
)

// limitKey is the bucket key of an authenticated call.
func (s *Server) limitKey(rc *answer.Req) string {
	key := s.opts.RateLimitTopology.Key
	if s.variants.On(variant.RateLimitPerIP) {
		key = ratelimit.KeyClient
	}
	switch key {
	case ratelimit.KeyToken:
		return "tok:" + rc.R.Header.Get("Authorization")
	case ratelimit.KeyClient:
		ip, _ := clientIP(rc.R)
		return "ip:" + ip.String()
	}
	return rc.St.Merchant.ID
}
