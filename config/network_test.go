package config

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/spf13/pflag"
)

func TestNetworkSettingsMerge(t *testing.T) {
	for _, tc := range []struct {
		name   string
		env    map[string]string
		args   []string
		follow bool
		body   int64
		raMax  time.Duration
		bad    bool
	}{
		{"defaults", nil, nil, false, 0, 0, false},
		{"environment", map[string]string{EnvFollowRedirects: "1", EnvMaxBody: "64KiB", EnvRetryAfterMax: "5s"}, nil, true, 64 << 10, 5 * time.Second, false},
		{"flags win", map[string]string{EnvMaxBody: "64KiB", EnvRetryAfterMax: "5s"}, []string{"--max-body", "2MiB", "--retry-after-max", "1m", "--follow-redirects"}, true, 2 << 20, time.Minute, false},
		{"bytes", nil, []string{"--max-body", "1000"}, false, 1000, 0, false},
		{"bad size", map[string]string{EnvMaxBody: "lots"}, nil, false, 0, 0, true},
		{"bad wait", map[string]string{EnvRetryAfterMax: "-3s"}, nil, false, 0, 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, k := range []string{EnvFollowRedirects, EnvMaxBody, EnvRetryAfterMax} {
				t.Setenv(k, tc.env[k])
			}
			fs := pflag.NewFlagSet("x", pflag.ContinueOnError)
			fl := Bind(fs, CmdLoad)
			if err := fs.Parse(tc.args); err != nil {
				t.Fatal(err)
			}
			s, err := fl.Settings()
			if tc.bad {
				var ue *UsageError
				if !errors.As(err, &ue) {
					t.Fatalf("want a usage error, got %v", err)
				}
				return
			}
			if err != nil || s.FollowRedirects != tc.follow || s.MaxBody != tc.body || s.RetryAfterMax != tc.raMax {
				t.Fatalf("got %+v, %v", s.Network, err)
			}
		})
	}
}

func TestByteSize(t *testing.T) {
	for in, want := range map[string]int64{"1": 1, "64KiB": 64 << 10, "64kib": 64 << 10, "1MiB": 1 << 20, "1 MB": 1 << 20, "2G": 2 << 30, "10B": 10} {
		var b ByteSize
		if err := b.Set(in); err != nil || int64(b) != want {
			t.Errorf("%q: got %d, %v", in, b, err)
		}
	}
	for _, in := range []string{"", "0", "-1", "KiB", "1.5MiB", "99999999TiB"} {
		var b ByteSize
		if err := b.Set(in); err == nil {
			t.Errorf("%q should be refused, got %d", in, b)
		}
	}
}

// TestPreflightNamesARedirect: the token exchange answered with a redirect
// to another host name and port is named, and nothing is sent there.
func TestPreflightNamesARedirect(t *testing.T) {
	var leaked atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { leaked.Add(1) }))
	defer other.Close()
	loc := strings.Replace(other.URL, "127.0.0.1", "localhost", 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Location", loc+r.URL.Path)
		w.WriteHeader(http.StatusPermanentRedirect)
	}))
	defer srv.Close()
	for _, follow := range []bool{false, true} {
		cfg := &Config{BaseURL: srv.URL + "/v1/merchant", Primary: Credentials{"mer", "sk_test_x"}, Options: Options{Timeout: 5 * time.Second}}
		cfg.FollowRedirects = follow
		_, err := Preflight(context.Background(), cfg)
		var pe *PreflightError
		want := "the target answered 308 to " + loc + "/v1/merchant/auth/token"
		if !errors.As(err, &pe) || !strings.Contains(pe.Msg, want) || !strings.Contains(pe.Msg, "should the base URL be "+loc+"/v1/merchant?") {
			t.Fatalf("follow=%v: want %q, got %v", follow, want, err)
		}
	}
	if leaked.Load() > 0 {
		t.Fatalf("the other origin received %d requests", leaked.Load())
	}
}

// TestPreflightRetries429WithinTheCap: pre-flight waits out a short
// Retry-After and refuses a day-long one at once, naming it.
func TestPreflightRetries429WithinTheCap(t *testing.T) {
	for _, tc := range []struct {
		retryAfter string
		n429       int32
		want       string // "" = pre-flight passes
	}{
		{"1", 1, ""},
		{"86400", 1, "longer than the 30s the harness waits"},
		{"0", 5, "answered 429: the target is not ready"},
	} {
		var calls atomic.Int32
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if calls.Add(1) <= tc.n429 {
				w.Header().Set("Retry-After", tc.retryAfter)
				w.WriteHeader(http.StatusTooManyRequests)
				return
			}
			_, _ = w.Write([]byte(`{"data":{"accessToken":"t","environment":"TEST"}}`))
		}))
		cfg := &Config{BaseURL: srv.URL + "/v1/merchant", Primary: Credentials{"mer", "sk_test_x"}, Options: Options{Timeout: 5 * time.Second}}
		start := time.Now()
		_, err := Preflight(context.Background(), cfg)
		srv.Close()
		switch {
		case tc.want == "" && err != nil, tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Fatalf("Retry-After %s ×%d: want %q, got %v", tc.retryAfter, tc.n429, tc.want, err)
		case time.Since(start) > 10*time.Second:
			t.Fatalf("Retry-After %s: took %s", tc.retryAfter, time.Since(start))
		}
	}
}
