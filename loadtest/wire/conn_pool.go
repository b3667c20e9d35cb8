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
	"net/http/httputil"
	"sync"
	"time"

	"github.com/merchant-harness/mph/httpclient"
	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// The attack's own HTTP/1.1 connections. A worker takes a connection, writes
// one request (request_write.go), reads the answer's head (answer.go) and
// its body in its own goroutine, and gives the connection back; on Linux
// the TCP socket is read and written with raw system calls (rawio_linux.go).
// Bounds: the connection's deadline covers the whole exchange (Timeout);
// the status line and headers may not exceed maxHeaderBytes; at most
// maxBody bytes of a body are read (a larger one is an error and its
// connection is closed unread). A server may close an idle
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
	key     string
	nc      net.Conn
	raw     net.Conn // the TCP connection under TLS (nc itself for http)
	lr      *budgetReader
	br      *bufio.Reader
	wbuf    []byte    // the request being sent
	used    time.Time // when it was last given back
	scratch []byte    // the last answer head read
	last    *fields   // the last header section parsed (answer.go)
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
		if fresh(c, now) {
			return c
		}
	}
	return nil
}

// fresh says whether the idle connection c may carry a request at now,
// and closes it when it may not.
func fresh(c *poolConn, now time.Time) bool {
	idle := now.Sub(c.used)
	if idle < peekAfter {
		return true
	}
	// The last exchange's deadline may have passed: clear it, or the
	// peek would fail on it rather than look.
	if idle < idleLimit && c.raw.SetReadDeadline(time.Time{}) == nil && !closedByPeer(c.raw) {
		return true
	}
	_ = c.nc.Close()
	return false
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
	nc = newRawIO(nc)
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
	c := &poolConn{key: d.key, nc: nc, raw: raw, lr: &budgetReader{r: nc}}
	c.br = bufio.NewReaderSize(c.lr, connBufSize)
	return c, nil
}

// do sends t to d at now and reads its answer and body, the body appended
// to slab (see Client.Hit). A request on a reused connection that fails before
// any answer arrives is sent once more on a new connection when its method
// is idempotent, as net/http does.
func (p *connPool) do(l *Lane, t *vegeta.Target, d *dest, now time.Time, maxBody int64, slab []byte) (head, []byte, []byte, error) {
	deadline := now.Add(p.timeout)
	for attempt := 0; ; attempt++ {
		c := l.take(d.key, now)
		if c == nil {
			c = p.get(d.key, now)
		}
		reused := c != nil
		if !reused {
			var err error
			if c, err = p.dial(d, deadline); err != nil {
				return head{}, nil, slab, wrapErr(t, err)
			}
		}
		h, body, grown, keep, err := c.exchange(t, d, deadline, maxBody, slab)
		slab = grown
		switch {
		case keep && l != nil:
			l.keep(c)
		case keep:
			p.put(c, time.Now())
		default:
			_ = c.nc.Close()
		}
		if err != nil && reused && attempt == 0 && isNoAnswer(err) && idempotent(t.Method) {
			continue
		}
		if err != nil {
			return head{}, body, slab, wrapErr(t, err)
		}
		return h, body, slab, nil
	}
}

// noAnswer is a failure before the first byte of an answer: on a reused
// connection, most likely one the server had closed.
type noAnswer struct{ err error }

func (e *noAnswer) Error() string { return e.err.Error() }
func (e *noAnswer) Unwrap() error { return e.err }

// exchange writes the request and reads the answer on c; keep says whether
// c may be reused.
func (c *poolConn) exchange(t *vegeta.Target, d *dest, deadline time.Time, maxBody int64, slab []byte) (h head, body, grown []byte, keep bool, err error) {
	if err := c.nc.SetDeadline(deadline); err != nil {
		return h, nil, slab, false, err
	}
	host := d.u.Host
	if hv := t.Header["Host"]; len(hv) > 0 && hv[0] != "" { // as vegeta's Header.Get("Host")
		host = hv[0]
	}
	method := t.Method
	if method == "" {
		method = http.MethodGet
	}
	if c.wbuf, err = appendRequest(c.wbuf[:0], method, d, host, t.Header, t.Body); err != nil {
		return h, nil, slab, true, err // nothing sent: the connection stays usable
	}
	if _, err := c.nc.Write(c.wbuf); err != nil {
		return h, nil, slab, false, &noAnswer{err}
	}
	if h, err = c.readFinalHead(); err != nil {
		return h, nil, slab, false, err
	}
	body, slab, complete, err := c.readBody(h, method, maxBody, slab)
	h.err, h.status = h.errorStatus(), nil // nothing may point into the connection's buffer once it is given back
	if err != nil {
		return h, body, slab, false, err
	}
	return h, body, slab, complete && h.reusable(), nil
}

// readFinalHead reads the answer's head, skipping informational (1xx)
// answers; the heads together may not exceed maxHeaderBytes.
func (c *poolConn) readFinalHead() (head, error) {
	c.lr.left = maxHeaderBytes
	defer func() { c.lr.left = math.MaxInt64 }()
	for i := 0; i < 5; i++ {
		h, err := c.readHead(i == 0)
		switch {
		case err != nil:
			return h, err
		case h.code == http.StatusSwitchingProtocols:
			return h, fmt.Errorf("unexpected %s", h.status)
		case h.code >= 200:
			return h, nil
		}
	}
	return head{}, errors.New("too many informational (1xx) answers")
}

// minSlab is the least a new body slab holds: room for a few bodies. It is
// small because an open-model run holds one batch, and so one slab, per
// worker, and an overloaded target makes workers by the thousand.
const minSlab = 4 << 10

// readBody reads at most maxBody bytes of the body. One framed by
// Content-Length is read into slab's spare room (a new slab when it lacks
// room: the bodies already in the old one stay where they are); others
// are read into a buffer of their own. A longer body is a
// *httpclient.BodyTooLargeError, read no further (its connection is not
// reused); complete says the body was read to its end.
func (c *poolConn) readBody(h head, method string, maxBody int64, slab []byte) (body, grown []byte, complete bool, err error) {
	switch {
	case bodyless(method, h.code):
		return nil, slab, true, nil
	case h.f.chunked:
		b, err := httpclient.ReadBody(httputil.NewChunkedReader(c.br), maxBody)
		if err != nil {
			return b, slab, false, err
		}
		return b, slab, c.readTrailer() == nil, nil
	case h.f.length > maxBody:
		return nil, slab, false, &httpclient.BodyTooLargeError{Limit: maxBody}
	case h.f.length >= 0:
		n := int(h.f.length)
		if cap(slab)-len(slab) < n {
			slab = make([]byte, 0, max(2*cap(slab), n, minSlab))
		}
		at := len(slab)
		if _, err := io.ReadFull(c.br, slab[at:at+n]); err != nil {
			return nil, slab, false, err
		}
		return slab[at : at+n : at+n], slab[:at+n], true, nil
	}
	// Delimited by the end of the connection.
	b, err := httpclient.ReadBody(c.br, maxBody)
	return b, slab, false, err
}

// readTrailer reads the trailer section after a chunked body, to its empty
// line, within maxHeaderBytes.
func (c *poolConn) readTrailer() error {
	c.lr.left = maxHeaderBytes
	defer func() { c.lr.left = math.MaxInt64 }()
	for {
		line, err := c.br.ReadSlice('\n')
		if err != nil {
			return err
		}
		if len(trimCR(line[:len(line)-1])) == 0 {
			return nil
		}
	}
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
