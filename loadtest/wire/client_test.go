package wire

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/merchant-harness/mph/httpclient"
	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// attackOnce sends tg n times from 4 goroutines, as the attack's workers do.
func attackOnce(t *testing.T, o httpclient.LoadOptions, tg vegeta.Target, n int) []*vegeta.Result {
	t.Helper()
	c := New(o)
	defer c.Close()
	out := make([]*vegeta.Result, n)
	var wg sync.WaitGroup
	var next atomic.Int64
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := next.Add(1) - 1; i < int64(n); i = next.Add(1) - 1 {
				r := &vegeta.Result{}
				c.Hit(&tg, r, nil)
				out[i] = r
			}
		}()
	}
	wg.Wait()
	return out
}

// Both paths (the lean one by default, net/http's with --max-connections)
// keep the same rules.
var paths = map[string]httpclient.LoadOptions{"lean": {}, "net/http": {MaxConnections: 100}}

func TestAttackerPathChoice(t *testing.T) {
	for name, o := range map[string]httpclient.LoadOptions{"default": {}, "h2c": {H2C: true}, "http2": {HTTP2: true},
		"follow": {FollowRedirects: true}, "max-connections": {MaxConnections: 4}, "no-keepalive": {KeepAlive: new(bool)}} {
		if got, want := New(o).pool != nil, name == "default"; got != want {
			t.Errorf("%s: own connections %v, want %v", name, got, want)
		}
	}
}

func TestAttackerCapsBodies(t *testing.T) {
	big := bytes.Repeat([]byte("x"), 8<<20)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/chunked") {
			w.(http.Flusher).Flush() // no Content-Length: chunked
		}
		if strings.HasSuffix(r.URL.Path, "/small") {
			_, _ = w.Write(big[:httpclient.DefaultLoadMaxBody])
			return
		}
		_, _ = w.Write(big)
	}))
	defer srv.Close()
	for name, o := range paths {
		for _, path := range []string{"/small", "/big", "/chunked/small", "/chunked/big"} {
			wantErr := strings.HasSuffix(path, "/big")
			for _, r := range attackOnce(t, o, vegeta.Target{Method: "GET", URL: srv.URL + path}, 4) {
				if len(r.Body) > httpclient.DefaultLoadMaxBody || (r.Error == "body larger than 65536 bytes") != wantErr || (!wantErr && (r.Code != 200 || len(r.Body) != httpclient.DefaultLoadMaxBody)) {
					t.Fatalf("%s %s: %d bytes kept, code %d, error %q", name, path, len(r.Body), r.Code, r.Error)
				}
			}
		}
	}
}

func TestAttackerSendsNothingElsewhere(t *testing.T) {
	leak := &sink{}
	other := httptest.NewServer(leak.handler())
	defer other.Close()
	src := redirector(t, http.StatusTemporaryRedirect, otherHost(other.URL))
	tg := vegeta.Target{Method: "POST", URL: src.URL + "/v1/merchant/auth/token", Body: []byte(`{"secretKey":"sk_test_SECRET"}`),
		Header: http.Header{"Authorization": {"Bearer TOKEN"}}}
	for _, follow := range []bool{false, true} {
		for _, r := range attackOnce(t, httpclient.LoadOptions{FollowRedirects: follow}, tg, 4) {
			if !follow && (r.Code != http.StatusTemporaryRedirect || r.Error != "") {
				t.Fatalf("not following: want the 307 recorded, got %d %q", r.Code, r.Error)
			}
			if follow && !strings.Contains(r.Error, "the target answered 307 to") {
				t.Fatalf("following: the cross-origin redirect should be refused, got %d %q", r.Code, r.Error)
			}
		}
	}
	if hits := leak.all(); len(hits) > 0 {
		t.Fatalf("the other origin received %v", hits)
	}
}

func TestAttackerH2C(t *testing.T) {
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte(r.Proto))
	}))
	srv.Config.Protocols = new(http.Protocols)
	srv.Config.Protocols.SetHTTP1(true)
	srv.Config.Protocols.SetUnencryptedHTTP2(true)
	srv.Start()
	defer srv.Close()
	for h2c, want := range map[bool]string{false: "HTTP/1.1", true: "HTTP/2.0"} {
		for _, r := range attackOnce(t, httpclient.LoadOptions{H2C: h2c}, vegeta.Target{Method: "GET", URL: srv.URL}, 2) {
			if string(r.Body) != want {
				t.Fatalf("h2c=%v: got %q (%s)", h2c, r.Body, r.Error)
			}
		}
	}
}

