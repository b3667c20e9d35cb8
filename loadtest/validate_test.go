package loadtest

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/merchant-harness/mph/loadtest/pacer"
	"github.com/merchant-harness/mph/loadtest/threshold"
	vegeta "github.com/tsenart/vegeta/v12/lib"
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
		{"429 is counted apart", EPList, answer(429, "text/html", "slow down"), ""},
		{"transport error is counted apart", EPList, &vegeta.Result{Code: 0, Error: "dial tcp: refused"}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := newValidator(100).check(c.ep, c.r)
			if (c.invalid == "") != (got == "") || !strings.Contains(got, c.invalid) {
				t.Fatalf("reason %q, want %q", got, c.invalid)
			}
			if strings.Contains(got, "<html") || strings.Contains(got, "boom") {
				t.Fatalf("reason quotes the body: %q", got)
			}
		})
	}
}

// The schema of 2xx answers is sampled: the first, then one in `every`.
func TestValidatorSamplesSchema(t *testing.T) {
	v := newValidator(10)
	bad := answer(200, "application/json", `{"status":"success"}`)
	n := 0
	for i := 0; i < 100; i++ {
		if v.check(EPList, bad) != "" {
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
