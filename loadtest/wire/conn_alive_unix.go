//go:build unix

package wire

import (
	"net"
	"syscall"
)

// closedByPeer peeks at an idle connection without blocking: end of stream
// (the server closed it) or unexpected bytes (an HTTP/1.1 server says
// nothing between answers; a TLS close_notify alert, say) mean it must not
// be reused.
func closedByPeer(nc net.Conn) bool {
	sc, ok := nc.(syscall.Conn)
	if !ok {
		return false
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return true
	}
	var buf [1]byte
	dead := false
	err = rc.Read(func(fd uintptr) bool {
		n, _, err := syscall.Recvfrom(int(fd), buf[:], syscall.MSG_PEEK|syscall.MSG_DONTWAIT)
		dead = n > 0 || (n == 0 && err == nil) || (err != nil && err != syscall.EAGAIN && err != syscall.EWOULDBLOCK)
		return true
	})
	return dead || err != nil
}
