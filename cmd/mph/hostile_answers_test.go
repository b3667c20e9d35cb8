package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/merchant-harness/mph/sandbox"
)

// hostileAnswers answers every request but the token exchange and the
// controls with what a hostile target can send within the body cap: 100 MB
// of headers, a number of a million digits, arrays nested as deep as a
// JSON decoder follows (10,000 levels).
func hostileAnswers(kind string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/auth/token") || strings.HasPrefix(r.URL.Path, "/_sandbox") {
			next.ServeHTTP(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		switch kind {
		case "headers":
			// 100 MB of headers, 64 KiB a line, until the client hangs up.
			line := strings.Repeat("h", 64<<10)
			for i := 0; i < 1600; i++ {
				w.Header().Add(fmt.Sprintf("X-Flood-%d", i), line)
			}
			w.WriteHeader(http.StatusOK)
			_, _ = io.WriteString(w, `{}`)
		case "number":
			w.WriteHeader(http.StatusOK)
			_, _ = io.WriteString(w, `{"status":"success","data":{"environment":"TEST","creationFee":1`+strings.Repeat("7", 1000000)+`,"fundFee":1,"withdrawalFee":1,"minFunding":1,"exchangeRate":1,"vaultBalance":1},"timestamp":"2026-01-01T00:00:00Z","path":"/v1/merchant/cards/config"}`)
		case "nesting":
			w.WriteHeader(http.StatusOK)
			_, _ = io.WriteString(w, `{"status":"success","data":`+strings.Repeat("[", 9999)+strings.Repeat("]", 9999)+`}`)
		}
	})
}

// TestHostileAnswersBoundedMemory runs mph conform against each hostile
// answer: the run ends with verdicts, and its peak RSS stays under 150 MB
// (measured before the bounds: 100 MB of headers on every answer took the
// whole suite to 271 MB, a million-digit number two config specs to 357 MB
// and 18 s).
func TestHostileAnswersBoundedMemory(t *testing.T) {
	bin := mphBinary(t)
	sbx, err := sandbox.Start(context.Background(), "127.0.0.1:0", sandbox.Options{DisableRateLimits: true})
	if err != nil {
		t.Fatal(err)
	}
	defer sbx.Close()
	origin, _ := url.Parse(sbx.BaseURL)
	origin.Path = ""
	m := sandbox.DemoMerchants()[0]
	for _, kind := range []string{"headers", "number", "nesting"} {
		t.Run(kind, func(t *testing.T) {
			front := httptest.NewServer(hostileAnswers(kind, httputil.NewSingleHostReverseProxy(origin)))
			defer front.Close()
			var env []string
			for _, kv := range os.Environ() {
				if !strings.HasPrefix(kv, "MPH_") {
					env = append(env, kv)
				}
			}
			env = append(env, "MPH_BASE_URL="+front.URL+"/v1/merchant", "MPH_MERCHANT_ID="+m.ID, "MPH_SECRET_KEY="+m.TestKey,
				"MPH_CONTROLS_URL="+front.URL+"/_sandbox", "MPH_ADMIN_KEY="+sbx.AdminKey)
			args := []string{"conform", "--no-color", "--out", filepath.Join(t.TempDir(), kind)}
			if kind != "headers" { // the header flood needs the whole suite's concurrency to show
				args = append(args, "--focus", "GET /cards/config", "--focus", "GET /cards answers")
			}
			r := runMPH(t, bin, env, 3*time.Minute, args...)
			t.Logf("%s: exit %d, max RSS %d MiB, %s; %s", kind, r.code, r.maxRSS>>10, r.elapsed.Round(time.Millisecond), summaryLine(r.out))
			if r.maxRSS<<10 > 150<<20 {
				t.Fatalf("max RSS %d MiB:\n%.3000s", r.maxRSS>>10, r.out)
			}
			if r.code != 1 && r.code != 3 {
				t.Fatalf("want the specs judged (exit 1, or 3 for harness errors), got %d:\n%.3000s", r.code, r.out)
			}
		})
	}
}

