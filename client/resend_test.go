package client

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// Which requests answered 429 are sent again: never one that could act
// twice unless the answer shows the refusal came first or a reference makes
// a second attempt a duplicate.
func TestResendAfter429(t *testing.T) {
	envelope := `{"status":"error","statusCode":429,"message":"rate limit exceeded","error":"Too Many Requests"}`
	for _, tc := range []struct {
		name    string
		method  string
		path    string
		body    any
		headers map[string]string
		body429 string
		resent  bool
		why     string
	}{
		{"GET", http.MethodGet, "/cards", nil, nil, "", true, ""},
		{"PUT (idempotent)", http.MethodPut, "/cards/c1/spend-limits", map[string]any{"dailyLimit": 5}, nil, "", true, ""},
		{"token exchange", http.MethodPost, TokenPath, map[string]any{"merchantId": "m"}, nil, "", true, ""},
		{"issuance carrying a reference", http.MethodPost, "/cards", map[string]any{"reference": "run-1-card", "amount": 2}, nil, "", true, ""},
		{"issuance under the profile's reference field", http.MethodPost, "/cards", map[string]any{"merchantRef": "run-1-card"}, nil, "", true, ""},
		{"withdrawal, 429 with Retry-After and the error envelope", http.MethodPost, "/cards/c1/withdraw", map[string]any{"amount": 1}, map[string]string{"Retry-After": "1"}, envelope, true, ""},
		{"status change, 429 with X-RateLimit headers", http.MethodPatch, "/cards/c1/status", map[string]any{"status": "FROZEN"}, map[string]string{"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "1"}, envelope, true, ""},
		{"withdrawal, bare 429", http.MethodPost, "/cards/c1/withdraw", map[string]any{"amount": 1}, nil, envelope, false, "no Retry-After or rate-limit header"},
		{"withdrawal, 429 carrying a resource", http.MethodPost, "/cards/c1/withdraw", map[string]any{"amount": 1}, map[string]string{"Retry-After": "1"}, `{"data":{"card":{"id":"c1"}}}`, false, "carries a data member"},
		{"purchase with an empty reference, bare 429", http.MethodPost, "/gift-cards/purchase", map[string]any{"reference": ""}, nil, "", false, "no Retry-After"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var calls atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if calls.Add(1) == 1 {
					for k, v := range tc.headers {
						w.Header().Set(k, v)
					}
					w.WriteHeader(http.StatusTooManyRequests)
					_, _ = w.Write([]byte(tc.body429))
					return
				}
				_, _ = w.Write([]byte(`{"status":"success","data":{}}`))
			}))
			defer srv.Close()
			clk := newFakeClock()
			c := New(Options{BaseURL: srv.URL, Gate: NewGate(GateOptions{Clock: clk, Deadline: clk.Now().Add(time.Hour)}),
				ReferenceFields: []string{"reference", "merchantRef"}})
			resp, err := c.Do(context.Background(), Request{Method: tc.method, Path: tc.path, Body: tc.body})
			if tc.resent {
				if err != nil || resp.Status != http.StatusOK || calls.Load() != 2 {
					t.Fatalf("want it resent and answered 200, got %v %v after %d calls", resp, err, calls.Load())
				}
				return
			}
			var rl *RateLimitedError
			if !errors.As(err, &rl) || calls.Load() != 1 || resp == nil || resp.Status != http.StatusTooManyRequests || !strings.Contains(err.Error(), tc.why) {
				t.Fatalf("want the 429 handed back unsent again (%q), got %v %v after %d calls", tc.why, resp, err, calls.Load())
			}
		})
	}
}

// A 409 after a resent 429 means the first attempt was kept: the answer is
// no verdict for a spec expecting success, an ordinary answer for one
// expecting the 409.
func TestConflictAfterResent429IsSurfaced(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) == 1 {
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		w.WriteHeader(http.StatusConflict)
		_, _ = w.Write([]byte(`{"status":"error","statusCode":409,"message":"duplicate reference","error":"Conflict"}`))
	}))
	defer srv.Close()
	clk := newFakeClock()
	rec := NewRecorder()
	c := New(Options{BaseURL: srv.URL, Gate: NewGate(GateOptions{Clock: clk, Deadline: clk.Now().Add(time.Hour)}), Recorder: func() *Recorder { return rec }})
	resp, err := c.Post(context.Background(), "/cards", map[string]any{"reference": "run-1-card"})
	if err != nil || resp.Status != http.StatusConflict || !resp.KeptAfter429 {
		t.Fatalf("want a 409 marked as kept after a resent 429, got %v %v", resp, err)
	}
	if why, ok := resp.NoVerdict(http.StatusOK, http.StatusCreated); !ok || !strings.Contains(why, "first attempt was most likely kept") {
		t.Errorf("a spec expecting success gets no verdict, got %q %v", why, ok)
	}
	if _, ok := resp.NoVerdict(http.StatusConflict); ok {
		t.Error("a spec expecting the 409 judges it")
	}
	if !strings.Contains(rec.Last().String(), "409 after a resent 429") {
		t.Errorf("the exchange does not say so:\n%s", rec.Last())
	}
	// Without a resent 429 a 409 is an ordinary answer.
	calls.Store(1)
	resp, _ = c.Post(context.Background(), "/cards", map[string]any{"reference": "run-1-card"})
	if resp.KeptAfter429 {
		t.Error("a 409 without a resent 429 is marked")
	}
}
