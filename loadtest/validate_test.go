package loadtest

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/merchant-harness/mph/loadtest/pacer"
	"github.com/merchant-harness/mph/loadtest/threshold"
)

const (
	goodList  = `{"status":"success","data":[],"timestamp":"2026-03-15T12:00:00Z","path":"/v1/merchant/cards"}`
	goodError = `{"status":"error","statusCode":500,"message":"boom","error":"Internal Server Error","timestamp":"2026-03-15T12:00:00Z","path":"/v1/merchant/cards"}`
)

func answer(code uint16, ct, body string) *vegeta.Result {
	h := http.Header{}
	if ct != "" {
		h.Set("Content-Type", ct)
	}
	return &vegeta.Result{Code: code, Headers: h, Body: []byte(body)}
}

func TestValidatorVerdicts(t *testing.T) {
	cases := []struct {
		name, ep string
		r        *vegeta.Result
		invalid  string // substring of the reason; "" for valid
	}{
		{"valid list", EPList, answer(200, "application/json", goodList), ""},
		{"charset allowed", EPList, answer(200, "application/json; charset=utf-8", goodList), ""},
		{"upper case type", EPList, answer(200, "Application/JSON", goodList), ""},
		{"html 200", EPList, answer(200, "text/html", "<html>ok</html>"), "Content-Type"},
		{"no content type", EPList, answer(200, "", goodList), "no Content-Type"},
		{"json lookalike", EPList, answer(200, "application/jsonx", goodList), "Content-Type"},
		{"201 where 200 is stated", EPList, answer(201, "application/json", goodList), "status 201, want 200"},
		{"schema broken", EPList, answer(200, "application/json", `{"status":"success"}`), "schema card-list-response.json"},
		{"not json", EPList, answer(200, "application/json", `<html>`), "schema"},
		{"valid error envelope", EPList, answer(500, "application/json", goodError), ""},
		{"html 502", EPList, answer(502, "text/html", "<h1>Bad Gateway</h1>"), "Content-Type"},
		{"broken error envelope", EPList, answer(500, "application/json", `{"oops":true}`), "schema error.json"},
		{"a gateway's 429 is counted apart", EPList, answer(429, "text/html", "slow down"), ""},
		{"transport error is counted apart", EPList, &vegeta.Result{Code: 0, Error: "dial tcp: refused"}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := newValidator(100, "").check(c.ep, c.r).Invalid
			if (c.invalid == "") != (got == "") || !strings.Contains(got, c.invalid) {
				t.Fatalf("reason %q, want %q", got, c.invalid)
			}
			if strings.Contains(got, "<html") || strings.Contains(got, "boom") {
				t.Fatalf("reason quotes the body: %q", got)
			}
		})
	}
}

// RATE-02 on every 429: under rateLimits.envelope: optional (the default) a
// 429 that is JSON carrying statusCode must be a whole error envelope and
// any other is a gateway's; under required every 429 must carry it.
// Numbers are compared as numbers and the reason phrase without regard to
// case.
func TestValidatorJudgesEvery429(t *testing.T) {
	const env = `{"status":"error","statusCode":429,"message":"slow down","error":"Too Many Requests","timestamp":"2026-03-15T12:00:00Z","path":"/v1/merchant/cards"}`
	swap := func(from, to string) string { return strings.Replace(env, from, to, 1) }
	for _, c := range []struct {
		name, envelope, ct, body string
		invalid                  string // substring of the reason; "" for valid
		gateway                  bool
	}{
		{"whole envelope", "", "application/json", env, "", false},
		{"whole envelope, required", "required", "application/json", env, "", false},
		{"statusCode 429.0", "", "application/json", swap(`429,`, `429.0,`), "", false},
		{"reason phrase in another case", "", "application/json", swap("Too Many Requests", "too many  requests"), "", false},
		{"gateway text", "", "text/plain", "rate limited", "", true},
		{"gateway JSON", "", "application/json", `{"message":"Too Many Requests"}`, "", true},
		{"gateway empty body", "", "", "", "", true},
		{"envelope in text/html: a gateway's", "", "text/html", env, "", true},
		{"gateway text, required", "required", "text/plain", "rate limited", "429 breaks RATE-02: Content-Type", false},
		{"gateway JSON, required", "required", "application/json", `{"message":"Too Many Requests"}`, "429 breaks RATE-02: schema error.json", false},
		{"envelope with statusCode 500", "", "application/json", swap(`429,`, `500,`), "statusCode is not 429", false},
		{"envelope with statusCode as text", "", "application/json", swap(`429,`, `"429",`), "schema error.json", false},
		{"envelope with another phrase", "", "application/json", swap("Too Many Requests", "Slow Down"), "reason phrase", false},
		{"envelope without error", "", "application/json", swap(`"error":"Too Many Requests",`, ``), "schema error.json", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := newValidator(100, c.envelope).check(EPList, answer(429, c.ct, c.body))
			if (c.invalid == "") != (got.Invalid == "") || !strings.Contains(got.Invalid, c.invalid) || got.Gateway429 != c.gateway {
				t.Fatalf("check %+v, want reason %q gateway %v", got, c.invalid, c.gateway)
			}
		})
	}
}