// TestControlsURLThatRedirectsIsAConfigurationError: a controls URL the
// operator named that redirects (or is no sandbox) stops the run with exit
// 2 naming the cause (it was reported as "MPH_CONTROLS_URL unset" and the
// run exited 0).
func TestControlsURLThatRedirectsIsAConfigurationError(t *testing.T) {
	bin := mphBinary(t)
	sbx, err := sandbox.Start(context.Background(), "127.0.0.1:0", sandbox.Options{DisableRateLimits: true})
	if err != nil {
		t.Fatal(err)
	}
	defer sbx.Close()
	other := httptest.NewServer(http.NotFoundHandler())
	defer other.Close()
	redirect := httptest.NewServer(http.RedirectHandler(other.URL+"/_sandbox/capabilities", http.StatusTemporaryRedirect))
	defer redirect.Close()
	m := sandbox.DemoMerchants()[0]
	for controls, want := range map[string]string{
		redirect.URL + "/_sandbox": "cannot be used: GET /capabilities: the target answered 307",
		other.URL + "/_sandbox":    "cannot be used: GET /capabilities answered 404",
	} {
		var env []string
		for _, kv := range os.Environ() {
			if !strings.HasPrefix(kv, "MPH_") {
				env = append(env, kv)
			}
		}
		env = append(env, "MPH_BASE_URL="+sbx.BaseURL, "MPH_MERCHANT_ID="+m.ID, "MPH_SECRET_KEY="+m.TestKey,
			"MPH_CONTROLS_URL="+controls, "MPH_ADMIN_KEY="+sbx.AdminKey)
		r := runMPH(t, bin, env, time.Minute, "conform", "--no-color", "--out", t.TempDir(), "--focus", "GET /cards/config")
		if r.code != 2 || !strings.Contains(r.out, want) {
			t.Fatalf("controls %s: want exit 2 saying %q, got %d:\n%s", controls, want, r.code, r.out)
		}
	}
}

// TestProbeAndCapacityAtZeroSuccessExit1: against a target answering its
// token exchange and then nothing but redirects (or 500s), the probe and the
// capacity search stop at their first step and exit 1 saying so (the probe
// climbed to 4,379 req/s and reported "no rate limit found", exit 0).
func TestProbeAndCapacityAtZeroSuccessExit1(t *testing.T) {
	bin := mphBinary(t)
	sbx, err := sandbox.Start(context.Background(), "127.0.0.1:0", sandbox.Options{DisableRateLimits: true})
	if err != nil {
		t.Fatal(err)
	}
	defer sbx.Close()
	origin, _ := url.Parse(sbx.BaseURL)
	origin.Path = ""
	f := &front{rp: httputil.NewSingleHostReverseProxy(origin)}
	fs := httptest.NewServer(f)
	defer fs.Close()
	m := sandbox.DemoMerchants()[0]
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "MPH_") {
			env = append(env, kv)
		}
	}
	env = append(env, "MPH_BASE_URL="+fs.URL+"/v1/merchant", "MPH_MERCHANT_ID="+m.ID, "MPH_SECRET_KEY="+m.TestKey)
	f.set(frontMode{tokenPasses: true, redirectTo: "http://127.0.0.1:1"})
	dir := t.TempDir()
	r := runMPH(t, bin, env, 2*time.Minute, "load", "probe-rate-limit", "--scenario", "list", "--start-rate", "20", "--max-rate", "5000",
		"--step-duration", "300ms", "--quiet", "--polite", "3", "--out", filepath.Join(dir, "probe"))
	if r.code != 1 || !strings.Contains(r.out, "answered nothing but errors or redirects (307 ×") || r.elapsed > 30*time.Second {
		t.Fatalf("probe against redirects only: want exit 1 saying so at once, got %d after %s:\n%s", r.code, r.elapsed, r.out)
	}
	r = runMPH(t, bin, env, 2*time.Minute, "load", "capacity", "--scenario", "list", "--start-rate", "20", "--max-rate", "5000",
		"--step-duration", "300ms", "--max-errors", "1", "--quiet", "--out", filepath.Join(dir, "capacity"))
	if r.code != 1 || !strings.Contains(r.out, "no valid 2xx answer") || r.elapsed > 30*time.Second {
		t.Fatalf("capacity against redirects only: want exit 1 saying so at once, got %d after %s:\n%s", r.code, r.elapsed, r.out)
	}
}
