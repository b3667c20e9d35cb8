package wire

import (
	"errors"
	"io"
	"net"
	"os"
	"syscall"
)

// rawIO reads and writes a TCP connection's socket with raw system calls,
// still waiting for readiness on Go's poller (syscall.RawConn) and so
// still bound by the connection's deadlines. net.Conn's Read and Write
// enter each call as a possibly blocking one (entersyscall): the scheduler's
// monitor then wakes every 20 µs to take back processors stuck in system
// calls, which on a busy closed loop cost about a tenth of the generator's
// CPU. The socket is non-blocking (as every socket on Go's poller), so
// these calls return at once and need none of that. Errors read as
// net.Conn's do.
type rawIO struct {
	*net.TCPConn
	rc     syscall.RawConn
	p      []byte // the caller's buffer, for rf and wf
	n      int
	err    syscall.Errno
	rf, wf func(fd uintptr) bool // built once: no closure per call
}

// newRawIO wraps nc when it is a TCP connection; otherwise it returns nc.
func newRawIO(nc net.Conn) net.Conn {
	tc, ok := nc.(*net.TCPConn)
	if !ok {
		return nc
	}
	rc, err := tc.SyscallConn()
	if err != nil {
		return nc
	}
	c := &rawIO{TCPConn: tc, rc: rc}
	c.rf, c.wf = c.readFD, c.writeFD
	return c
}

// readFD is one read(2); false (wait for the poller) when nothing is there.
func (c *rawIO) readFD(fd uintptr) bool {
	for {
		n, e := sysRead(fd, c.p)
		switch e {
		case syscall.EINTR:
			continue
		case syscall.EAGAIN:
			return false
		case 0:
			c.n = int(n)
		}
		c.err = e
		return true
	}
}

// writeFD writes what is left of c.p; false (wait for room) when the
// socket's buffer is full before the end.
func (c *rawIO) writeFD(fd uintptr) bool {
	for len(c.p) > 0 {
		n, e := sysWrite(fd, c.p)
		switch e {
		case syscall.EINTR:
			continue
		case syscall.EAGAIN:
			return false
		case 0:
			c.n += int(n)
			c.p = c.p[n:]
			continue
		}
		c.err = e
		return true
	}
	return true
}

func (c *rawIO) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	c.p, c.n, c.err = p, 0, 0
	err := c.rc.Read(c.rf)
	n, e := c.n, c.err
	c.p = nil
	switch {
	case err != nil:
		return 0, c.opError("read", err)
	case e != 0:
		return 0, c.opError("read", os.NewSyscallError("read", e))
	case n == 0:
		return 0, io.EOF
	}
	return n, nil
}

func (c *rawIO) Write(p []byte) (int, error) {
	c.p, c.n, c.err = p, 0, 0
	if len(p) == 0 {
		return 0, nil
	}
	err := c.rc.Write(c.wf)
	n, e := c.n, c.err
	c.p = nil
	switch {
	case err != nil:
		return n, c.opError("write", err)
	case e != 0:
		return n, c.opError("write", os.NewSyscallError("write", e))
	}
	return n, nil
}

// opError is err as net.Conn reports it: the raw connection's own errors
// (deadline, closed) are already *net.OpError, named "raw-read" or
// "raw-write".
func (c *rawIO) opError(op string, err error) error {
	var oe *net.OpError
	if errors.As(err, &oe) {
		e := *oe
		e.Op = op
		return &e
	}
	return &net.OpError{Op: op, Net: "tcp", Source: c.LocalAddr(), Addr: c.RemoteAddr(), Err: err}
}
