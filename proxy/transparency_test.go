package proxy_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"encoding/xml"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/merchant-harness/mph/proxy"
	"github.com/merchant-harness/mph/proxy/session"
	"github.com/merchant-harness/mph/report/proxyreport"
	"github.com/merchant-harness/mph/sandbox"
)

// TestTrafficPassesUnchanged: status, headers and body bytes both ways are
// those of the origin, including a body beyond the inspection cap.
func TestTrafficPassesUnchanged(t *testing.T) {
	big := bytes.Repeat([]byte("x"), 3000)
	var gotBody []byte
	var gotHeader http.Header
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotBody, _ = io.ReadAll(r.Body)
		gotHeader = r.Header.Clone()
		w.Header().Set("X-Custom", "kept")
		w.Header().Set("Content-Type", "application/octet-stream")
		w.WriteHeader(418)
		w.Write(append([]byte{0, 1, 2, 0xff}, big...))
	}))
	defer up.Close()
	px, err := proxy.New(proxy.Options{Upstream: up.URL + "/v1/merchant", BodyCap: 1024})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(px)
	defer srv.Close()

	sent := append([]byte(`{"amount":1}`), big...)
	req, _ := http.NewRequest("POST", srv.URL+"/v1/merchant/cards/crd_1/withdraw?a=b", bytes.NewReader(sent))
	req.Header.Set("X-Request-Thing", "as-is")
	req.Header.Set("X-Forwarded-For", "203.0.113.7")
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 418 || resp.Header.Get("X-Custom") != "kept" || !bytes.Equal(body, append([]byte{0, 1, 2, 0xff}, big...)) {
		t.Fatalf("answer changed: %d %v %d bytes", resp.StatusCode, resp.Header, len(body))
	}
	if !bytes.Equal(gotBody, sent) || gotHeader.Get("X-Request-Thing") != "as-is" {
		t.Fatalf("request changed: %d bytes, header %v", len(gotBody), gotHeader)
	}
	if gotHeader.Get("X-Forwarded-For") != "203.0.113.7" || gotHeader.Get("X-Forwarded-Proto") != "" {
		t.Errorf("X-Forwarded-* changed: %v", gotHeader)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	px.Close(ctx)
	s := px.Tally().Snapshot()
	if s.OverCap != 1 || s.Exchanges != 1 {
		t.Fatalf("over-cap body not counted: %+v", s)
	}
}

// TestRedirectsAreNotFollowed: a 3xx goes back to the client; the proxy
// never carries the caller's credentials to another origin.
func TestRedirectsAreNotFollowed(t *testing.T) {
	var hits atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	defer other.Close()
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+"/steal", http.StatusFound)
	}))
	defer up.Close()
	px, err := proxy.New(proxy.Options{Upstream: up.URL + "/v1/merchant"})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(px)
	defer srv.Close()
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	req, _ := http.NewRequest("GET", srv.URL+"/v1/merchant/cards/config", nil)
	req.Header.Set("Authorization", "Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln")
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusFound || hits.Load() != 0 {
		t.Fatalf("status %d, other origin hit %d times", resp.StatusCode, hits.Load())
	}
	px.Close(context.Background())
	if got := countBy(px.Tally().Snapshot(), session.Server); got["ERR-21"] == 0 {
		t.Errorf("a 302 is not a status of the Errors table: want ERR-21, got %v", got)
	}
}

var leakRes = []*regexp.Regexp{
	regexp.MustCompile(regexp.QuoteMeta(demoKey)),
	regexp.MustCompile(`eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.`),
	regexp.MustCompile(`\b[0-9]{4} [0-9]{4} [0-9]{4} [0-9]{4}\b`),
	regexp.MustCompile(`"cvv":"[0-9]`),
	regexp.MustCompile(`"pin":"[0-9A-Za-z]`),
	regexp.MustCompile(`"code":"[0-9A-Z]{4}`),
}

