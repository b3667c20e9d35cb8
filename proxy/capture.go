package proxy

import (
	"io"
	"sync"
)

// capture keeps the first Cap bytes of a body streaming through it and
// counts the rest: bodies larger than the cap are passed on whole but not
// inspected.
type capture struct {
	buf  []byte
	cap  int
	n    int64 // bytes seen
	eof  bool  // the body was read to its end
	over bool  // more than cap bytes: buf is incomplete
}

func (c *capture) write(p []byte) {
	c.n += int64(len(p))
	if c.over {
		return
	}
	if len(c.buf)+len(p) > c.cap {
		c.over = true
		return
	}
	c.buf = append(c.buf, p...)
}

// complete reports whether buf holds the whole body.
func (c *capture) complete() bool { return c.eof && !c.over }

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

// bufPool recycles capture buffers between exchanges.
var bufPool = sync.Pool{New: func() any { b := make([]byte, 0, 4096); return &b }}

func newCapture(limit int) *capture {
	bp := bufPool.Get().(*[]byte)
	return &capture{buf: (*bp)[:0], cap: limit}
}

func (c *capture) release() {
	if c == nil || cap(c.buf) > 256<<10 {
		return // let large buffers go back to the garbage collector
	}
	b := c.buf[:0]
	c.buf = nil
	bufPool.Put(&b)
}
