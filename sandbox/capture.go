package sandbox

import (
	"bytes"
	"net/http"
	"strconv"
)

// captureWriter holds a merchant API answer so that response-shape settings
// can rewrite it before it reaches the client.
type captureWriter struct {
	h    http.Header
	code int
	buf  bytes.Buffer
}

func newCapture() *captureWriter { return &captureWriter{h: http.Header{}, code: http.StatusOK} }

func (c *captureWriter) Header() http.Header         { return c.h }
func (c *captureWriter) WriteHeader(code int)        { c.code = code }
func (c *captureWriter) Write(b []byte) (int, error) { return c.buf.Write(b) }

// serveVariantAPI runs the API request into a capture and writes the
// rewritten answer.
func (s *Server) serveVariantAPI(w http.ResponseWriter, r *http.Request, rest string) {
	cw := newCapture()
	s.api.ServeHTTP(cw, r)
	code, body := s.rewriter.Answer(r, rest, cw.code, cw.h, cw.buf.Bytes())
	for k, v := range cw.h {
		w.Header()[k] = v
	}
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(code)
	_, _ = w.Write(body)
}
