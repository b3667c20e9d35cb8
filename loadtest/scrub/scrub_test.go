package scrub

import (
	"net/http"
	"strings"
	"testing"

	vegeta "github.com/tsenart/vegeta/v12/lib"
)

func TestResult(t *testing.T) {
	jwt := "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJtZXJfZGVtbyJ9.c2lnbmF0dXJl"
	cases := []struct {
		name     string
		in       vegeta.Result
		leaks    []string
		keeps    []string
		bodyNil  bool
		headerOK []string
	}{
		{
			name: "secure reveal 200: no body, card id masked",
			in: vegeta.Result{Code: 200, URL: "http://h/v1/merchant/cards/crd_0123456789abcdef/secure",
				Body:    []byte(`{"data":{"cardNumber":"4242 4242 4242 4242","cvv":"987"}}`),
				Headers: http.Header{"Set-Cookie": {"s=1"}, "X-Ratelimit-Remaining": {"5"}}},
			leaks: []string{"4242 4242 4242 4242", "987", "crd_0123456789abcdef", "s=1"}, keeps: []string{"crd_0123…cdef"},
			bodyNil: true, headerOK: []string{"X-Ratelimit-Remaining"},
		},
		{
			name:  "secure reveal error body dropped too",
			in:    vegeta.Result{Code: 400, URL: "http://h/v1/merchant/cards/crd_0123456789abcdef/secure", Body: []byte(`{"message":"frozen"}`)},
			leaks: []string{"crd_0123456789abcdef"}, bodyNil: true,
		},
		{
			name:  "token 200: token body dropped",
			in:    vegeta.Result{Code: 200, URL: "http://h/v1/merchant/auth/token", Body: []byte(`{"data":{"accessToken":"` + jwt + `"}}`)},
			leaks: []string{jwt}, bodyNil: true,
		},
		{
			name: "429 envelope kept, redacted, headers kept",
			in: vegeta.Result{Code: 429, URL: "http://h/v1/merchant/cards?limit=20",
				Body:    []byte(`{"status":"error","statusCode":429,"message":"Rate limit exceeded for read: retry after 1 s","token":"` + jwt + `"}`),
				Headers: http.Header{"Retry-After": {"1"}, "X-Ratelimit-Limit": {"500"}, "Date": {"x"}}},
			leaks: []string{jwt}, keeps: []string{"Rate limit exceeded"}, headerOK: []string{"Retry-After", "X-Ratelimit-Limit"},
		},
		{
			name:  "transport error text masked",
			in:    vegeta.Result{Code: 0, URL: "http://h/v1/merchant/cards/crd_0123456789abcdef/secure", Error: `Get "http://h/v1/merchant/cards/crd_0123456789abcdef/secure": Bearer ` + jwt + ` timeout`},
			leaks: []string{"crd_0123456789abcdef", jwt}, bodyNil: true,
		},
	}
	// Result, a Memo's first scrub of a result and its remembered one must
	// all scrub alike.
	warm := NewMemo()
	scrubbers := map[string]func(*vegeta.Result){
		"Result": Result,
		"Memo":   func(r *vegeta.Result) { NewMemo().Result(r) },
		"Memo remembered": func(r *vegeta.Result) {
			again := *r
			again.Headers = r.Headers.Clone()
			warm.Result(&again)
			warm.Result(r)
		},
	}
	for _, c := range cases {
		for sname, scrub := range scrubbers {
			t.Run(c.name+"/"+sname, func(t *testing.T) {
				r := c.in
				r.Headers = c.in.Headers.Clone()
				scrub(&r)
				all := r.URL + "|" + r.Error + "|" + string(r.Body)
				for k, v := range r.Headers {
					all += "|" + k + ":" + strings.Join(v, ",")
				}
				for _, l := range c.leaks {
					if strings.Contains(all, l) {
						t.Errorf("leaked %q in %s", l, all)
					}
				}
				for _, k := range c.keeps {
					if !strings.Contains(all, k) {
						t.Errorf("lost %q in %s", k, all)
					}
				}
				if c.bodyNil && r.Body != nil {
					t.Errorf("body kept: %s", r.Body)
				}
				for _, h := range c.headerOK {
					if r.Headers.Get(h) == "" {
						t.Errorf("header %s dropped", h)
					}
				}
				if _, ok := r.Headers["Set-Cookie"]; ok {
					t.Error("Set-Cookie kept")
				}
			})
		}
	}
}

func TestURLLeavesFixedPaths(t *testing.T) {
	for _, u := range []string{"http://h/v1/merchant/cards/customers", "http://h/v1/merchant/cards/config", "http://h/v1/merchant/cards?limit=5"} {
		if got := URL(u); got != u {
			t.Errorf("URL(%q) = %q", u, got)
		}
	}
	if got := URL(URL("http://h/v1/merchant/cards/crd_0123456789abcdef/secure")); strings.Count(got, "…") != 1 {
		t.Errorf("not idempotent: %q", got)
	}
}
