//go:build unix

package wire

import (
	"io"
	"net"
	"os"
	"syscall"
)

// sendReader reads a plain TCP connection and, on the first read after a
// request is queued (send), writes that request from inside the same
// poller call. Go's reads begin by forgetting the socket's readiness and
// trying read(2), which right after a request almost always finds nothing
// (EAGAIN) before waiting; writing the request there instead, after the
// readiness is forgotten, lets the wait start at once without losing the
// answer's wake-up. It saves about one read(2) in three per request. A
// request the socket does not take whole is finished with a plain write.
type sendReader struct {
	nc      net.Conn
	rc      syscall.RawConn
	pending []byte // the request not yet written
	p       []byte // the read's buffer
	n       int
	err     error
	sendErr error
	fn      func(fd uintptr) bool // r.io, bound once
}

// newSendReader returns nil when nc is not a plain socket.
func newSendReader(nc net.Conn) *sendReader {
	sc, ok := nc.(syscall.Conn)
	if !ok {
		return nil
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return nil
	}
	r := &sendReader{nc: nc, rc: rc}
	r.fn = r.io
	return r
}

// send queues a request for the next read to write.
func (r *sendReader) send(req []byte) { r.pending = req }

func (r *sendReader) Read(p []byte) (int, error) {
	r.p, r.n, r.err, r.sendErr = p, 0, nil, nil
	if err := r.rc.Read(r.fn); err != nil {
		r.pending = nil
		return 0, err
	}
	if r.sendErr != nil {
		return 0, &noAnswer{r.sendErr}
	}
	if len(r.pending) > 0 { // the socket took part of it: write the rest, then read
		_, err := r.nc.Write(r.pending)
		r.pending = nil
		if err != nil {
			return 0, &noAnswer{err}
		}
		return r.Read(p)
	}
	return r.n, r.err
}

// io runs inside the poller's read: write what is pending (then wait for
// the answer), else read.
func (r *sendReader) io(fd uintptr) bool {
	for len(r.pending) > 0 {
		n, err := syscall.Write(int(fd), r.pending)
		switch {
		case err == syscall.EINTR:
			continue
		case err == syscall.EAGAIN:
			return true // full: Read writes the rest
		case err != nil:
			r.sendErr = &net.OpError{Op: "write", Net: "tcp", Source: r.nc.LocalAddr(), Addr: r.nc.RemoteAddr(), Err: os.NewSyscallError("write", err)}
			r.pending = nil
			return true
		}
		r.pending = r.pending[n:]
		if len(r.pending) > 0 {
			return true
		}
		return false // sent: wait for the answer
	}
	for {
		n, err := syscall.Read(int(fd), r.p)
		switch {
		case err == syscall.EINTR:
			continue
		case err == syscall.EAGAIN:
			return false
		case err != nil:
			r.err = &net.OpError{Op: "read", Net: "tcp", Source: r.nc.LocalAddr(), Addr: r.nc.RemoteAddr(), Err: os.NewSyscallError("read", err)}
		case n == 0 && len(r.p) > 0:
			r.err = io.EOF
		}
		r.n = max(n, 0)
		return true
	}
}
