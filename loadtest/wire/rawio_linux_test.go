package wire

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/merchant-harness/mph/httpclient"
)

// tcpPair is a connected client and server TCP connection.
func tcpPair(t *testing.T) (client *net.TCPConn, server *net.TCPConn) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	done := make(chan net.Conn, 1)
	go func() {
		s, _ := ln.Accept()
		done <- s
	}()
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	s := <-done
	if s == nil {
		t.Fatal("accept failed")
	}
	t.Cleanup(func() { c.Close(); s.Close() })
	return c.(*net.TCPConn), s.(*net.TCPConn)
}

// A connection read and written with raw system calls behaves as
// net.Conn does, errors included: same bytes, same counts, same error
// text (addresses aside), same timeouts.
func TestRawIOBehavesAsNetConn(t *testing.T) {
	big := bytes.Repeat([]byte("0123456789abcdef"), 1<<18) // 4 MiB: more than a socket's buffer
	cases := []struct {
		name string
		run  func(c net.Conn, s *net.TCPConn) (int, error)
	}{
		{"answer", func(c net.Conn, s *net.TCPConn) (int, error) {
			_, _ = s.Write([]byte("hello"))
			return c.Read(make([]byte, 16))
		}},
		{"answer later", func(c net.Conn, s *net.TCPConn) (int, error) {
			go func() { time.Sleep(20 * time.Millisecond); _, _ = s.Write([]byte("late")) }()
			return c.Read(make([]byte, 16))
		}},
		{"peer closed", func(c net.Conn, s *net.TCPConn) (int, error) {
			s.Close()
			return c.Read(make([]byte, 16))
		}},
		{"peer reset", func(c net.Conn, s *net.TCPConn) (int, error) {
			_ = s.SetLinger(0)
			s.Close()
			return c.Read(make([]byte, 16))
		}},
		{"read deadline", func(c net.Conn, _ *net.TCPConn) (int, error) {
			_ = c.SetReadDeadline(time.Now().Add(30 * time.Millisecond))
			return c.Read(make([]byte, 16))
		}},
		{"closed here", func(c net.Conn, _ *net.TCPConn) (int, error) {
			c.Close()
			return c.Read(make([]byte, 16))
		}},
		{"empty read", func(c net.Conn, _ *net.TCPConn) (int, error) { return c.Read(nil) }},
		{"empty write", func(c net.Conn, _ *net.TCPConn) (int, error) { return c.Write(nil) }},
		{"write past the socket buffer", func(c net.Conn, s *net.TCPConn) (int, error) {
			got := make(chan []byte, 1)
			go func() {
				time.Sleep(20 * time.Millisecond) // the writer fills the buffer and waits
				b, _ := io.ReadAll(io.LimitReader(s, int64(len(big))))
				got <- b
			}()
			n, err := c.Write(big)
			c.Close() // the peer reads to the end, whatever was written
			if b := <-got; !bytes.Equal(b, big) {
				return n, fmt.Errorf("peer got %d bytes, not what was written", len(b))
			}
			return n, err
		}},
		{"write deadline", func(c net.Conn, _ *net.TCPConn) (int, error) {
			_ = c.SetWriteDeadline(time.Now().Add(30 * time.Millisecond))
			n, err := c.Write(big) // nobody reads
			return min(n, 1), err  // how far it got depends on the buffers
		}},
		{"write after the peer's reset", func(c net.Conn, s *net.TCPConn) (int, error) {
			_ = s.SetLinger(0)
			s.Close()
			time.Sleep(20 * time.Millisecond) // the reset has arrived
			_, _ = c.Write([]byte("x"))       // connection reset by peer
			return c.Write([]byte("x"))       // broken pipe: SIGPIPE ignored, not fatal
		}},
		{"write closed here", func(c net.Conn, _ *net.TCPConn) (int, error) {
			c.Close()
			return c.Write([]byte("x"))
		}},
	}
	outcome := func(c net.Conn, n int, err error) string {
		s := fmt.Sprintf("n=%d err=%v timeout=%v deadline=%v eof=%v", n, err,
			isTimeout(err), errors.Is(err, os.ErrDeadlineExceeded), err == io.EOF)
		s = strings.ReplaceAll(s, c.LocalAddr().String(), "LOCAL")
		return strings.ReplaceAll(s, c.RemoteAddr().String(), "REMOTE")
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, s := tcpPair(t)
			n, err := tc.run(c, s)
			want := outcome(c, n, err)
			t.Log("net.Conn: ", want)
			c, s = tcpPair(t)
			r := newRawIO(c)
			if _, ok := r.(*rawIO); !ok {
				t.Fatalf("newRawIO(%T) = %T: the raw path is off", c, r)
			}
			n, err = tc.run(r, s)
			if got := outcome(c, n, err); got != want {
				t.Fatalf("raw system calls: %s\nnet.Conn:          %s", got, want)
			}
		})
	}
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// The pool's connections use the raw path (under TLS, the connection
// under it); a connection other than TCP is left as it is.
func TestPoolDialsRawIO(t *testing.T) {
	if _, ok := newRawIO(&net.UnixConn{}).(*rawIO); ok {
		t.Fatal("a connection other than TCP was wrapped")
	}
	ok := httptest.NewServer(http.NotFoundHandler())
	defer ok.Close()
	sec := httptest.NewUnstartedServer(http.NotFoundHandler())
	sec.Config.ErrorLog = log.New(io.Discard, "", 0) // the connection closed unused
	sec.StartTLS()
	defer sec.Close()
	cl := New(httpclient.LoadOptions{InsecureTLS: true})
	defer cl.Close()
	for _, u := range []string{ok.URL, sec.URL} {
		d, err := cl.dest(u + "/x")
		if err != nil {
			t.Fatal(err)
		}
		c, err := cl.pool.dial(d, time.Now().Add(5*time.Second))
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := c.raw.(*rawIO); !ok {
			t.Errorf("%s: the pool's connection is a %T", u, c.raw)
		}
		_ = c.nc.Close()
	}
}
