package sandbox

// Faults of the area "Cross-cutting rules" that bend answers of some routes
// after their handler (the registry: sandbox/fault; the hook: the capture of
// serveAPI, flushed by crossFlush; the bending: sandbox/rewrite).

import (
	"bytes"
	"net/http"
)

// crossCapture holds an answer for crossFlush to bend.
type crossCapture struct {
	h    http.Header
	code int
	buf  bytes.Buffer
}

func (c *crossCapture) Header() http.Header         { return c.h }
func (c *crossCapture) WriteHeader(code int)        { c.code = code }
func (c *crossCapture) Write(b []byte) (int, error) { return c.buf.Write(b) }

// crossFlush writes the captured answer to w, bent as the faults say
// (rewrite.Bend).
func (s *Server) crossFlush(w http.ResponseWriter, r *http.Request, c *crossCapture) {
	s.rewriter.Bend(w, r, c.code, c.h, c.buf.Bytes())
}
