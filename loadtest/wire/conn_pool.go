package wire

import (
	"bufio"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/merchant-harness/mph/httpclient"
	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// The attack's own HTTP/1.1 connections. A worker takes a connection, writes
// one request (http.Request.Write: the standard encoder, which turns any
// newline in a header value into a space), reads the answer
// (http.ReadResponse) and the body in its own goroutine, and gives the
// connection back. Bounds: the connection's deadline covers the whole
// exchange (Timeout); the status line and headers may not exceed
// maxHeaderBytes; at most maxBody bytes of a body are read (a larger one is
// an error and its connection is closed unread). A server may close an idle
// connection at any time, and a non-idempotent request that fails on one
// must not be sent again: so a connection idle for peekAfter or more is
// peeked at first (closedByPeer) and one idle for idleLimit is not reused.

const (
	maxHeaderBytes = 1 << 20
	idleLimit      = 30 * time.Second
	peekAfter      = 5 * time.Millisecond
	connBufSize    = 4 << 10
)

type connPool struct {
	dialer  *net.Dialer
	tls     *tls.Config
	timeout time.Duration
	maxIdle int
	mu      sync.Mutex
	idle    map[string][]*poolConn // scheme://host -> most recently used last
	closed  bool
}

type poolConn struct {
	key  string
	nc   net.Conn
	raw  net.Conn     // the TCP connection under TLS (nc itself for http)
	req  http.Request // what http.ReadResponse is told of the request
	lr   *budgetReader
	br   *bufio.Reader
	bw   *bufio.Writer
	used time.Time // when it was last given back
	n    int       // requests sent on it
}

// newConnPool takes o with its defaults set (httpclient.LoadOptions.Defaults).
func newConnPool(o httpclient.LoadOptions) *connPool {
	return &connPool{dialer: httpclient.LoadDialer(o), tls: httpclient.LoadTLS(o),
		timeout: o.Timeout, maxIdle: o.Connections, idle: map[string][]*poolConn{}}
}

// get returns an idle connection to key (the freshest), or nil.
func (p *connPool) get(key string, now time.Time) *poolConn {
	p.mu.Lock()
	defer p.mu.Unlock()
	for l := p.idle[key]; len(l) > 0; l = p.idle[key] {
		c := l[len(l)-1]
		p.idle[key] = l[:len(l)-1]
		idle := now.Sub(c.used)
		if idle < peekAfter {
			return c
		}
		// The last exchange's deadline may have passed: clear it, or the
		// peek would fail on it rather than look.
		if idle < idleLimit && c.raw.SetReadDeadline(time.Time{}) == nil && !closedByPeer(c.raw) {
			return c
		}
		_ = c.nc.Close()
	}
	return nil
}

func (p *connPool) put(c *poolConn, now time.Time) {
	c.used = now
	p.mu.Lock()
	// Bytes after a complete answer are not HTTP/1.1: not reused.
	if !p.closed && c.br.Buffered() == 0 && len(p.idle[c.key]) < p.maxIdle {
		p.idle[c.key] = append(p.idle[c.key], c)
		c = nil
	}
	p.mu.Unlock()
	if c != nil {
		_ = c.nc.Close()
	}
}

func (p *connPool) close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = true
	for k, l := range p.idle {
		for _, c := range l {
			_ = c.nc.Close()
		}
		delete(p.idle, k)
	}
}

func (p *connPool) dial(d *dest, deadline time.Time) (*poolConn, error) {
	ctx, cancel := context.WithDeadline(context.Background(), deadline)
	defer cancel()
	u := d.u
	host := u.Host
	if u.Port() == "" {
		host = net.JoinHostPort(u.Hostname(), map[string]string{"http": "80", "https": "443"}[u.Scheme])
	}
	nc, err := p.dialer.DialContext(ctx, "tcp", host)
	if err != nil {
		return nil, err
	}
	raw := nc
	if u.Scheme == "https" {
		cfg := p.tls.Clone()
		cfg.ServerName = u.Hostname()
		tc := tls.Client(nc, cfg)
		if err := tc.HandshakeContext(ctx); err != nil {
			_ = nc.Close()
			return nil, err
		}
		nc = tc
	}
	lr := &budgetReader{r: nc}
	return &poolConn{key: d.key, nc: nc, raw: raw, lr: lr, br: bufio.NewReaderSize(lr, connBufSize), bw: bufio.NewWriterSize(nc, connBufSize)}, nil
}

// do sends t to d and reads its answer and body. A request on a reused
// connection that fails before any answer arrives is sent once more on a
// new connection when its method is idempotent, as net/http does.
func (p *connPool) do(t *vegeta.Target, d *dest, maxBody int64) (*http.Response, []byte, error) {
	if err := checkHeader(t.Header); err != nil {
		return nil, nil, wrapErr(t, err)
	}
	now := time.Now()
	deadline := now.Add(p.timeout)
	for attempt := 0; ; attempt++ {
		c := p.get(d.key, now)
		reused := c != nil
		if !reused {
			var err error
			if c, err = p.dial(d, deadline); err != nil {
				return nil, nil, wrapErr(t, err)
			}
		}
		resp, body, keep, err := c.exchange(t, d, deadline, maxBody)
		if keep {
			p.put(c, time.Now())
		} else {
			_ = c.nc.Close()
		}
		if err != nil && reused && attempt == 0 && isNoAnswer(err) && idempotent(t.Method) {
			continue
		}
		if err != nil {
			return nil, body, wrapErr(t, err)
		}
		return resp, body, nil
	}
}