// TestReportsAndHARCarryNoSecrets: the four reports and the HAR are well
// formed, and no secret of a session (including a misbehaving client's)
// appears in them or in the live log.
func TestReportsAndHARCarryNoSecrets(t *testing.T) {
	var har bytes.Buffer
	r := newRig(t, sandbox.Options{}, proxy.Options{HAR: &har})
	everyEndpoint(r, "leak")
	r.do(call{method: "GET", path: "/cards/config?key=" + demoKey, header: map[string]string{"Authorization": "Bearer " + demoKey}})
	r.finish()
	rep := r.px.NewReport("127.0.0.1:0", "any", time.Now(), time.Now(), true)
	dir := t.TempDir()
	paths, err := proxyreport.Write(dir, rep)
	if err != nil {
		t.Fatal(err)
	}
	var junit struct {
		Tests  int `xml:"tests,attr"`
		Suites []struct {
			Cases []struct {
				Name string `xml:"name,attr"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	jb, _ := os.ReadFile(paths.JUnit)
	if err := xml.Unmarshal(jb, &junit); err != nil || junit.Tests == 0 {
		t.Fatalf("junit: %v, %d tests", err, junit.Tests)
	}
	if junit.Tests != len(rep.Rules) {
		t.Errorf("junit has %d cases, %d rules seen", junit.Tests, len(rep.Rules))
	}
	var back session.Report
	if b, _ := os.ReadFile(paths.JSON); json.Unmarshal(b, &back) != nil || back.Client == 0 || !back.Interrupted {
		t.Fatalf("json report: %+v", back)
	}
	if len(back.Clients) != 1 || back.Clients[0].Client != "127.0.0.1" || back.Clients[0].ClientViolations != back.Client {
		t.Errorf("per-client counts: %+v", back.Clients)
	}
	var harDoc struct {
		Log struct {
			Version string            `json:"version"`
			Entries []json.RawMessage `json:"entries"`
		} `json:"log"`
	}
	if err := json.Unmarshal(har.Bytes(), &harDoc); err != nil || harDoc.Log.Version != "1.2" || len(harDoc.Log.Entries) < 20 {
		t.Fatalf("har: %v, version %q, %d entries", err, harDoc.Log.Version, len(harDoc.Log.Entries))
	}
	outputs := map[string][]byte{"har": har.Bytes(), "log": []byte(r.log.String())}
	for _, p := range []string{paths.JUnit, paths.JSON, paths.HTML, paths.Markdown} {
		outputs[filepath.Base(p)], _ = os.ReadFile(p)
	}
	if strings.Contains(string(outputs["report.html"]), "<script") {
		t.Error("HTML report has a script")
	}
	for name, b := range outputs {
		for _, re := range leakRes {
			if loc := re.FindIndex(b); loc != nil {
				t.Errorf("%s leaks %s: …%s…", name, re, b[max(0, loc[0]-20):min(len(b), loc[1]+20)])
			}
		}
	}
}

// TestTargetBytesAreEscaped: control characters from the target cannot
// reach a terminal through the live log.
func TestTargetBytesAreEscaped(t *testing.T) {
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte("{\"status\":\"success\",\"data\":{},\"timestamp\":\"x\",\"path\":\"/v1/merchant/\\u001b[2Jevil\\u202e\"}"))
	}))
	defer up.Close()
	var log syncBuf
	px, _ := proxy.New(proxy.Options{Upstream: up.URL + "/v1/merchant", Log: &log})
	srv := httptest.NewServer(px)
	defer srv.Close()
	resp, err := http.Get(srv.URL + "/v1/merchant/cards/config")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	px.Close(context.Background())
	out := log.String()
	if !strings.Contains(out, "ENV-08") || strings.ContainsAny(out, "\x1b\u202e") {
		t.Fatalf("log not escaped or rule missing: %q", out)
	}
}

// TestUpstreamDownIsCountedNotBlamed: an unreachable upstream answers 502,
// is counted and logged, and is no violation of the API's rules.
func TestUpstreamDownIsCountedNotBlamed(t *testing.T) {
	up := httptest.NewServer(http.NotFoundHandler())
	base := up.URL
	up.Close()
	var log syncBuf
	px, err := proxy.New(proxy.Options{Upstream: base + "/v1/merchant", Log: &log, Timeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(px)
	defer srv.Close()
	req, _ := http.NewRequest("GET", srv.URL+"/v1/merchant/cards/config", nil)
	req.Header.Set("Authorization", "Bearer eyJhbGciOiJIUzI1NiJ9.e30.c2ln")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	px.Close(context.Background())
	s := px.Tally().Snapshot()
	if resp.StatusCode != http.StatusBadGateway || s.UpstreamErrors != 1 || s.Server != 0 || !strings.Contains(log.String(), "UPSTREAM ERROR") {
		t.Fatalf("status %d, snapshot %+v, log %q", resp.StatusCode, s, log.String())
	}
}

// TestCompressedAnswersPassAsIsAndAreChecked: the client's Accept-Encoding
// negotiation is untouched (none is added), a gzip answer reaches the
// client compressed and is checked decoded; an unreadable encoding is
// counted, not blamed.
func TestCompressedAnswersPassAsIsAndAreChecked(t *testing.T) {
	body := []byte(`{"status":"success","data":{},"timestamp":"2026-01-01T00:00:00Z","path":"/v1/merchant/cards/customers"}`)
	var zipped bytes.Buffer
	zw := gzip.NewWriter(&zipped)
	zw.Write(body)
	zw.Close()
	var sawAE []string
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sawAE = append(sawAE, r.Header.Get("Accept-Encoding"))
		w.Header().Set("Content-Type", "application/json")
		switch r.Header.Get("Accept-Encoding") {
		case "gzip":
			w.Header().Set("Content-Encoding", "gzip")
			w.Write(zipped.Bytes())
		case "br":
			w.Header().Set("Content-Encoding", "br")
			w.Write([]byte{1, 2, 3})
		default:
			w.Write(body)
		}
	}))
	defer up.Close()
	px, _ := proxy.New(proxy.Options{Upstream: up.URL + "/v1/merchant"})
	srv := httptest.NewServer(px)
	defer srv.Close()
	tr := &http.Transport{DisableCompression: true}
	defer tr.CloseIdleConnections()
	for _, ae := range []string{"", "gzip", "br"} {
		req, _ := http.NewRequest("GET", srv.URL+"/v1/merchant/cards/customers", nil)
		req.Header.Set("Authorization", "Bearer eyJhbGciOiJIUzI1NiJ9.e30.c2ln")
		if ae != "" {
			req.Header.Set("Accept-Encoding", ae)
		}
		resp, err := tr.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if ae == "gzip" && !bytes.Equal(got, zipped.Bytes()) {
			t.Errorf("gzip answer changed on the way")
		}
	}
	px.Close(context.Background())
	s := px.Tally().Snapshot()
	if strings.Join(sawAE, ",") != ",gzip,br" {
		t.Errorf("upstream saw Accept-Encoding %q, want the client's own", sawAE)
	}
	if s.Server != 0 || s.Undecodable != 1 {
		t.Fatalf("server violations %d, undecodable %d: %+v", s.Server, s.Undecodable, s.Violations)
	}
}

// TestEchoedPathOfErrorsOnEnvelopeBEndpoints: an error answer carries the
// request path whatever the endpoint's success envelope.
func TestEchoedPathOfErrorsOnEnvelopeBEndpoints(t *testing.T) {
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(404)
		w.Write([]byte(`{"status":"error","statusCode":404,"message":"Virtual card not found","error":"Not Found","timestamp":"2026-01-01T00:00:00Z","path":"/v1/merchant/cards/other/contact"}`))
	}))
	defer up.Close()
	px, _ := proxy.New(proxy.Options{Upstream: up.URL + "/v1/merchant"})
	srv := httptest.NewServer(px)
	defer srv.Close()
	req, _ := http.NewRequest("PATCH", srv.URL+"/v1/merchant/cards/crd_1/contact", strings.NewReader(`{"email":"a@example.com"}`))
	req.Header.Set("Authorization", "Bearer eyJhbGciOiJIUzI1NiJ9.e30.c2ln")
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	px.Close(context.Background())
	if got := countBy(px.Tally().Snapshot(), session.Server); got["ENV-08"] != 1 || len(got) != 1 {
		t.Fatalf("want exactly ENV-08, got %v", got)
	}
}

// TestCloseWaitsForExchangesInFlight: an exchange in flight when the
// session ends is still checked; one arriving after is forwarded, unchecked.
func TestCloseWaitsForExchangesInFlight(t *testing.T) {
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(300 * time.Millisecond)
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"status":"success","data":[],"timestamp":"2026-01-01T00:00:00Z","path":"/v1/merchant/cards/customers"}`))
	}))
	defer up.Close()
	px, _ := proxy.New(proxy.Options{Upstream: up.URL + "/v1/merchant"})
	srv := httptest.NewServer(px)
	defer srv.Close()
	get := func() int {
		req, _ := http.NewRequest("GET", srv.URL+"/v1/merchant/cards/customers", nil)
		req.Header.Set("Authorization", "Bearer eyJhbGciOiJIUzI1NiJ9.e30.c2ln")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return 0
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	done := make(chan int)
	go func() { done <- get() }()
	time.Sleep(100 * time.Millisecond)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := px.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if st := <-done; st != 200 {
		t.Fatalf("in-flight request: %d", st)
	}
	if st := get(); st != 200 {
		t.Fatalf("request after close: %d", st)
	}
	s := px.Tally().Snapshot()
	if s.Exchanges != 1 || s.Unchecked != 1 {
		t.Fatalf("exchanges %d (want the in-flight one checked), unchecked %d", s.Exchanges, s.Unchecked)
	}
}

