package sandbox

import (
	"net/http"
	"strconv"

	"github.com/merchant-harness/mph/sandbox/answer"
	"github.com/merchant-harness/mph/sandbox/fault"
	"github.com/merchant-harness/mph/sandbox/ratelimit"
)

// rateLimit applies g's bucket for key, answering 429 itself when refused.
func (s *Server) rateLimit(rc *answer.Req, key string, g ratelimit.Group) bool {
	now := s.clk.Now()
	ok, lim, cfg := s.limits.Allow(key, g, now)
	if s.faults.On(fault.RateLimitNoRefill) && lim != nil {
		ok = s.limits.NeverRefill(key, g, ok)
	}
	if ok || s.faults.On(fault.RateLimitNever) {
		return true
	}
	tokens := lim.TokensAt(now)
	rps := float64(lim.Limit())
	retry := ratelimit.Secs((1 - tokens) / rps)
	reset := ratelimit.Secs((float64(cfg.Burst) - tokens) / rps)
	h := rc.W.Header()
	h.Set("Retry-After", strconv.Itoa(retry))
	h.Set("X-RateLimit-Limit", strconv.Itoa(cfg.Burst))
	h.Set("X-RateLimit-Remaining", strconv.Itoa(max(0, int(tokens))))
	h.Set("X-RateLimit-Reset", strconv.Itoa(reset))
	if s.faults.On(fault.RateLimitBare) {
		h.Set("Content-Type", "text/plain; charset=utf-8")
		rc.W.WriteHeader(http.StatusTooManyRequests)
		_, _ = rc.W.Write([]byte("Too Many Requests\n"))
		return false
	}
	rc.Error(http.StatusTooManyRequests,
		"Rate limit exceeded for "+g.String()+": retry after "+strconv.Itoa(retry)+" s")
	return false
}
