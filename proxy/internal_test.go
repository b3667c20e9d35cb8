package proxy

import (
	"testing"
	"time"
)

func TestRouterPrefersLiteralSegments(t *testing.T) {
	r := router{Endpoints(nil)}
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
		ep, ok := r.match(tc.method, tc.path)
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
		{"a\x1b[2Jb", `a\u001b[2Jb`},
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
		{"0.5", 500 * time.Millisecond, true},
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
