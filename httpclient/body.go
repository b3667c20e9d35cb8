package httpclient

import (
	"errors"
	"fmt"
	"io"
	"net/http"

	"github.com/merchant-harness/mph/redact"
)

// ErrBodyTooLarge is matched (errors.Is) by every *BodyTooLargeError.
var ErrBodyTooLarge = errors.New("body too large")

// BodyTooLargeError is an answer whose body exceeds the harness's cap.
type BodyTooLargeError struct{ Limit int64 }

func (e *BodyTooLargeError) Error() string { return fmt.Sprintf("body larger than %d bytes", e.Limit) }

// Is makes errors.Is(err, ErrBodyTooLarge) true.
func (e *BodyTooLargeError) Is(target error) bool { return target == ErrBodyTooLarge }

// ReadBody reads at most max bytes of r. A longer body returns its first max
// bytes and a *BodyTooLargeError, without reading further (a registered
// secret cut there is masked: see redact.CutTail); any other read failure
// returns what was read and the error.
func ReadBody(r io.Reader, max int64) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, max+1))
	if err != nil {
		return b, err
	}
	if int64(len(b)) > max {
		return redact.CutTail(b[:max]), &BodyTooLargeError{Limit: max}
	}
	return b, nil
}

// Drain discards at most max bytes of r so a connection can be reused, and
// stops there (a larger body is left for Close to abandon).
func Drain(r io.Reader, max int64) {
	_, _ = io.Copy(io.Discard, io.LimitReader(r, max))
}

// LimitBody wraps rc so that reading past max bytes fails with a
// *BodyTooLargeError instead of returning more.
func LimitBody(rc io.ReadCloser, max int64) io.ReadCloser {
	return &limitedBody{rc: rc, left: max, max: max}
}

type limitedBody struct {
	rc   io.ReadCloser
	left int64
	max  int64
}

func (l *limitedBody) Read(p []byte) (int, error) {
	if l.left < 0 {
		return 0, &BodyTooLargeError{Limit: l.max}
	}
	// Ask for one byte more than allowed, so a body of exactly max bytes
	// ends with io.EOF and a longer one is caught.
	if int64(len(p)) > l.left+1 {
		p = p[:l.left+1]
	}
	n, err := l.rc.Read(p)
	l.left -= int64(n)
	if l.left < 0 {
		n += int(l.left)
		return n, &BodyTooLargeError{Limit: l.max}
	}
	return n, err
}

func (l *limitedBody) Close() error { return l.rc.Close() }

// limitTransport caps every response body.
type limitTransport struct {
	next http.RoundTripper
	max  int64
}

func (t *limitTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := t.next.RoundTrip(r)
	if err != nil || resp.Body == nil {
		return resp, err
	}
	resp.Body = LimitBody(resp.Body, t.max)
	return resp, nil
}