// The schema of 2xx answers is sampled: the first, then one in `every`.
func TestValidatorSamplesSchema(t *testing.T) {
	v := newValidator(10, "")
	bad := answer(200, "application/json", `{"status":"success"}`)
	n := 0
	for i := 0; i < 100; i++ {
		if v.check(EPList, bad).Invalid != "" {
			n++
		}
	}
	if n != 10 {
		t.Fatalf("%d of 100 answers schema-checked, want 10", n)
	}
}

// A target answering 200 text/html is 0% success, every answer invalid, and
// the default gate breaches.
func TestHTML200IsNeverSuccess(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		_, _ = w.Write([]byte("<html><body>all good</body></html>"))
	}))
	defer srv.Close()
	tg := &Target{BaseURL: srv.URL + "/v1/merchant", Creds: []Credential{{MerchantID: "m", SecretKey: "sk_test_x"}}, Timeout: 5 * time.Second}
	scn, err := Prepare(context.Background(), tg, ScenarioOptions{Name: "token"})
	if err != nil {
		t.Fatal(err)
	}
	defer scn.Close(context.Background())
	sch, _ := pacer.Constant(100, time.Second)
	o, err := Run(context.Background(), RunSpec{Scenario: scn, Schedule: sch, Thresholds: threshold.WithDefaults(nil)})
	if err != nil {
		t.Fatal(err)
	}
	s, _ := o.Summary("all")
	if s.Requests != 100 || s.SuccessRatio != 0 || s.Invalid != 100 || s.StatusCodes["200"] != 100 {
		t.Fatalf("requests %d success %.2f invalid %d codes %v", s.Requests, s.SuccessRatio, s.Invalid, s.StatusCodes)
	}
	if !threshold.Breached(o.Thresholds) {
		t.Fatalf("default gate passed at 0%% success: %+v", o.Thresholds)
	}
}

// A run counts every 429 as a 429 and judges it: a gateway's under the
// default reading, invalid (RATE-02) when the profile requires the envelope
// on every 429.
func TestRunJudgesEvery429(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.WriteHeader(http.StatusTooManyRequests)
		_, _ = w.Write([]byte("rate limited"))
	}))
	defer srv.Close()
	for _, envelope := range []string{"", "required"} {
		tg := &Target{BaseURL: srv.URL + "/v1/merchant", Creds: []Credential{{MerchantID: "m", SecretKey: "sk_test_x"}}, Timeout: 5 * time.Second, Envelope429: envelope}
		scn, err := Prepare(context.Background(), tg, ScenarioOptions{Name: "token"})
		if err != nil {
			t.Fatal(err)
		}
		sch, _ := pacer.Constant(100, 500*time.Millisecond)
		o, err := Run(context.Background(), RunSpec{Scenario: scn, Schedule: sch})
		scn.Close(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		s, _ := o.Summary("all")
		want := map[string][2]uint64{"": {50, 0}, "required": {0, 50}}[envelope] // gateway, invalid
		if s.R429Count() != 50 || s.Rate429 != 1 || s.Gateway429 != want[0] || s.Invalid429 != want[1] || s.Invalid != want[1] {
			t.Fatalf("envelope %q: 429s %d (share %.2f), gateway %d, invalid %d (%d 429s), errors %v", envelope, s.R429Count(), s.Rate429, s.Gateway429, s.Invalid, s.Invalid429, s.Errors)
		}
		if note := Gateway429Note(o.Summaries); (note != "") != (envelope == "") {
			t.Fatalf("envelope %q: note %q", envelope, note)
		}
	}
}
