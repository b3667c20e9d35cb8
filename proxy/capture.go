package proxy

import (
	"bytes"
	"compress/gzip"
	"compress/zlib"
	"fmt"
	"io"
	"strings"
	"sync"
)

// capture keeps the first Cap bytes of a body streaming through it and
// counts the rest: bodies larger than the cap are passed on whole but not
// inspected. Its buffer is taken from the proxy's memory budget, so that
// the bodies held at once stay bounded however many connections stream
// through; a body the budget cannot hold is passed on whole, uninspected.
type capture struct {
	buf  []byte
	cap  int
	n    int64 // bytes seen
	eof  bool  // the body was read to its end
	over bool  // more than cap bytes: buf is incomplete
	// starved: the proxy's inspection memory was in use (buf incomplete).
	starved bool
	// undecodable: a content encoding the proxy cannot read (e.g. br).
	undecodable bool
	mem         *memBudget
	held        int // bytes of mem this capture holds (its buffer's capacity)
}

func (c *capture) write(p []byte) {
	c.n += int64(len(p))
	if c.over {
		return
	}
	need := len(c.buf) + len(p)
	if need > c.cap {
		c.over = true
		return
	}
	if need > cap(c.buf) {
		grow := min(max(2*cap(c.buf), need, smallBuf), c.cap)
		if !c.mem.take(grow - c.held) {
			c.over, c.starved = true, true
			return
		}
		var nb []byte
		if grow == smallBuf {
			nb = (*bufPool.Get().(*[]byte))[:0]
		} else {
			nb = make([]byte, len(c.buf), grow)
			copy(nb, c.buf)
		}
		c.buf, c.held = nb, grow
	}
	c.buf = append(c.buf, p...)
}

// memBudget bounds the bytes all captures of a proxy hold at once.
type memBudget struct {
	mu         sync.Mutex
	used, max  int
	peak       int
	starvedAny bool
}

func (m *memBudget) take(n int) bool {
	if m == nil || n <= 0 {
		return true
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.used+n > m.max {
		m.starvedAny = true
		return false
	}
	m.used += n
	m.peak = max(m.peak, m.used)
	return true
}

func (m *memBudget) give(n int) {
	if m == nil || n <= 0 {
		return
	}
	m.mu.Lock()
	m.used -= n
	m.mu.Unlock()
}

// complete reports whether buf holds the whole body.
func (c *capture) complete() bool { return c.eof && !c.over && !c.undecodable }

// decodeContent replaces a gzip or deflate body by its decoded bytes,
// bounded by the cap; any other encoding makes it undecodable. The bytes
// the client receives are not touched: only the inspected copy changes.
func (c *capture) decodeContent(encoding string) {
	enc := strings.ToLower(strings.TrimSpace(encoding))
	if enc == "" || enc == "identity" || !c.eof || c.over {
		return
	}
	var r io.Reader
	var err error
	switch enc {
	case "gzip", "x-gzip":
		r, err = gzip.NewReader(bytes.NewReader(c.buf))
	case "deflate":
		r, err = zlib.NewReader(bytes.NewReader(c.buf))
	default:
		err = fmt.Errorf("content encoding %q", enc)
	}
	if err != nil {
		c.undecodable = true
		return
	}
	out, err := io.ReadAll(io.LimitReader(r, int64(c.cap)+1))
	switch {
	case err != nil:
		c.undecodable = true
	case len(out) > c.cap:
		c.over = true
	case !c.mem.take(cap(out) - c.held):
		c.over, c.starved = true, true
	default:
		c.mem.give(c.held - cap(out)) // when the decoded text is the smaller
		c.buf, c.held = out, max(c.held, cap(out))
	}
}

// teeBody copies what is read from rc into a capture.
type teeBody struct {
	rc     io.ReadCloser
	c      *capture
	mu     sync.Mutex // the transport may still read after the exchange ended
	sealed bool
}

func (t *teeBody) Read(p []byte) (int, error) {
	n, err := t.rc.Read(p)
	t.mu.Lock()
	if !t.sealed {
		t.c.write(p[:n])
		if err == io.EOF {
			t.c.eof = true
		}
	}
	t.mu.Unlock()
	return n, err
}

// seal stops capturing: from here on the checker owns the capture.
func (t *teeBody) seal() {
	t.mu.Lock()
	t.sealed = true
	t.mu.Unlock()
}

func (t *teeBody) Close() error { return t.rc.Close() }

// smallBuf is the first buffer of a capture; bufPool recycles them.
const smallBuf = 4096

var bufPool = sync.Pool{New: func() any { b := make([]byte, 0, smallBuf); return &b }}

func newCapture(limit int, mem *memBudget) *capture {
	return &capture{cap: limit, mem: mem}
}

// release gives the capture's buffer back to the budget (and a small one
// to the pool).
func (c *capture) release() {
	if c == nil {
		return
	}
	if cap(c.buf) == smallBuf {
		b := c.buf[:0]
		bufPool.Put(&b)
	}
	c.buf = nil
	c.mem.give(c.held)
	c.held = 0
}
