package tokens

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/merchant-harness/mph/httpclient"
)

// limitedTokenServer answers the first n429 exchanges with 429 and retryAfter.
func limitedTokenServer(t *testing.T, n429 int64, retryAfter string) (*httptest.Server, *atomic.Int64) {
	var calls atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) <= n429 {
			w.Header().Set("Retry-After", retryAfter)
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		fmt.Fprint(w, `{"data":{"accessToken":"tok","expiresIn":900}}`)
	}))
	t.Cleanup(srv.Close)
	return srv, &calls
}

func TestStartRetries429(t *testing.T) {
	for _, tc := range []struct {
		name       string
		n429       int64
		retryAfter string
		max        time.Duration
		ok         bool
		calls      int64
	}{
		{"two 429s with Retry-After 1", 2, "1", 0, true, 3},
		{"429s without Retry-After", 3, "", 0, true, 4},
		{"Retry-After 86400 beyond the default cap", 1, "86400", 0, false, 1},
		{"Retry-After 5 beyond a 2s cap", 1, "5", 2 * time.Second, false, 1},
		{"429 for ever: attempts bounded", 1 << 30, "0", 0, false, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv, calls := limitedTokenServer(t, tc.n429, tc.retryAfter)
			s := New(HTTPFetcher(httpclient.New(httpclient.Options{}), srv.URL, "m", "k"), Options{RetryAfterMax: tc.max, StartAttempts: 4})
			start := time.Now()
			err := s.Start(context.Background())
			defer s.Close()
			if (err == nil) != tc.ok || calls.Load() != tc.calls {
				t.Fatalf("err %v after %d calls, want ok=%v after %d", err, calls.Load(), tc.ok, tc.calls)
			}
			if time.Since(start) > 10*time.Second {
				t.Fatalf("took %s", time.Since(start))
			}
			var re *httpclient.RetryAfterError
			if strings.Contains(tc.name, "beyond") && (!errors.As(err, &re) || !strings.Contains(err.Error(), "Retry-After: "+tc.retryAfter)) {
				t.Fatalf("want the cap named: %v", err)
			}
		})
	}
}
