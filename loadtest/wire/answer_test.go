package wire

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/merchant-harness/mph/httpclient"
	vegeta "github.com/tsenart/vegeta/v12/lib"
)

func TestParseStatus(t *testing.T) {
	for _, tc := range []struct {
		line   string
		code   int
		status string
		http11 bool
		bad    bool
	}{
		{line: "HTTP/1.1 200 OK", code: 200, status: "200 OK", http11: true},
		{line: "HTTP/1.1 429 Too Many Requests", code: 429, status: "429 Too Many Requests", http11: true},
		{line: "HTTP/1.0 204", code: 204, status: "204"},
		{line: "HTTP/1.1  404 Not Found", code: 404, status: "404 Not Found", http11: true}, // as net/http: spaces before the code
		{line: "HTTP/1.1 200OK", bad: true},
		{line: "HTTP/1.1 2x0 OK", bad: true},
		{line: "HTTP/1.1 099 Low", bad: true},
		{line: "HTTP/2.0 200 OK", bad: true},
		{line: "HTTP/1.1", bad: true},
		{line: "ICY 200 OK", bad: true},
	} {
		h, err := parseStatus([]byte(tc.line))
		if tc.bad {
			if err == nil {
				t.Errorf("%q: accepted", tc.line)
			}
			continue
		}
		if err != nil || h.code != tc.code || string(h.status) != tc.status || h.http11 != tc.http11 {
			t.Errorf("%q: code %d status %q http11 %v err %v", tc.line, h.code, h.status, h.http11, err)
		}
	}
}

