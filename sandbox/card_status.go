package sandbox

import "net/http"

// handleStatus is PATCH /cards/{id}/status: freeze or unfreeze. A request for
// the current status succeeds without changing updatedAt.
func (s *Server) handleStatus(rc *reqCtx) {
	b, ok := s.readBody(rc)
	if !ok {
		return
	}
	v := validator{b: b}
	status := v.str("status", true, maxShort)
	v.oneOf("status", status, "ACTIVE", "FROZEN")
	if v.failed(s, rc) {
		return
	}
	st := rc.st
	st.mu.Lock()
	c := st.findCard(rc.p1)
	if c == nil {
		st.mu.Unlock()
		s.writeError(rc, http.StatusNotFound, msgCardNotFound)
		return
	}
	if frozen := status == "FROZEN"; frozen != c.frozen {
		c.frozen = frozen
		c.updatedAt = ts(rc.now)
	}
	out := c.json()
	st.mu.Unlock()
	s.writeA(rc, http.StatusOK, cardMessage{Message: "Card status updated to " + status, Card: out})
}
