package config

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/merchant-harness/mph/sandbox"
)

// serveSandbox serves a fresh sandbox and counts requests carrying the admin key.
func serveSandbox(t *testing.T, adminHits *atomic.Int64) *httptest.Server {
	t.Helper()
	s, err := sandbox.New(sandbox.Options{})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-Sandbox-Admin-Key") != "" {
			adminHits.Add(1)
		}
		s.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// Controls on another origin are used only when they confirm the target's
// identity; the controls of another sandbox are refused at pre-flight.
func TestControlsOnAnotherOriginNeedIdentity(t *testing.T) {
	var admin atomic.Int64
	a := serveSandbox(t, &admin)
	b := serveSandbox(t, &admin)
	// The same server under another host name is another origin.
	aAlias := strings.Replace(a.URL, "127.0.0.1", "localhost", 1)
	notSandbox := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/v1/merchant/auth/token":
			w.Write([]byte(`{"status":"success","data":{"accessToken":"a.b.c","environment":"TEST"}}`))
		default:
			http.NotFound(w, r)
		}
	}))
	defer notSandbox.Close()
	redirector := httptest.NewServer(http.RedirectHandler(a.URL+"/_sandbox/capabilities", http.StatusTemporaryRedirect))
	defer redirector.Close()
	m := sandbox.DemoMerchants()[0]
	cases := []struct {
		name, base, controls string
		wantControls         bool
		refused              string // substring of the pre-flight refusal
	}{
		{"same origin, discovered", a.URL + "/v1/merchant", "", true, ""},
		{"same origin, explicit", a.URL + "/v1/merchant", a.URL + "/_sandbox", true, ""},
		{"other origin, same sandbox", a.URL + "/v1/merchant", aAlias + "/_sandbox", true, ""},
		{"other origin, other sandbox", a.URL + "/v1/merchant", b.URL + "/_sandbox", false, "another sandbox instance"},
		{"target without identity", notSandbox.URL + "/v1/merchant", b.URL + "/_sandbox", false, "carries no X-Sandbox-Instance"},
		// Named controls that cannot be used are a configuration error, never "unset".
		{"named controls redirecting", a.URL + "/v1/merchant", redirector.URL + "/_sandbox", false, "cannot be used: GET /capabilities: the target answered 307"},
		{"named controls that are no sandbox", a.URL + "/v1/merchant", notSandbox.URL + "/_sandbox", false, "cannot be used: GET /capabilities answered 404"},
		{"named controls unreachable", a.URL + "/v1/merchant", "http://127.0.0.1:1/_sandbox", false, "cannot be used: GET /capabilities: cannot reach"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			admin.Store(0)
			cfg := &Config{BaseURL: c.base, ControlsURL: c.controls, AdminKey: sandbox.DefaultAdminKey,
				Primary: Credentials{m.ID, m.TestKey}, Options: Options{Timeout: 5e9}}
			f, err := Preflight(context.Background(), cfg)
			var pe *PreflightError
			if c.refused != "" {
				if !errors.As(err, &pe) || !strings.Contains(pe.Msg, c.refused) || f.Controls {
					t.Fatalf("want a refusal %q, got %v (controls %v)", c.refused, err, f.Controls)
				}
			} else if err != nil || f.Controls != c.wantControls {
				t.Fatalf("err %v controls %v", err, f.Controls)
			}
			if n := admin.Load(); n != 0 {
				t.Fatalf("pre-flight sent the admin key %d times", n)
			}
		})
	}
}

func TestSameOrigin(t *testing.T) {
	cases := []struct {
		a, b string
		want bool
	}{
		{"http://h:80/v1/merchant", "http://H/_sandbox", true},
		{"https://h/v1", "https://h:443/_sandbox", true},
		{"http://h/v1", "https://h/_sandbox", false},
		{"http://h:8080/v1", "http://h:8081/_sandbox", false},
		{"http://h/v1", "http://h.evil/_sandbox", false},
		{"http://user:pw@h/v1", "http://h/_sandbox", true},
	}
	for _, c := range cases {
		if got := sameOrigin(c.a, c.b); got != c.want {
			t.Errorf("sameOrigin(%q, %q) = %v", c.a, c.b, got)
		}
	}
}

// A target that answers TEST at the token exchange for LIVE credentials
// does not make them TEST: pre-flight takes the most cautious signal, and
// states the disagreement.
func TestPreflightTakesTheMostCautiousEnvironment(t *testing.T) {
	var admin atomic.Int64
	sb := serveSandbox(t, &admin)
	lying := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := httptest.NewRecorder()
		req := r.Clone(r.Context())
		req.URL.Scheme, req.URL.Host, req.RequestURI = "http", strings.TrimPrefix(sb.URL, "http://"), ""
		resp, err := http.DefaultTransport.RoundTrip(req)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		_, _ = rec.Body.ReadFrom(resp.Body)
		body := rec.Body.String()
		if strings.HasSuffix(r.URL.Path, "/auth/token") {
			body = strings.Replace(body, `"environment":"LIVE"`, `"environment":"TEST"`, 1)
		}
		for k, v := range resp.Header {
			if k != "Content-Length" {
				w.Header()[k] = v
			}
		}
		w.WriteHeader(resp.StatusCode)
		_, _ = w.Write([]byte(body))
	}))
	defer lying.Close()
	m := sandbox.DemoMerchants()[0]
	for _, c := range []struct {
		name, key string
		live      bool
	}{
		{"honest TEST", m.TestKey, false},
		{"LIVE key, token says TEST", m.LiveKey, true},
	} {
		cfg := &Config{BaseURL: lying.URL + "/v1/merchant", Primary: Credentials{m.ID, c.key}, Options: Options{Timeout: 5e9}}
		f, err := Preflight(context.Background(), cfg)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if f.Live != c.live || c.live && !strings.Contains(f.EnvDisagreement, "GET /cards/config says LIVE") {
			t.Fatalf("%s: live %v (%s; disagreement %q), want %v", c.name, f.Live, f.LiveWhy, f.EnvDisagreement, c.live)
		}
	}
}
