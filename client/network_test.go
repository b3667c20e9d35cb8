package client

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/merchant-harness/mph/httpclient"
)

// credSink records every request that reaches it, with its credentials.
type credSink struct {
	mu   sync.Mutex
	seen []string
}

func (s *credSink) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(io.LimitReader(r.Body, 1<<16))
	s.mu.Lock()
	s.seen = append(s.seen, r.Method+" "+r.URL.Path+" "+r.Header.Get("Authorization")+" "+string(b))
	s.mu.Unlock()
}

func (s *credSink) requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.seen...)
}

// redirectingTarget issues tokens but answers everything else with a 307
// to another host name and port.
func redirectingTarget(t *testing.T, code int) (*httptest.Server, *credSink) {
	sink := &credSink{}
	other := httptest.NewServer(sink)
	t.Cleanup(other.Close)
	loc := strings.Replace(other.URL, "127.0.0.1", "localhost", 1)
	srv, _ := tokenServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Location", loc+r.URL.Path)
		w.WriteHeader(code)
	})
	return srv, sink
}

func TestNoCredentialFollowsARedirect(t *testing.T) {
	for _, follow := range []bool{false, true} {
		for _, code := range []int{http.StatusTemporaryRedirect, http.StatusPermanentRedirect, http.StatusFound} {
			srv, sink := redirectingTarget(t, code)
			rec := NewRecorder()
			c := newTestClient(srv.URL, rec)
			c.o.HTTP = httpclient.New(httpclient.Options{FollowRedirects: follow})
			_, err := c.Post(context.Background(), "/cards", map[string]any{"secretKey": "sk_test_supersecret123"})
			if !IsNetError(err) || !strings.Contains(err.Error(), "the target answered") {
				t.Fatalf("follow=%v %d: want a refused redirect, got %v", follow, code, err)
			}
			if got := sink.requests(); len(got) > 0 {
				t.Fatalf("follow=%v %d: the other origin received %v", follow, code, got)
			}
			if ex := rec.Last(); ex == nil || !strings.Contains(ex.Err, "should the base URL be") {
				t.Fatalf("the exchange should record the refused redirect: %+v", ex)
			}
		}
	}
}

func TestBodyLargerThanTheCapIsSaidSo(t *testing.T) {
	srv, _ := tokenServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"data":"`+strings.Repeat("x", 3<<20)+`"}`)
	})
	rec := NewRecorder()
	c := newTestClient(srv.URL, rec)
	c.o.MaxBody = 1 << 20
	resp, err := c.Get(context.Background(), "/cards", nil)
	if !errors.Is(err, httpclient.ErrBodyTooLarge) || !strings.Contains(err.Error(), "body larger than 1048576 bytes") {
		t.Fatalf("want body larger than 1048576 bytes, got %v", err)
	}
	if resp == nil || resp.Status != 200 || len(resp.Body) != 1<<20 {
		t.Fatalf("the answer's status and first bytes should come with the error: %+v", resp)
	}
	ex := rec.Last()
	if len(ex.ResponseBody()) > MaxShownBody+64 || !strings.Contains(ex.ResponseBody(), "… [cut: ") {
		t.Fatalf("the recorded body should be cut at %d bytes with the cut stated, got %d bytes", MaxShownBody, len(ex.ResponseBody()))
	}
}

func TestBrokenBodyReadIsSaidSo(t *testing.T) {
	srv, _ := tokenServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "1000")
		w.WriteHeader(200)
		_, _ = io.WriteString(w, `{"data":`)
		w.(http.Flusher).Flush()
		conn, _, _ := w.(http.Hijacker).Hijack()
		conn.Close()
	})
	_, err := newTestClient(srv.URL, NewRecorder()).Get(context.Background(), "/cards", nil)
	var be *BodyError
	if !errors.As(err, &be) || !strings.Contains(err.Error(), "reading its body failed after 8 bytes") {
		t.Fatalf("want a body read error, got %v", err)
	}
	if strings.Contains(err.Error(), "unexpected end of JSON input") {
		t.Fatal(err)
	}
}

func TestRetryAfterBeyondTheCapEndsTheWait(t *testing.T) {
	srv, _ := tokenServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "86400")
		w.WriteHeader(http.StatusTooManyRequests)
	})
	c := newTestClient(srv.URL, NewRecorder())
	start := time.Now()
	_, err := c.Get(context.Background(), "/cards", nil)
	var rl *RateLimitedError
	if !errors.As(err, &rl) || !strings.Contains(err.Error(), "Retry-After: 86400") || !strings.Contains(err.Error(), "--retry-after-max") || time.Since(start) > 5*time.Second {
		t.Fatalf("want an immediate RateLimitedError, got %v after %s", err, time.Since(start))
	}
}

func TestCutBody(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string
	}{
		{"short", "short"},
		{strings.Repeat("a", MaxShownBody), strings.Repeat("a", MaxShownBody)},
		{strings.Repeat("a", MaxShownBody+10), strings.Repeat("a", MaxShownBody) + "… [cut: 10 more bytes]"},
		{strings.Repeat("a", MaxShownBody-1) + "é", strings.Repeat("a", MaxShownBody-1) + "… [cut: 2 more bytes]"},
	} {
		if got := cutBody(tc.in); got != tc.want {
			t.Errorf("cutBody(%d bytes) = %q…", len(tc.in), got[max(0, len(got)-30):])
		}
	}
}

func TestBudget(t *testing.T) {
	b := &Budget{Limit: 10}
	if !b.Take(6) || b.Take(6) || !b.Take(4) || !b.Spent() {
		t.Fatal("budget should admit 6, refuse 6 more, admit 4 and say it was spent")
	}
	var unlimited *Budget
	if !unlimited.Take(1 << 30) {
		t.Fatal("a nil budget refuses nothing")
	}
}