// TestAnotherCardAnsweredIsReported: the card answered must be the card
// addressed, by id or by reference.
func TestAnotherCardAnsweredIsReported(t *testing.T) {
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"status":"success","data":{"id":"crd_2","reference":"ref-2"},"timestamp":"2026-01-01T00:00:00Z","path":"` + r.URL.Path + `"}`))
	}))
	defer up.Close()
	px, _ := proxy.New(proxy.Options{Upstream: up.URL + "/v1/merchant"})
	srv := httptest.NewServer(px)
	defer srv.Close()
	for _, id := range []string{"crd_2", "ref-2", "crd_1"} {
		req, _ := http.NewRequest("GET", srv.URL+"/v1/merchant/cards/"+id, nil)
		req.Header.Set("Authorization", "Bearer eyJhbGciOiJIUzI1NiJ9.e30.c2ln")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	px.Close(context.Background())
	for _, r := range px.Tally().Snapshot().Rules {
		if r.Side == session.Server && r.Rule == "GET-02" && (r.Checked != 3 || r.Violations != 1) {
			t.Fatalf("GET-02 checked %d, violations %d; want 3 and 1 (only crd_1)", r.Checked, r.Violations)
		}
	}
	if countBy(px.Tally().Snapshot(), session.Server)["GET-02"] != 1 {
		t.Fatal("GET-02 not reported")
	}
}
