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
// inspected.
type capture struct {
	buf  []byte
	cap  int
	n    int64 // bytes seen
	eof  bool  // the body was read to its end
	over bool  // more than cap bytes: buf is incomplete
	// undecodable: a content encoding the proxy cannot read (e.g. br).
	undecodable bool
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
	default:
		c.buf = out
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