func TestParseFields(t *testing.T) {
	for _, tc := range []struct {
		name, section string
		header        http.Header
		length        int64
		chunked, both bool
		reusable11    bool
		bad           string
	}{
		{name: "plain", section: "content-type: application/json\r\nContent-Length: 2\r\n\r\n",
			header: http.Header{"Content-Type": {"application/json"}, "Content-Length": {"2"}}, length: 2, reusable11: true},
		{name: "bare LF and OWS", section: "X-A:  1 \t\nX-A: 2\n\n", header: http.Header{"X-A": {"1", "2"}}, length: -1, reusable11: true},
		{name: "obs-fold", section: "X-A: 1\r\n  2\r\n\r\n", header: http.Header{"X-A": {"1 2"}}, length: -1, reusable11: true},
		{name: "same lengths", section: "Content-Length: 5\r\nContent-Length: 5\r\n\r\n", header: http.Header{"Content-Length": {"5", "5"}}, length: 5, reusable11: true},
		{name: "close", section: "Connection: keep-alive, Close\r\n\r\n", header: http.Header{"Connection": {"keep-alive, Close"}}, length: -1},
		{name: "chunked and length", section: "Transfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n",
			header: http.Header{"Transfer-Encoding": {"chunked"}, "Content-Length": {"3"}}, length: 3, chunked: true, both: true},
		{name: "different lengths", section: "Content-Length: 5\r\nContent-Length: 6\r\n\r\n", bad: "several different Content-Length"},
		{name: "bad length", section: "Content-Length: -1\r\n\r\n", bad: "bad Content-Length"},
		{name: "signed length", section: "Content-Length: +1\r\n\r\n", bad: "bad Content-Length"},
		{name: "gzip coding", section: "Transfer-Encoding: gzip, chunked\r\n\r\n", bad: "unsupported transfer encoding"},
		{name: "no colon", section: "X-A 1\r\n\r\n", bad: "malformed HTTP header line"},
		{name: "space in name", section: "X-A : 1\r\n\r\n", bad: "malformed HTTP header line"},
		{name: "control in value", section: "X-A: 1\x002\r\n\r\n", bad: "malformed HTTP header line"},
		{name: "CR in value", section: "X-A: 1\r2\r\n\r\n", bad: "malformed HTTP header line"},
		{name: "fold first", section: " X-A: 1\r\n\r\n", bad: "malformed HTTP header line"},
	} {
		f, err := parseFields([]byte(tc.section))
		if tc.bad != "" {
			if err == nil || !strings.Contains(err.Error(), tc.bad) {
				t.Errorf("%s: err %v, want %q", tc.name, err, tc.bad)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if !reflect.DeepEqual(f.header, tc.header) || f.length != tc.length || f.chunked != tc.chunked || f.both != tc.both ||
			(head{http11: true, f: f}).reusable() != tc.reusable11 {
			t.Errorf("%s: header %v length %d chunked %v both %v reusable %v", tc.name, f.header, f.length, f.chunked, f.both, (head{http11: true, f: f}).reusable())
		}
	}
}

// Answers whose header section has the same bytes share one parsed
// section; a changed section is parsed anew.
func TestHeadSharesIdenticalSections(t *testing.T) {
	client, server := net.Pipe()
	defer client.Close()
	go func() {
		defer server.Close()
		for _, date := range []string{"Mon", "Mon", "Tue"} {
			_, _ = server.Write([]byte("HTTP/1.1 200 OK\r\nDate: " + date + "\r\nContent-Length: 0\r\n\r\n"))
		}
	}()
	lr := &budgetReader{r: client, left: 1 << 20}
	c := &poolConn{lr: lr, br: bufio.NewReader(lr)}
	var got []*fields
	for range 3 {
		h, err := c.readHead(true)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, h.f)
	}
	if got[0] != got[1] || got[1] == got[2] || got[2].header.Get("Date") != "Tue" || got[0].header.Get("Date") != "Mon" {
		t.Fatalf("sections %p %p %p, dates %q %q", got[0], got[1], got[2], got[0].header.Get("Date"), got[2].header.Get("Date"))
	}
}

// Malformed or unsafe answers end their request with an error and their
// connection is not reused; a message with both framings is read as
// chunked and its connection closed.
func TestAttackerRefusesMalformedAnswers(t *testing.T) {
	base := rawServer(t, map[string]string{
		"/ok":      "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}",
		"/ctl":     "HTTP/1.1 200 OK\r\nX-A: a\x01b\r\nContent-Length: 2\r\n\r\n{}",
		"/lengths": "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}",
		"/gzip":    "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n{}",
		"/101":     "HTTP/1.1 101 Switching Protocols\r\nUpgrade: x\r\n\r\n",
		"/1xx":     strings.Repeat("HTTP/1.1 103 Early Hints\r\n\r\n", 6) + "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}",
		"/both":    "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 99\r\n\r\n2\r\n{}\r\n0\r\n\r\n",
		"/status":  "HTTP/1.1 20 OK\r\nContent-Length: 2\r\n\r\n{}",
	})
	c := New(httpclient.LoadOptions{Timeout: 2 * time.Second})
	defer c.Close()
	for _, tc := range []struct{ path, err, body string }{
		{"/ctl", "malformed HTTP header line", ""}, {"/lengths", "several different Content-Length", ""},
		{"/gzip", "unsupported transfer encoding", ""}, {"/101", "unexpected 101 Switching Protocols", ""},
		{"/1xx", "too many informational", ""}, {"/status", "malformed HTTP status code", ""}, {"/both", "", "{}"},
	} {
		r := &vegeta.Result{}
		c.Hit(&vegeta.Target{Method: "GET", URL: base + tc.path}, r, nil)
		if (tc.err == "" && (r.Error != "" || string(r.Body) != tc.body)) || !strings.Contains(r.Error, tc.err) {
			t.Fatalf("%s: code %d body %q error %q, want error %q", tc.path, r.Code, r.Body, r.Error, tc.err)
		}
		if idle := c.pool.idle[c.dests[base+tc.path].key]; len(idle) != 0 {
			t.Fatalf("%s: the connection was kept for reuse", tc.path)
		}
		ok := &vegeta.Result{}
		c.Hit(&vegeta.Target{Method: "GET", URL: base + "/ok"}, ok, nil)
		if ok.Code != 200 || string(ok.Body) != "{}" {
			t.Fatalf("after %s: code %d body %q error %q", tc.path, ok.Code, ok.Body, ok.Error)
		}
	}
}

// A request larger than the socket's buffer is written whole; back-to-back
// GETs on connections the server closes after each answer are sent again on
// a new connection, never failed.
func TestAttackerSendsWholeRequests(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n, _ := io.Copy(io.Discard, r.Body)
		_, _ = fmt.Fprintf(w, "%d", n)
	}))
	defer srv.Close()
	c := New(httpclient.LoadOptions{Timeout: 5 * time.Second})
	defer c.Close()
	big := bytes.Repeat([]byte("x"), 8<<20)
	for range 2 {
		r := &vegeta.Result{}
		c.Hit(&vegeta.Target{Method: "POST", URL: srv.URL, Body: big}, r, nil)
		if r.Code != 200 || string(r.Body) != strconv.Itoa(len(big)) {
			t.Fatalf("big POST: code %d body %q error %q", r.Code, r.Body, r.Error)
		}
	}
	base, accepted := closingServer(t, 0)
	for i := range 20 {
		r := &vegeta.Result{}
		c.Hit(&vegeta.Target{Method: "GET", URL: base + "/x"}, r, nil)
		if r.Code != 200 || r.Error != "" {
			t.Fatalf("GET %d: code %d error %q", i, r.Code, r.Error)
		}
	}
	if n := accepted.Load(); n < 20 {
		t.Fatalf("%d connections for 20 answers each followed by a close", n)
	}
}