// The request arrives as sent: method, path and query, headers, body, Host
// override; no Accept-Encoding is added; a header value with a newline is
// refused (it cannot inject a header); connections are reused.
func TestAttackerRequestOnTheWire(t *testing.T) {
	var mu sync.Mutex
	var got []*http.Request
	var bodies []string
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		got, bodies = append(got, r), append(bodies, string(b))
		mu.Unlock()
		w.Header().Set("X-Ratelimit-Remaining", "7")
		w.WriteHeader(http.StatusCreated)
	}))
	defer srv.Close()
	conns := 0
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			mu.Lock()
			conns++
			mu.Unlock()
		}
	}
	srv.Start()
	tg := vegeta.Target{Method: "POST", URL: srv.URL + "/v1/merchant/cards?limit=20", Body: []byte(`{"a":1}`),
		Header: http.Header{"Authorization": {"Bearer T"}, "Host": {"api.example"}}}
	for name, o := range paths {
		evil := tg
		evil.Header = http.Header{"X-Evil": {"a\r\nX-Injected: 1"}}
		if r := attackOnce(t, o, evil, 1)[0]; r.Code != 0 || !strings.Contains(r.Error, `invalid header field value for "X-Evil"`) {
			t.Fatalf("%s: a header value with CR LF was not refused: code %d, error %q", name, r.Code, r.Error)
		}
	}
	mu.Lock()
	conns = 0
	mu.Unlock()
	rs := attackOnce(t, httpclient.LoadOptions{}, tg, 40)
	for _, r := range rs {
		if r.Code != 201 || r.Error != "" || r.BytesOut != 7 || r.Headers.Get("X-Ratelimit-Remaining") != "7" || r.Method != "POST" || r.URL != tg.URL {
			t.Fatalf("result %+v", r)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	for i, r := range got {
		if r.URL.RequestURI() != "/v1/merchant/cards?limit=20" || r.Host != "api.example" || r.Header.Get("Authorization") != "Bearer T" ||
			bodies[i] != `{"a":1}` || r.Header.Get("Accept-Encoding") != "" || r.Header.Get("X-Injected") != "" {
			t.Fatalf("request %d: %s %s host %q headers %v body %q", i, r.Method, r.URL, r.Host, r.Header, bodies[i])
		}
	}
	if conns > 4 {
		t.Fatalf("%d connections for 40 requests from 4 workers: not reused", conns)
	}
}

// A stalled answer ends at the timeout with an error, and big headers are
// refused without reading them all.
func TestAttackerBoundsTimeAndHeaders(t *testing.T) {
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/headers" {
			for i := range 3000 {
				w.Header().Set(fmt.Sprintf("X-H%d", i), strings.Repeat("v", 500))
			}
			return
		}
		w.(http.Flusher).Flush()
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
		}
	}))
	srv.Config.MaxHeaderBytes = 4 << 20
	srv.Start()
	defer srv.Close()
	for name, o := range paths {
		o.Timeout = 300 * time.Millisecond
		start := time.Now()
		r := attackOnce(t, o, vegeta.Target{Method: "GET", URL: srv.URL + "/slow"}, 1)[0]
		if d := time.Since(start); d > 3*time.Second || r.Code != 0 || !(strings.Contains(r.Error, "Client.Timeout") || strings.Contains(r.Error, "deadline exceeded")) {
			t.Fatalf("%s: slow answer: %v, code %d, error %q", name, d, r.Code, r.Error)
		}
	}
	r := attackOnce(t, httpclient.LoadOptions{}, vegeta.Target{Method: "GET", URL: srv.URL + "/headers"}, 1)[0]
	if r.Code != 0 || !strings.Contains(r.Error, "answer headers larger than") {
		t.Fatalf("huge headers: code %d, error %q", r.Code, r.Error)
	}
}

// closingServer answers each request on a connection and then closes it
// without saying so (no Connection: close), after a pause.
func closingServer(t *testing.T, pause time.Duration) (string, *atomic.Int64) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ln.Close() })
	var accepted atomic.Int64
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			accepted.Add(1)
			go func() {
				defer c.Close()
				req, err := http.ReadRequest(bufio.NewReader(c))
				if err != nil {
					return
				}
				_, _ = io.Copy(io.Discard, req.Body)
				_, _ = io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}")
				time.Sleep(pause)
			}()
		}
	}()
	return "http://" + ln.Addr().String(), &accepted
}

// A connection the server closed while idle is not reused: neither a GET
// nor a POST (which must never be sent twice) fails because of it.
func TestAttackerIdleConnectionClosedByServer(t *testing.T) {
	base, accepted := closingServer(t, 0)
	c := New(httpclient.LoadOptions{})
	defer c.Close()
	for i, m := range []string{"GET", "POST", "POST", "GET"} {
		r := &vegeta.Result{}
		c.Hit(&vegeta.Target{Method: m, URL: base + "/x", Body: []byte("{}")}, r, nil)
		if r.Code != 200 || r.Error != "" {
			t.Fatalf("request %d (%s): code %d error %q", i, m, r.Code, r.Error)
		}
		time.Sleep(20 * time.Millisecond) // idle past peekAfter: the server has closed it
	}
	if n := accepted.Load(); n != 4 {
		t.Fatalf("%d connections for 4 requests on a server closing each", n)
	}
}

