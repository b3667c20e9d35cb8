package tokens

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/merchant-harness/mph/authtoken"
)

// tokenServer issues tok-1, tok-2, ... with the given lifetime.
func tokenServer(t *testing.T, expiresIn float64) (*httptest.Server, *atomic.Int64) {
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/auth/token" || r.Method != http.MethodPost {
			http.NotFound(w, r)
			return
		}
		i := n.Add(1)
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"status":"success","data":{"accessToken":"tok-%d","tokenType":"Bearer","expiresIn":%g}}`, i, expiresIn)
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(3 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestRefreshAtFractionOfExpiry(t *testing.T) {
	srv, n := tokenServer(t, 0.25) // 250 ms lifetime: refresh at 200 ms
	s := New(HTTPFetcher(srv.Client(), srv.URL, "m", "k"), Options{Header: http.Header{"Content-Type": {"application/json"}}})
	if err := s.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if got := s.Header().Get("Authorization"); got != "Bearer tok-1" {
		t.Fatalf("first header %q", got)
	}
	if s.Header().Get("Content-Type") != "application/json" {
		t.Fatal("extra header missing")
	}
	start := time.Now()
	waitFor(t, "refresh", func() bool { return s.Header().Get("Authorization") == "Bearer tok-2" })
	if el := time.Since(start); el < 120*time.Millisecond || el > 400*time.Millisecond {
		t.Fatalf("refreshed after %v, want about 200ms (80%% of 250ms)", el)
	}
	if n.Load() < 2 || s.Fetches() < 2 {
		t.Fatalf("fetches %d", s.Fetches())
	}
}

func TestUnauthorizedMidRunRefreshesOnce(t *testing.T) {
	srv, n := tokenServer(t, 900)
	s := New(HTTPFetcher(srv.Client(), srv.URL, "m", "k"), Options{})
	if err := s.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	sentBefore := time.Now()
	// A burst of 401s for requests sent with tok-1: one refresh.
	for i := 0; i < 50; i++ {
		s.Unauthorized(sentBefore)
	}
	waitFor(t, "refresh after 401", func() bool { return s.Current().Value == "tok-2" })
	time.Sleep(50 * time.Millisecond)
	// Late 401s of requests sent before tok-2 was obtained must not refresh again.
	for i := 0; i < 50; i++ {
		s.Unauthorized(sentBefore)
	}
	time.Sleep(50 * time.Millisecond)
	if got := n.Load(); got != 2 {
		t.Fatalf("token exchanges = %d, want 2 (initial + one refresh)", got)
	}
	// A 401 for a request sent with tok-2 refreshes again.
	s.Unauthorized(time.Now())
	waitFor(t, "second refresh", func() bool { return s.Current().Value == "tok-3" })
}

func TestStartFailsOnBadCredentials(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusUnauthorized)
	}))
	defer srv.Close()
	s := New(HTTPFetcher(srv.Client(), srv.URL, "m", "bad"), Options{})
	err := s.Start(context.Background())
	if se, ok := err.(*authtoken.StatusError); !ok || se.Code != 401 {
		t.Fatalf("err = %v", err)
	}
}

func TestRetriesFailedRefresh(t *testing.T) {
	var calls atomic.Int64
	f := func(ctx context.Context) (Token, error) {
		c := calls.Add(1)
		if c == 2 || c == 3 {
			return Token{}, fmt.Errorf("transient")
		}
		return Token{Value: fmt.Sprintf("t%d", c), ExpiresIn: 100 * time.Millisecond}, nil
	}
	s := New(f, Options{})
	if err := s.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	waitFor(t, "recovery after failures", func() bool { return s.Current().Value == "t4" })
	if s.Failures() != 2 {
		t.Fatalf("failures %d", s.Failures())
	}
}
