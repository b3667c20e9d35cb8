package sandbox

// Faults of the area "Cross-cutting rules" breaking the payload rules on
// some routes: handlers that read their body without checking it first
// (the registry and the decision, fault.BendBody: sandbox/fault; the hook:
// crossBody, from crossServe).

import (
	"bytes"
	"io"
	"net/http"

	"github.com/merchant-harness/mph/sandbox/answer"
)

// crossBody answers a body a body fault makes the handler fail on (500),
// or bends the request as the fault says; true when it answered.
func (s *Server) crossBody(rc *answer.Req, rest string) bool {
	if !s.faults.ReadsBody(rc.R.Method, rest) {
		return false
	}
	raw, err := io.ReadAll(io.LimitReader(rc.R.Body, answer.MaxBody+1))
	if err != nil {
		return false
	}
	crash, body, relabel := s.faults.BendBody(rc.R.Method, rest, raw)
	if crash != "" {
		rc.Error(http.StatusInternalServerError, "Internal server error: "+crash)
		return true
	}
	if relabel {
		rc.R.Header.Set("Content-Type", "application/json")
	}
	rc.R.Body = io.NopCloser(bytes.NewReader(body))
	return false
}
