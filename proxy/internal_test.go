package proxy

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/merchant-harness/mph/api"
	"github.com/merchant-harness/mph/requirements"
)

func TestRouterPrefersLiteralSegments(t *testing.T) {
	r := api.NewRouter(api.Endpoints(nil))
	cases := []struct{ method, path, want string }{
		{"GET", "/cards/config", "GET /cards/config"},
		{"GET", "/cards/customers", "GET /cards/customers"},
		{"POST", "/cards/customers", "POST /cards/customers"},
		{"GET", "/cards/crd_1", "GET /cards/{id}"},
		{"GET", "/cards/crd_1/secure", "GET /cards/{id}/secure"},
		{"POST", "/cards", "POST /cards"},
		{"GET", "/cards", "GET /cards"},
		{"GET", "/gift-cards/verify/ref-1", "GET /gift-cards/verify/{reference}"},
		{"DELETE", "/cards/crd_1", ""},
		{"GET", "/cards/crd_1/unknown", ""},
		{"GET", "/cards//secure", ""},
	}
	for _, tc := range cases {
		ep, ok := r.Match(tc.method, tc.path)
		got := ""
		if ok {
			got = ep.Key()
		}
		if got != tc.want {
			t.Errorf("%s %s: got %q, want %q", tc.method, tc.path, got, tc.want)
		}
	}
}

func TestSafeEscapesAndRedacts(t *testing.T) {
	cases := []struct{ in, want string }{
		{"plain", "plain"},
		{"a\x1b[2Jb", `a\x1b[2Jb`},
		{"two\nlines", `two\nlines`},
		{"rtl\u202eevil", `rtl\u202eevil`},
		{"bad \xff byte", `bad \xff byte`},
		{"key sk_test_alpha_7f3a9c2e51d84b06 here", "key sk_test_*** here"},
	}
	for _, tc := range cases {
		if got := safe(tc.in); got != tc.want {
			t.Errorf("safe(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestRetryAfter(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	cases := []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"2", 2 * time.Second, true},
		{"0.5", 0, false}, // delay-seconds is an integer (RFC 9110)
		{"172800", 48 * time.Hour, true},
		{"Thu, 01 Jan 2026 00:00:03 GMT", 3 * time.Second, true},
		{"", 0, false},
		{"soon", 0, false},
		{"-1", 0, false},
	}
	for _, tc := range cases {
		got, ok := retryAfter(tc.in, now)
		if got != tc.want || ok != tc.ok {
			t.Errorf("retryAfter(%q) = %v %v, want %v %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

func TestEchoCandidates(t *testing.T) {
	got := echoCandidates("/v1/merchant/cards/a%20b?x=1")
	want := map[string]bool{"/v1/merchant/cards/a%20b?x=1": true, "/v1/merchant/cards/a b?x=1": true, "/v1/merchant/cards/a%20b": true, "/v1/merchant/cards/a b": true}
	if len(got) != len(want) {
		t.Fatalf("got %q", got)
	}
	for _, g := range got {
		if !want[g] {
			t.Errorf("unexpected candidate %q", g)
		}
	}
}

// FuzzCheckerNeverPanics: whatever the target answers (and the client
// sends), the rules neither panic nor report a violation without a rule ID.
func FuzzCheckerNeverPanics(f *testing.F) {
	f.Add(200, "POST", "/v1/merchant/auth/token", []byte(`{"merchantId":"m","secretKey":"sk_test_x"}`), []byte(`{"status":"success","data":{"accessToken":"a.b.c","expiresIn":"x"},"timestamp":"2026-01-01T00:00:00Z","path":"/v1/merchant/auth/token"}`))
	f.Add(404, "GET", "/v1/merchant/gift-cards/verify/x", []byte(nil), []byte(`{"statusCode":"404","path":7}`))
	f.Add(429, "GET", "/v1/merchant/cards/config", []byte(nil), []byte(`[1,2,{"data":null}]`))
	f.Add(200, "PUT", "/v1/merchant/cards/c/spend-limits", []byte(`{"dailyLimit":1e-300,"reference":{}}`), []byte("\xff\x00"))
	f.Fuzz(func(t *testing.T, status int, method, path string, reqBody, respBody []byte) {
		p, err := New(Options{Upstream: "http://127.0.0.1:1/v1/merchant"})
		if err != nil {
			t.Fatal(err)
		}
		defer p.Close(t.Context())
		hdr := map[string][]string{"Content-Type": {"application/json"}, "Retry-After": {"1"}, "Authorization": {"Bearer a.b.c"}}
		for i := 0; i < 2; i++ {
			ex := &exchange{seq: int64(i), start: time.Unix(0, 0), end: time.Unix(1, 0), method: method, path: path,
				reqHeader: hdr, req: &capture{buf: reqBody, cap: 1 << 20, n: int64(len(reqBody)), eof: true},
				status: status, respHeader: hdr, resp: &capture{buf: respBody, cap: 1 << 20, n: int64(len(respBody)), eof: true}}
			p.chk.check(ex)
		}
		for _, v := range p.tally.Snapshot().Violations {
			if v.Rule == "" || v.Endpoint == "" {
				t.Fatalf("violation without rule or endpoint: %+v", v)
			}
		}
	})
}

// TestCitedRequirementsExist: every requirement ID the rules cite is in the
// catalogue (a typo would make a rule cite nothing).
func TestCitedRequirementsExist(t *testing.T) {
	files, _ := filepath.Glob("*.go")
	idRe := regexp.MustCompile(`"([A-Z]+-[0-9]{2})"`)
	n := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range idRe.FindAllStringSubmatch(string(src), -1) {
			n++
			if _, ok := requirements.Lookup(m[1]); !ok {
				t.Errorf("%s cites %s, which is not in requirements/catalog.yaml", f, m[1])
			}
		}
	}
	if n < 30 {
		t.Fatalf("only %d citations found", n)
	}
}
