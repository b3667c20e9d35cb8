package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/merchant-harness/mph/sandbox"
)

// credSink stands for another origin: it records whatever reaches it.
type credSink struct {
	mu   sync.Mutex
	seen []string
}

func (s *credSink) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(io.LimitReader(r.Body, 4096))
	s.mu.Lock()
	s.seen = append(s.seen, fmt.Sprintf("%s %s auth=%q admin=%q body=%q", r.Method, r.URL.Path, r.Header.Get("Authorization"), r.Header.Get("X-Sandbox-Admin-Key"), b))
	s.mu.Unlock()
}

func (s *credSink) take() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := s.seen
	s.seen = nil
	return out
}

// frontMode is how the hostile front of the sandbox behaves.
type frontMode struct {
	tokenPasses     bool   // POST …/auth/token (and the controls) reach the sandbox
	tokenRetryAfter string // else answer it 429 with this Retry-After ("" = redirect/stream like the rest)
	redirectTo      string // answer the rest with 307 to this origin + the same path
	stream          int64  // or with a 200 JSON body of this many bytes
}

type front struct {
	mu   sync.Mutex
	mode frontMode
	rp   *httputil.ReverseProxy
}

func (f *front) set(m frontMode) { f.mu.Lock(); f.mode = m; f.mu.Unlock() }

func (f *front) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	m := f.mode
	f.mu.Unlock()
	token := strings.HasSuffix(r.URL.Path, "/auth/token")
	// The controls the operator named pass with the token exchange: a
	// named controls URL that redirects or breaks is a configuration
	// error of its own (TestControlsURLThatRedirectsIsAConfigurationError).
	controls := strings.HasPrefix(r.URL.Path, "/_sandbox")
	switch {
	case (token || controls) && m.tokenPasses:
		f.rp.ServeHTTP(w, r)
	case token && m.tokenRetryAfter != "":
		w.Header().Set("Retry-After", m.tokenRetryAfter)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusTooManyRequests)
		_, _ = io.WriteString(w, `{"status":"error","statusCode":429,"error":"Too Many Requests","message":"slow down"}`)
	case m.redirectTo != "":
		w.Header().Set("Location", m.redirectTo+r.URL.RequestURI())
		w.WriteHeader(http.StatusTemporaryRedirect)
	case m.stream > 0:
		streamJSON(w, m.stream)
	default:
		f.rp.ServeHTTP(w, r)
	}
}

// streamJSON writes a 200 JSON answer of n bytes, chunk by chunk, until the
// client goes away.
func streamJSON(w http.ResponseWriter, n int64) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	chunk := bytes.Repeat([]byte("x"), 64<<10)
	if _, err := io.WriteString(w, `{"data":"`); err != nil {
		return
	}
	for left := n - 11; left > 0; left -= int64(len(chunk)) {
		if _, err := w.Write(chunk[:min(left, int64(len(chunk)))]); err != nil {
			return
		}
	}
	_, _ = io.WriteString(w, `"}`)
}

type mphRun struct {
	out     string
	code    int
	maxRSS  int64 // KiB
	elapsed time.Duration
}

func runMPH(t *testing.T, bin string, env []string, limit time.Duration, args ...string) mphRun {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	c := exec.CommandContext(ctx, bin, args...)
	c.Env = env
	var out bytes.Buffer
	c.Stdout, c.Stderr = &out, &out
	start := time.Now()
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	hwm := watchPeakRSS(c.Process.Pid)
	err := c.Wait()
	r := mphRun{out: out.String(), elapsed: time.Since(start)}
	if ctx.Err() != nil {
		t.Fatalf("mph %s did not end within %s:\n%s", strings.Join(args, " "), limit, r.out)
	}
	if ee, ok := err.(*exec.ExitError); ok {
		r.code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	r.maxRSS = hwm()
	if ru, ok := c.ProcessState.SysUsage().(*syscall.Rusage); ok && r.maxRSS == 0 {
		r.maxRSS = ru.Maxrss
	}
	return r
}

// watchPeakRSS samples the process's VmHWM (KiB) every 10 ms until the
// returned func is called, which returns the highest value read (0 without
// /proc). The rusage of a child is no measure: Go starts it with a vfork
// that shares this process's memory until exec, and the kernel carries that
// high-water mark into the child's ru_maxrss (a -race test binary of 150 MB
// made a 28 MB mph look like 151 MB).
func watchPeakRSS(pid int) func() int64 {
	var peak atomic.Int64
	done := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		path := fmt.Sprintf("/proc/%d/status", pid)
		for {
			if b, err := os.ReadFile(path); err == nil {
				if _, rest, ok := strings.Cut(string(b), "VmHWM:"); ok {
					var kib int64
					if _, err := fmt.Sscan(rest, &kib); err == nil && kib > peak.Load() {
						peak.Store(kib)
					}
				}
			}
			select {
			case <-done:
				return
			case <-time.After(10 * time.Millisecond):
			}
		}
	}()
	return func() int64 {
		close(done)
		<-stopped
		return peak.Load()
	}
}