// https goes over the client's own connections too: the certificate is
// verified unless InsecureTLS, and HTTP/1.1 is negotiated.
func TestAttackerTLS(t *testing.T) {
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte(r.Proto))
	}))
	srv.EnableHTTP2 = true
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // the refused handshake
	srv.StartTLS()
	defer srv.Close()
	tg := vegeta.Target{Method: "GET", URL: srv.URL + "/x"}
	if r := attackOnce(t, httpclient.LoadOptions{}, tg, 1)[0]; r.Code != 0 || !strings.Contains(r.Error, "certificate") {
		t.Fatalf("unverified certificate accepted: code %d, error %q", r.Code, r.Error)
	}
	for _, r := range attackOnce(t, httpclient.LoadOptions{InsecureTLS: true}, tg, 8) {
		if r.Code != 200 || string(r.Body) != "HTTP/1.1" {
			t.Fatalf("code %d body %q error %q", r.Code, r.Body, r.Error)
		}
	}
}

// A connection idle past its last deadline (the timeout) is still reused
// when the server keeps it open.
func TestAttackerReusesConnectionIdlePastTimeout(t *testing.T) {
	base, conns := countingServer(t)
	c := New(httpclient.LoadOptions{Timeout: 50 * time.Millisecond})
	defer c.Close()
	for i := range 3 {
		r := &vegeta.Result{}
		c.Hit(&vegeta.Target{Method: "GET", URL: base}, r, nil)
		if r.Code != 200 {
			t.Fatalf("request %d: code %d error %q", i, r.Code, r.Error)
		}
		time.Sleep(120 * time.Millisecond)
	}
	if n := conns.Load(); n != 1 {
		t.Fatalf("%d connections for 3 requests on a keep-alive server", n)
	}
}

// rawServer answers each request with the bytes answers[path] and closes
// the connection after an HTTP/1.0 answer.
func rawServer(t *testing.T, answers map[string]string) string {
	return requestServer(t, func(c net.Conn, req *http.Request) bool {
		a := answers[req.URL.Path]
		_, err := io.WriteString(c, a)
		return err == nil && !strings.HasPrefix(a, "HTTP/1.0")
	})
}

// requestServer reads the requests of each connection it accepts and hands
// each, its body read, to answer, which writes what it likes and says
// whether the connection goes on.
func requestServer(t *testing.T, answer func(net.Conn, *http.Request) bool) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				br := bufio.NewReader(c)
				for {
					req, err := http.ReadRequest(br)
					if err != nil {
						return
					}
					_, _ = io.Copy(io.Discard, req.Body)
					if !answer(c, req) {
						return
					}
				}
			}()
		}
	}()
	return "http://" + ln.Addr().String()
}

// Answers without a body, with an informational answer first, or
// delimited by the connection's end are read right and leave the
// connection usable (or closed) as they should.
func TestAttackerAnswerFraming(t *testing.T) {
	base := rawServer(t, map[string]string{
		"/head":   "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n",
		"/204":    "HTTP/1.1 204 No Content\r\n\r\n",
		"/100":    "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}",
		"/http10": "HTTP/1.0 200 OK\r\nContent-Type: application/json\r\n\r\n{\"a\":1}",
		"/chunk":  "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n",
	})
	c := New(httpclient.LoadOptions{Timeout: 2 * time.Second})
	defer c.Close()
	for _, tc := range []struct {
		method, path, body string
		code               uint16
	}{
		{"HEAD", "/head", "", 200}, {"GET", "/204", "", 204}, {"GET", "/100", "{}", 200},
		{"GET", "/http10", `{"a":1}`, 200}, {"GET", "/chunk", "{}", 200},
	} {
		for i := range 2 { // the second request shows the connection's state is right
			r := &vegeta.Result{}
			c.Hit(&vegeta.Target{Method: tc.method, URL: base + tc.path}, r, nil)
			if r.Code != tc.code || string(r.Body) != tc.body || r.Error != "" {
				t.Fatalf("%s %s #%d: code %d body %q error %q", tc.method, tc.path, i, r.Code, r.Body, r.Error)
			}
		}
	}
}

// sink records every request it receives with its credentials.
type sink struct {
	mu   sync.Mutex
	hits []string
}

func (s *sink) handler() http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		s.mu.Lock()
		s.hits = append(s.hits, r.Method+" "+r.URL.Path+" auth="+r.Header.Get("Authorization")+" body="+string(b))
		s.mu.Unlock()
		_, _ = io.WriteString(w, `{"data":{}}`)
	}
}

func (s *sink) all() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.hits...)
}

// redirector answers every request with code to loc+path.
func redirector(t *testing.T, code int, loc string) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Location", loc+r.URL.Path)
		w.WriteHeader(code)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// otherHost rewrites 127.0.0.1 to localhost: another origin on another port.
func otherHost(u string) string { return strings.Replace(u, "127.0.0.1", "localhost", 1) }
