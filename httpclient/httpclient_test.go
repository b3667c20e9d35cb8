package httpclient

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"
)

// sink records every request it receives with its credentials.
type sink struct {
	mu   sync.Mutex
	hits []string
}

func (s *sink) handler() http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		s.mu.Lock()
		s.hits = append(s.hits, r.Method+" "+r.URL.Path+" auth="+r.Header.Get("Authorization")+" admin="+r.Header.Get("X-Sandbox-Admin-Key")+" body="+string(b))
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

func credRequest(t *testing.T, u string) *http.Request {
	req, err := http.NewRequest(http.MethodPost, u+"/v1/merchant/auth/token", bytes.NewReader([]byte(`{"secretKey":"sk_test_SECRET"}`)))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer TOKEN")
	req.Header.Set("X-Sandbox-Admin-Key", "ADMIN")
	return req
}

func TestRedirectsCarryNoCredential(t *testing.T) {
	leak := &sink{}
	other := httptest.NewServer(leak.handler())
	defer other.Close()
	for _, tc := range []struct {
		name   string
		follow bool
		code   int
	}{
		{"refused 307", false, http.StatusTemporaryRedirect},
		{"refused 308", false, http.StatusPermanentRedirect},
		{"refused 302", false, http.StatusFound},
		{"follow mode, cross-origin 307", true, http.StatusTemporaryRedirect},
		{"follow mode, cross-origin 301", true, http.StatusMovedPermanently},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := redirector(t, tc.code, otherHost(other.URL))
			_, err := New(Options{FollowRedirects: tc.follow}).Do(credRequest(t, src.URL))
			var re *RedirectError
			if !errors.As(err, &re) {
				t.Fatalf("want a RedirectError, got %v", err)
			}
			msg := re.Error()
			if !strings.Contains(msg, fmt.Sprintf("answered %d to", tc.code)) || !strings.Contains(msg, otherHost(other.URL)) || re.Status != tc.code {
				t.Fatalf("message should name the status %d and the location: %s", tc.code, msg)
			}
			if !strings.Contains(msg, "should the base URL be "+otherHost(other.URL)+"/v1/merchant?") {
				t.Fatalf("message should suggest the base URL: %s", msg)
			}
		})
	}
	if hits := leak.all(); len(hits) > 0 {
		t.Fatalf("the other origin received %d requests: %v", len(hits), hits)
	}
}

func TestFollowSameOriginOnly(t *testing.T) {
	rec := &sink{}
	mux := http.NewServeMux()
	mux.HandleFunc("/old/v1/merchant/auth/token", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Location", "/v1/merchant/auth/token")
		w.WriteHeader(http.StatusTemporaryRedirect)
	})
	mux.HandleFunc("/", rec.handler())
	srv := httptest.NewServer(mux)
	defer srv.Close()

	req := credRequest(t, srv.URL+"/old")
	if _, err := New(Options{}).Do(req); !IsRedirect(err) {
		t.Fatalf("default must refuse a same-origin redirect too, got %v", err)
	}
	resp, err := New(Options{FollowRedirects: true}).Do(credRequest(t, srv.URL+"/old"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	hits := rec.all()
	if len(hits) != 1 || !strings.Contains(hits[0], "auth=Bearer TOKEN") || !strings.Contains(hits[0], "sk_test_SECRET") {
		t.Fatalf("same-origin 307 should be followed with its body and credentials: %v", hits)
	}
}

func TestSuggestedBase(t *testing.T) {
	for _, tc := range []struct{ from, to, want string }{
		{"http://a/v1/merchant/auth/token", "https://b:8443/v1/merchant/auth/token", "https://b:8443/v1/merchant"},
		{"http://a/v1/merchant/auth/token", "http://a/api/v1/merchant/auth/token?x=1", "http://a/api/v1/merchant"},
		{"http://a/v1/merchant/cards", "http://u:pw@b/login", "http://b/login"},
	} {
		f, _ := url.Parse(tc.from)
		to, _ := url.Parse(tc.to)
		e := &RedirectError{Status: 307, From: f, To: stripUser(to)}
		if got := e.SuggestedBase(); got != tc.want {
			t.Errorf("%s -> %s: got %s, want %s", tc.from, tc.to, got, tc.want)
		}
		if strings.Contains(e.Error(), "pw") {
			t.Errorf("userinfo in message: %s", e.Error())
		}
	}
}

func TestSameOrigin(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"http://127.0.0.1:80/x", "http://127.0.0.1/y", true},
		{"https://H.example/x", "https://h.example:443/", true},
		{"http://127.0.0.1:8080", "http://localhost:8080", false},
		{"http://127.0.0.1:8080", "http://127.0.0.1:8081", false},
		{"http://h", "https://h", false},
	} {
		a, _ := url.Parse(tc.a)
		b, _ := url.Parse(tc.b)
		if got := SameOrigin(a, b); got != tc.want {
			t.Errorf("SameOrigin(%s, %s) = %v", tc.a, tc.b, got)
		}
	}
}