// noAnswer is a failure before the first byte of an answer: on a reused
// connection, most likely one the server had closed.
type noAnswer struct{ err error }

func (e *noAnswer) Error() string { return e.err.Error() }
func (e *noAnswer) Unwrap() error { return e.err }

// exchange writes req and reads the answer on c; keep says whether c may
// be reused.
func (c *poolConn) exchange(t *vegeta.Target, d *dest, deadline time.Time, maxBody int64) (*http.Response, []byte, bool, error) {
	if err := c.nc.SetDeadline(deadline); err != nil {
		return nil, nil, false, err
	}
	c.n++
	host := d.u.Host
	if h := t.Header["Host"]; len(h) > 0 && h[0] != "" { // as vegeta's Header.Get("Host")
		host = h[0]
	}
	method := t.Method
	if method == "" {
		method = http.MethodGet
	}
	if err := writeRequest(c.bw, method, d, host, t.Header, t.Body); err != nil {
		return nil, nil, false, err
	}
	if err := c.bw.Flush(); err != nil {
		return nil, nil, false, &noAnswer{err}
	}
	c.lr.left = maxHeaderBytes
	c.req.Method, c.req.URL = method, d.u
	resp, err := c.readResponse(&c.req)
	if err != nil {
		return nil, nil, false, err
	}
	c.lr.left = math.MaxInt64
	body, complete, err := readCappedBody(resp, maxBody)
	if err != nil {
		return nil, body, false, err
	}
	return resp, body, complete && !resp.Close, nil
}

// readResponse reads the answer's status line and headers, skipping
// informational (1xx) answers.
func (c *poolConn) readResponse(req *http.Request) (*http.Response, error) {
	for i := 0; i < 5; i++ {
		if _, err := c.br.Peek(1); err != nil {
			if errors.Is(err, io.EOF) || isReset(err) {
				return nil, &noAnswer{err}
			}
			return nil, err
		}
		resp, err := http.ReadResponse(c.br, req)
		if err != nil {
			if errors.Is(err, errBudget) {
				return nil, fmt.Errorf("answer headers larger than %d bytes", maxHeaderBytes)
			}
			return nil, err
		}
		if resp.StatusCode >= 200 || resp.StatusCode == http.StatusSwitchingProtocols {
			if resp.StatusCode == http.StatusSwitchingProtocols {
				return nil, fmt.Errorf("unexpected %s", resp.Status)
			}
			return resp, nil
		}
	}
	return nil, errors.New("too many informational (1xx) answers")
}

// readCappedBody reads at most maxBody bytes of the body. A longer body is
// a *httpclient.BodyTooLargeError, read no further (its connection is not reused);
// complete says the body was read to its end.
func readCappedBody(resp *http.Response, maxBody int64) ([]byte, bool, error) {
	if resp.Body == http.NoBody || resp.Request.Method == http.MethodHead {
		return nil, true, nil
	}
	if resp.ContentLength > maxBody {
		return nil, false, &httpclient.BodyTooLargeError{Limit: maxBody}
	}
	if resp.ContentLength >= 0 {
		b := make([]byte, resp.ContentLength)
		if _, err := io.ReadFull(resp.Body, b); err != nil {
			return nil, false, err
		}
		// At Content-Length the body reader is at its end: no read needed.
		return b, true, nil
	}
	b, err := httpclient.ReadBody(resp.Body, maxBody)
	if err != nil {
		return nil, false, err
	}
	return b, true, nil
}

// budgetReader fails once more than left bytes are read.
type budgetReader struct {
	r    io.Reader
	left int64
}

var errBudget = errors.New("read budget exceeded")

func (b *budgetReader) Read(p []byte) (int, error) {
	if b.left <= 0 {
		return 0, errBudget
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.r.Read(p)
	b.left -= int64(n)
	return n, err
}

func isNoAnswer(err error) bool {
	var na *noAnswer
	return errors.As(err, &na)
}

func idempotent(m string) bool {
	switch m {
	case "", http.MethodGet, http.MethodHead, http.MethodOptions, http.MethodTrace:
		return true
	}
	return false
}

func isReset(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && !op.Timeout()
}

// wrapErr names the request as net/http's errors do (`Get "URL": …`) and
// says when the exchange ran out of time.
func wrapErr(t *vegeta.Target, err error) error {
	var na *noAnswer
	if errors.As(err, &na) {
		err = na.err
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		err = fmt.Errorf("%w (Client.Timeout exceeded)", err)
	}
	var tooLarge *httpclient.BodyTooLargeError
	if errors.As(err, &tooLarge) {
		return err // "body larger than N bytes", as the net/http path says
	}
	return fmt.Errorf("%s %q: %w", methodTitle(t.Method), t.URL, err)
}