// TestHostileTarget runs mph conform, load and probe against a front of the
// sandbox that redirects to another host name and port, streams huge
// bodies, or asks to wait a day: nothing reaches the other origin, memory
// stays bounded, and every wait ends within its cap.
func TestHostileTarget(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and runs several processes")
	}
	dir := t.TempDir()
	bin := mphBinary(t) // built once per test binary
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
	sink := &credSink{}
	other := httptest.NewServer(sink)
	defer other.Close()
	elsewhere := strings.Replace(other.URL, "127.0.0.1", "localhost", 1) // another host name and port

	m := sandbox.DemoMerchants()[0]
	env := append(os.Environ(), "MPH_BASE_URL="+fs.URL+"/v1/merchant", "MPH_MERCHANT_ID="+m.ID, "MPH_SECRET_KEY="+m.TestKey,
		"MPH_CONTROLS_URL="+fs.URL+"/_sandbox", "MPH_ADMIN_KEY="+sbx.AdminKey)
	out := func(name string) string { return filepath.Join(dir, name) }
	noLeak := func(t *testing.T, r mphRun) {
		t.Helper()
		if seen := sink.take(); len(seen) > 0 {
			t.Fatalf("the other origin received %d requests, e.g. %s\n%s", len(seen), seen[0], r.out)
		}
	}

	t.Run("pre-flight names the redirect and exits 2", func(t *testing.T) {
		f.set(frontMode{redirectTo: elsewhere})
		r := runMPH(t, bin, env, time.Minute, "conform", "--no-color", "--out", out("c1"))
		noLeak(t, r)
		want := "the target answered 307 to " + elsewhere + "/v1/merchant/auth/token"
		if r.code != 2 || !strings.Contains(r.out, want) || !strings.Contains(r.out, "should the base URL be "+elsewhere+"/v1/merchant?") {
			t.Fatalf("want exit 2 naming %q, got %d:\n%s", want, r.code, r.out)
		}
	})
	t.Run("conform specs: a refused redirect is a harness error", func(t *testing.T) {
		for _, follow := range []string{"--follow-redirects=false", "--follow-redirects"} {
			f.set(frontMode{tokenPasses: true, redirectTo: elsewhere})
			r := runMPH(t, bin, env, 2*time.Minute, "conform", "--no-color", "--out", out("c2"), follow,
				"--focus", "GET /cards answers 200 in Envelope A", "--focus", "GET /cards/config answers 200")
			noLeak(t, r)
			if r.code != 3 || !strings.Contains(r.out, "0 failed") || strings.Contains(r.out, " 0 harness errors") || !strings.Contains(r.out, "answered 307 to "+elsewhere) {
				t.Fatalf("%s: want harness errors only, naming the redirect (exit 3), got %d:\n%s", follow, r.code, r.out)
			}
		}
	})
	t.Run("load setup and attack, probe", func(t *testing.T) {
		f.set(frontMode{redirectTo: elsewhere})
		r := runMPH(t, bin, env, time.Minute, "load", "--scenario", "list", "--rate", "5", "--duration", "1s", "--quiet", "--out", out("l1"))
		noLeak(t, r)
		if r.code == 0 || !strings.Contains(r.out, "answered 307 to "+elsewhere) {
			t.Fatalf("token exchange redirected: want a failed setup naming it, got %d:\n%s", r.code, r.out)
		}
		// The token scenario has no setup: its attack sends the secret key in
		// every body, and none may follow the redirect.
		for _, follow := range []string{"--follow-redirects=false", "--follow-redirects"} {
			r = runMPH(t, bin, env, time.Minute, "load", "--scenario", "token", "--rate", "20", "--duration", "1s", "--quiet", "--out", out("l0"), follow)
			noLeak(t, r)
			if _, err := os.Stat(filepath.Join(out("l0"), "summary.json")); err != nil {
				t.Fatalf("%s: the token attack should have run: %v\n%s", follow, err, r.out)
			}
		}
		f.set(frontMode{tokenPasses: true, redirectTo: elsewhere})
		r = runMPH(t, bin, env, time.Minute, "load", "--scenario", "secure", "--pool-size", "2", "--rate", "5", "--duration", "1s", "--quiet", "--out", out("l2"))
		noLeak(t, r)
		if r.code == 0 || !strings.Contains(r.out, "answered 307 to "+elsewhere) {
			t.Fatalf("setup redirected: want a failed setup naming it, got %d:\n%s", r.code, r.out)
		}
		// Without --follow-redirects the attack records the 307 answers; with
		// it, the cross-origin redirects are refused as errors naming them.
		for follow, want := range map[string]string{"--follow-redirects=false": `"307"`, "--follow-redirects": "answered 307 to " + elsewhere} {
			r = runMPH(t, bin, env, time.Minute, "load", "--scenario", "list", "--rate", "20", "--duration", "1s", "--quiet", "--out", out("l3"), follow)
			noLeak(t, r)
			if b, err := os.ReadFile(filepath.Join(out("l3"), "summary.json")); err != nil || !strings.Contains(string(b), want) {
				t.Fatalf("%s: the summary should show %s: %v\n%s", follow, want, err, r.out)
			}
		}
		r = runMPH(t, bin, env, 2*time.Minute, "load", "probe-rate-limit", "--scenario", "list", "--start-rate", "20", "--max-rate", "30",
			"--step-duration", "300ms", "--quiet", "--polite", "3", "--out", out("p1"))
		noLeak(t, r)
	})
	t.Run("Retry-After 86400 during load setup ends within the cap", func(t *testing.T) {
		f.set(frontMode{tokenRetryAfter: "86400"})
		r := runMPH(t, bin, env, time.Minute, "load", "--scenario", "list", "--rate", "5", "--duration", "1s", "--quiet", "--out", out("ra"))
		if r.code == 0 || !strings.Contains(r.out, "Retry-After: 86400") || !strings.Contains(r.out, "longer than the 30s") || r.elapsed > 20*time.Second {
			t.Fatalf("want a clear refusal to wait a day, got exit %d after %s:\n%s", r.code, r.elapsed, r.out)
		}
	})
	t.Run("conform --deadline reports the specs it cut as not run", func(t *testing.T) {
		var local []string // a sandbox slow enough for the deadline to cut the run
		for _, kv := range os.Environ() {
			if !strings.HasPrefix(kv, "MPH_") {
				local = append(local, kv)
			}
		}
		local = append(local, slowSandboxEnv(t, 20*time.Millisecond)...)
		r := runMPH(t, bin, local, 2*time.Minute, "conform", "--no-color", "--out", out("deadline"), "--deadline", "2s")
		if r.code != 3 || !strings.Contains(r.out, "× not run: the run deadline (--deadline) passed") || !strings.Contains(r.out, "specs not run: the run deadline (--deadline 2s) passed") {
			t.Fatalf("want exit 3 with the cut specs reported, got %d:\n%s", r.code, r.out)
		}
		if r.elapsed > 40*time.Second {
			t.Fatalf("a 2s deadline took %s", r.elapsed)
		}
	})
	t.Run("200 MB bodies: bounded memory and time", func(t *testing.T) {
		const body = 200 << 20
		f.set(frontMode{tokenPasses: true, stream: body})
		r := runMPH(t, bin, env, 2*time.Minute, "load", "--scenario", "list", "--rate", "10", "--duration", "2s", "--quiet", "--out", out("big-load"))
		t.Logf("mph load against %d MB answers: max RSS %d MiB, %s", body>>20, r.maxRSS>>10, r.elapsed.Round(time.Millisecond))
		// The bound is the one the harness promises (150 MB whatever the
		// target sends); a quiet machine measures about 30 MiB.
		if r.maxRSS<<10 > 150<<20 {
			t.Fatalf("mph load max RSS %d MiB against %d MiB bodies:\n%s", r.maxRSS>>10, body>>20, r.out)
		}
		if b, err := os.ReadFile(filepath.Join(out("big-load"), "summary.json")); err != nil || !strings.Contains(string(b), "body larger than 65536 bytes") {
			t.Fatalf("the oversized answers should be counted as such: %v\n%s", err, r.out)
		}
		r = runMPH(t, bin, env, 2*time.Minute, "conform", "--no-color", "--out", out("big-conform"),
			"--focus", "GET /cards answers 200 in Envelope A", "--focus", "GET /cards/config answers 200")
		t.Logf("mph conform against %d MB answers: max RSS %d MiB, %s", body>>20, r.maxRSS>>10, r.elapsed.Round(time.Millisecond))
		if r.maxRSS<<10 > 150<<20 || r.code != 1 || !strings.Contains(r.out, "body larger than 1048576 bytes") {
			t.Fatalf("mph conform: exit %d, max RSS %d MiB against %d MiB bodies:\n%s", r.code, r.maxRSS>>10, body>>20, r.out)
		}
		var size int64
		_ = filepath.WalkDir(out("big-conform"), func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				if fi, err := d.Info(); err == nil {
					size += fi.Size()
				}
			}
			return nil
		})
		if size > 2<<20 {
			t.Fatalf("reports of two failing specs take %d bytes", size)
		}
	})
}