func TestReadBody(t *testing.T) {
	for _, tc := range []struct {
		size, max int
		tooLarge  bool
	}{{0, 10, false}, {10, 10, false}, {11, 10, true}, {1 << 20, 100, true}} {
		b, err := ReadBody(bytes.NewReader(make([]byte, tc.size)), int64(tc.max))
		if tc.tooLarge != errors.Is(err, ErrBodyTooLarge) {
			t.Fatalf("size %d max %d: err %v", tc.size, tc.max, err)
		}
		if tc.tooLarge && (len(b) != tc.max || err.Error() != "body larger than 10 bytes" && tc.max == 10) {
			t.Fatalf("size %d max %d: got %d bytes, %v", tc.size, tc.max, len(b), err)
		}
		if !tc.tooLarge && len(b) != tc.size {
			t.Fatalf("size %d: got %d bytes", tc.size, len(b))
		}
	}
}

func TestLimitBodyThroughTransport(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := 1000
		if r.URL.Path == "/small" {
			n = 100
		}
		_, _ = w.Write(make([]byte, n))
	}))
	defer srv.Close()
	c := New(Options{MaxBody: 100})
	for path, want := range map[string]bool{"/small": false, "/big": true} {
		resp, err := c.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if errors.Is(err, ErrBodyTooLarge) != want || len(b) > 100 {
			t.Fatalf("%s: %d bytes, err %v", path, len(b), err)
		}
	}
}

func TestRetryAfter(t *testing.T) {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		v        string
		max      time.Duration
		want     time.Duration
		ok, over bool
	}{
		{"", 0, 0, false, false},
		{"abc", 0, 0, false, false},
		{"-1", 0, 0, false, false},
		{"0", 0, 0, true, false},
		{"2", 0, 2 * time.Second, true, false},
		{"30", 0, 30 * time.Second, true, false},
		{"31", 0, 0, true, true},
		{"86400", 0, 0, true, true},
		{"99999999999999999", 0, 0, true, true},
		{"86400", 48 * time.Hour, 24 * time.Hour, true, false},
		{now.Add(10 * time.Second).Format(http.TimeFormat), 0, 10 * time.Second, true, false},
		{now.Add(-time.Hour).Format(http.TimeFormat), 0, 0, true, false},
		{now.Add(time.Hour).Format(http.TimeFormat), 0, 0, true, true},
	} {
		d, ok, err := RetryAfter(tc.v, now, tc.max)
		var re *RetryAfterError
		if ok != tc.ok || errors.As(err, &re) != tc.over || (!tc.over && d != tc.want) {
			t.Errorf("%q (max %s): got %s %v %v", tc.v, tc.max, d, ok, err)
		}
		if tc.over && !strings.Contains(err.Error(), "longer than the 30s") && tc.max == 0 {
			t.Errorf("%q: message should state the cap: %v", tc.v, err)
		}
	}
}

func TestTimeoutBoundsASlowBody(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(200)
		w.(http.Flusher).Flush()
		select {
		case <-r.Context().Done():
		case <-time.After(10 * time.Second):
		}
	})}
	go func() { _ = srv.Serve(ln) }()
	defer srv.Close()
	start := time.Now()
	resp, err := New(Options{Timeout: 300 * time.Millisecond}).Get("http://" + ln.Addr().String())
	if err == nil {
		_, err = io.ReadAll(resp.Body)
		resp.Body.Close()
	}
	if err == nil || time.Since(start) > 5*time.Second {
		t.Fatalf("a stalled body must end with the timeout: %v after %s", err, time.Since(start))
	}
}
