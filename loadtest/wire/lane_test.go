package wire

import (
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/merchant-harness/mph/httpclient"
	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// countingServer is a keep-alive server counting the connections it
// accepts.
func countingServer(t *testing.T) (string, *atomic.Int64) {
	t.Helper()
	var conns atomic.Int64
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte("{}"))
	}))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	srv.Start()
	t.Cleanup(srv.Close)
	return srv.URL, &conns
}

func hitOK(t *testing.T, c *Client, l *Lane, m, url string) {
	t.Helper()
	r := &vegeta.Result{}
	c.HitOn(l, &vegeta.Target{Method: m, URL: url, Body: []byte("{}")}, r, nil)
	if r.Code != 200 || r.Error != "" {
		t.Fatalf("%s %s: code %d error %q", m, url, r.Code, r.Error)
	}
	if r.Timestamp.IsZero() || r.Latency <= 0 || time.Since(r.Timestamp) < r.Latency {
		t.Fatalf("%s %s: timestamp %v, latency %v: Hit stamps both", m, url, r.Timestamp, r.Latency)
	}
}

// A lane keeps its one connection from request to request; its Close
// gives it to the pool; a request to another origin gives it back there
// too, where the next request to its origin finds it.
func TestLaneKeepsItsConnection(t *testing.T) {
	a, connsA := countingServer(t)
	b, connsB := countingServer(t)
	c := New(httpclient.LoadOptions{})
	defer c.Close()
	l1, l2 := c.NewLane(), c.NewLane()
	for range 20 {
		hitOK(t, c, l1, "GET", a+"/x")
		hitOK(t, c, l2, "POST", a+"/x")
	}
	if n := connsA.Load(); n != 2 {
		t.Fatalf("two lanes, 40 requests: %d connections, want 2", n)
	}
	hitOK(t, c, l1, "GET", b+"/x") // l1's connection to a goes to the pool
	hitOK(t, c, nil, "GET", a+"/x")
	l2.Close()
	hitOK(t, c, nil, "GET", a+"/x")
	hitOK(t, c, nil, "GET", a+"/x")
	if n := connsA.Load(); n != 2 {
		t.Fatalf("the lanes' connections were not given back: %d connections to a, want 2", n)
	}
	if n := connsB.Load(); n != 1 {
		t.Fatalf("%d connections to b, want 1", n)
	}
	l1.Close()
	l1.Close() // twice: nothing left to give
	if c.pool.idle[httpKey(a)] == nil {
		t.Fatal("the pool holds no connection to a after the lanes closed")
	}
}

func httpKey(u string) string { return "http://" + u[len("http://"):] }

// A lane's connection obeys the pool's rules: one the server closed while
// idle is not used (a POST is never lost or sent twice because of it).
func TestLaneDropsConnectionClosedByServer(t *testing.T) {
	base, accepted := closingServer(t, 0)
	c := New(httpclient.LoadOptions{})
	defer c.Close()
	l := c.NewLane()
	defer l.Close()
	for _, m := range []string{"GET", "POST", "POST", "GET"} {
		hitOK(t, c, l, m, base+"/x")
		time.Sleep(20 * time.Millisecond) // idle past peekAfter: the server has closed it
	}
	if n := accepted.Load(); n != 4 {
		t.Fatalf("%d connections for 4 requests on a server closing each", n)
	}
}

// A client without connections of its own has no lanes; HitOn then goes
// through net/http.
func TestLaneNilWithoutOwnConnections(t *testing.T) {
	base, _ := countingServer(t)
	c := New(httpclient.LoadOptions{MaxConnections: 4})
	defer c.Close()
	l := c.NewLane()
	if l != nil {
		t.Fatal("a lane on the net/http path")
	}
	hitOK(t, c, l, "GET", base+"/x")
	l.Close()
}

// An answer that comes at once, in pieces, or late is read whole over a
// lane, and a server that answers nothing is bounded by the timeout.
func TestLaneReadsEveryAnswer(t *testing.T) {
	base := requestServer(t, func(nc net.Conn, req *http.Request) bool {
		switch req.URL.Path {
		case "/late":
			time.Sleep(30 * time.Millisecond)
		case "/pieces":
			_, _ = io.WriteString(nc, "HTTP/1.1 200 OK\r\n")
			time.Sleep(5 * time.Millisecond)
			_, _ = io.WriteString(nc, "Content-Length: 2\r\n\r\n{")
			time.Sleep(5 * time.Millisecond)
			_, err := io.WriteString(nc, "}")
			return err == nil
		case "/never":
			time.Sleep(time.Second)
			return false
		}
		_, err := io.WriteString(nc, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}")
		return err == nil
	})
	c := New(httpclient.LoadOptions{Timeout: 200 * time.Millisecond})
	defer c.Close()
	l := c.NewLane()
	defer l.Close()
	for i := range 200 {
		hitOK(t, c, l, "GET", base+"/now")
		if i%20 == 0 {
			hitOK(t, c, l, "GET", base+"/pieces")
			hitOK(t, c, l, "GET", base+"/late")
		}
	}
	start := time.Now()
	r := &vegeta.Result{}
	c.HitOn(l, &vegeta.Target{Method: "GET", URL: base + "/never"}, r, nil)
	if r.Code != 0 || r.Error == "" || time.Since(start) > 2*time.Second {
		t.Fatalf("a server answering nothing: code %d error %q after %v", r.Code, r.Error, time.Since(start))
	}
}

// A request refused for its header (as net/http refuses it) sends nothing
// and leaves its connection usable.
func TestRefusedHeaderSendsNothing(t *testing.T) {
	var reqs atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { reqs.Add(1) }))
	defer srv.Close()
	c := New(httpclient.LoadOptions{})
	defer c.Close()
	l := c.NewLane()
	defer l.Close()
	hitOK(t, c, l, "GET", srv.URL)
	for _, h := range []http.Header{{"X-A": {"a\r\nX-Injected: 1"}}, {"X A": {"1"}}} {
		r := &vegeta.Result{}
		c.HitOn(l, &vegeta.Target{Method: "GET", URL: srv.URL, Header: h}, r, nil)
		if r.Code != 0 || !strings.Contains(r.Error, "net/http: invalid header field") {
			t.Fatalf("header %q: code %d error %q", h, r.Code, r.Error)
		}
	}
	first := l.c
	hitOK(t, c, l, "GET", srv.URL)
	if n := reqs.Load(); n != 2 || l.c != first {
		t.Fatalf("%d requests reached the server (want 2), same connection: %v", n, l.c == first)
	}
}