// A connection the server reset right after its answer fails the next
// request's send: a GET is sent again on a new connection, a POST is
// never sent twice (its error is the result).
func TestAttackerResetConnection(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ln.Close() })
	var posts atomic.Int64
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				req, err := http.ReadRequest(bufio.NewReader(c))
				if err == nil {
					if req.Method == "POST" {
						posts.Add(1)
					}
					_, _ = io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}")
				}
				_ = c.(*net.TCPConn).SetLinger(0) // close with a reset
				_ = c.Close()
			}()
		}
	}()
	base := "http://" + ln.Addr().String()
	c := New(httpclient.LoadOptions{Timeout: 2 * time.Second})
	defer c.Close()
	var postErrs int
	for i, m := range []string{"GET", "GET", "POST", "GET", "POST", "POST"} {
		time.Sleep(2 * time.Millisecond) // the reset arrives; below peekAfter, so no peek
		r := &vegeta.Result{}
		c.Hit(&vegeta.Target{Method: m, URL: base + "/x", Body: []byte("{}")}, r, nil)
		switch {
		case m == "GET" && (r.Code != 200 || r.Error != ""):
			t.Fatalf("request %d (GET): code %d error %q", i, r.Code, r.Error)
		case m == "POST" && r.Code != 200:
			postErrs++
			if r.Code != 0 || r.Error == "" {
				t.Fatalf("request %d (POST): code %d error %q", i, r.Code, r.Error)
			}
		}
	}
	if sent := posts.Load(); sent+int64(postErrs) != 3 || postErrs == 0 {
		t.Fatalf("3 POSTs: %d reached the server, %d failed; want none sent twice and the reset ones failed", sent, postErrs)
	}
}

// The status of an error answer is the result's own, however soon its
// connection carries the next request (it was read from the connection's
// buffer: run with -race).
func TestAttackerErrorStatusIsCopied(t *testing.T) {
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-N", strconv.FormatInt(n.Add(1), 10))
		w.WriteHeader(http.StatusNotFound)
	}))
	defer srv.Close()
	for _, r := range attackOnce(t, httpclient.LoadOptions{}, vegeta.Target{Method: "GET", URL: srv.URL}, 400) {
		if r.Code != 404 || r.Error != "404 Not Found" {
			t.Fatalf("code %d error %q", r.Code, r.Error)
		}
	}
}
