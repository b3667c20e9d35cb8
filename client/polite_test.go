package client

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

func TestPoliteCapsTheRateAndCounts429(t *testing.T) {
	status := http.StatusOK
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(status) }))
	defer srv.Close()
	before := Stats()
	hc := Polite(srv.Client(), NewLimiter(50))
	c := New(Options{BaseURL: srv.URL, HTTP: hc}).Raw()
	start := time.Now()
	for i := 0; i < 11; i++ {
		if _, err := c.Get(context.Background(), "/", nil); err != nil {
			t.Fatal(err)
		}
	}
	// 11 requests at 50/s: the last one may leave 200 ms after the first.
	if el := time.Since(start); el < 190*time.Millisecond {
		t.Errorf("11 requests at 50 req/s took %s, want at least 200 ms", el)
	}
	if w := Stats().LimiterWait - before.LimiterWait; w < 150*time.Millisecond {
		t.Errorf("limiter wait %s not counted", w)
	}
	status = http.StatusTooManyRequests
	for i := 0; i < 3; i++ {
		if _, err := c.Get(context.Background(), "/", nil); err != nil {
			t.Fatal(err)
		}
	}
	if n := Stats().TooManyRequests - before.TooManyRequests; n != 3 {
		t.Errorf("429s counted %d, want 3", n)
	}
	if NewLimiter(0) != nil {
		t.Error("a zero rate must mean no limiter")
	}
}
