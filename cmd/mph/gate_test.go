package main

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
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
	"syscall"
	"testing"
	"time"

	"github.com/merchant-harness/mph/exitcode"
	"github.com/merchant-harness/mph/internal/buildinfo"
	"github.com/merchant-harness/mph/report"
	"github.com/merchant-harness/mph/result"
	"github.com/merchant-harness/mph/sandbox"
	"github.com/merchant-harness/mph/suites/listing"
)

var (
	binOnce sync.Once
	binPath string
	binErr  error
)

// mphBinary builds mph once per test binary (cleaned up by the OS temp dir).
func mphBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and runs mph")
	}
	binOnce.Do(func() {
		dir, err := os.MkdirTemp("", "mph-gate-test-")
		if err != nil {
			binErr = err
			return
		}
		binPath = filepath.Join(dir, "mph")
		out, err := exec.Command("go", "build", "-o", binPath, ".").CombinedOutput()
		if err != nil {
			binErr = fmt.Errorf("%v: %s", err, out)
		}
	})
	if binErr != nil {
		t.Fatal(binErr)
	}
	return binPath
}

type runResult struct {
	code           int
	stdout, stderr string
	took           time.Duration
}

// gateRun runs mph with args and env; interrupt, when > 0, sends sig after it.
func gateRun(t *testing.T, env []string, interrupt time.Duration, sig syscall.Signal, args ...string) runResult {
	t.Helper()
	cmd := exec.Command(mphBinary(t), args...)
	cmd.Env = append(os.Environ(), env...)
	var so, se bytes.Buffer
	cmd.Stdout, cmd.Stderr = &so, &se
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var sent time.Time
	if interrupt > 0 {
		time.Sleep(interrupt)
		sent = time.Now()
		_ = cmd.Process.Signal(sig)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-time.After(5 * time.Minute):
		_ = cmd.Process.Kill()
		t.Fatalf("mph %v did not finish", args)
	}
	r := runResult{stdout: so.String(), stderr: se.String()}
	if !sent.IsZero() {
		r.took = time.Since(sent)
	}
	if ee, ok := err.(*exec.ExitError); ok {
		r.code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return r
}

func expectCode(t *testing.T, name string, r runResult, want int) {
	t.Helper()
	if r.code != want {
		t.Errorf("%s: exit %d, want %d\nstdout: %.2000s\nstderr: %.2000s", name, r.code, want, r.stdout, r.stderr)
	}
}

// sandboxEnv starts a sandbox (with faults) and returns the MPH_* environment
// of its demo merchants; base, when set, replaces its base URL.
func sandboxEnv(t *testing.T, faults []string, base func(*sandbox.Running) string) []string {
	t.Helper()
	sbx, err := sandbox.Start(context.Background(), "127.0.0.1:0", sandbox.Options{Faults: faults})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sbx.CloseWithin(time.Second) })
	demo := sandbox.DemoMerchants()
	u := sbx.BaseURL
	if base != nil {
		u = base(sbx)
	}
	return []string{"MPH_BASE_URL=" + u, "MPH_CONTROLS_URL=" + sbx.ControlsURL, "MPH_ADMIN_KEY=" + sbx.AdminKey,
		"MPH_MERCHANT_ID=" + demo[0].ID, "MPH_SECRET_KEY=" + demo[0].TestKey,
		"MPH_MERCHANT2_ID=" + demo[1].ID, "MPH_SECRET_KEY2=" + demo[1].TestKey}
}

// slowSandboxEnv is sandboxEnv with every merchant API answer delayed by
// latency: a whole conform run then lasts long enough to be interrupted or
// cut by a deadline (against the plain sandbox it takes about 2 s).
func slowSandboxEnv(t *testing.T, latency time.Duration) []string {
	t.Helper()
	env := sandboxEnv(t, nil, nil)
	var ctl, key string
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "MPH_CONTROLS_URL="); ok {
			ctl = v
		}
		if v, ok := strings.CutPrefix(kv, "MPH_ADMIN_KEY="); ok {
			key = v
		}
	}
	req, _ := http.NewRequest(http.MethodPut, ctl+"/latency", strings.NewReader(fmt.Sprintf(`{"ms":%d}`, latency.Milliseconds())))
	req.Header.Set("X-Sandbox-Admin-Key", key)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("setting the sandbox latency: %v %v", err, resp)
	}
	resp.Body.Close()
	return env
}

// failingRegistrations fronts the sandbox with a proxy that answers 500 to
// every customer registration: fixtures cannot be created (harness errors).
func failingRegistrations(t *testing.T) func(*sandbox.Running) string {
	return func(sbx *sandbox.Running) string {
		u, _ := url.Parse(sbx.BaseURL)
		rp := httputil.NewSingleHostReverseProxy(&url.URL{Scheme: u.Scheme, Host: u.Host})
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/customers") {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusInternalServerError)
				_, _ = w.Write([]byte(`{"statusCode":500,"error":"Internal Server Error","message":"down"}`))
				return
			}
			rp.ServeHTTP(w, r)
		}))
		t.Cleanup(srv.Close)
		return srv.URL + u.Path
	}
}

const oneSpec = "answers 404 for a card that does not exist"

func TestConformExitCodes(t *testing.T) {
	dir := t.TempDir()
	out := func(name string) string { return filepath.Join(dir, name) }
	cases := []struct {
		name string
		env  []string
		args []string
		want int
		says string
	}{
		{"passed", nil, []string{"--focus", oneSpec}, 0, ""},
		{"failed", sandboxEnv(t, []string{"error-reason-phrase-wrong"}, nil), []string{"--focus", oneSpec}, 1, "failed"},
		{"empty selection", nil, []string{"--label-filter", "withdrawl"}, 2, `no spec selected by --label-filter "withdrawl"`},
		{"empty selection allowed", nil, []string{"--label-filter", "withdrawl", "--allow-empty"}, 0, ""},
		{"malformed filter", nil, []string{"--label-filter", "(("}, 2, "--label-filter"},
		{"unknown flag", nil, []string{"--no-such-flag"}, 2, "unknown flag"},
		{"pre-flight refusal", []string{"MPH_BASE_URL=http://127.0.0.1:1/v1/merchant", "MPH_MERCHANT_ID=m", "MPH_SECRET_KEY=sk_test_x"}, []string{"--focus", oneSpec}, 2, "pre-flight"},
		{"harness errors only", sandboxEnv(t, nil, failingRegistrations(t)), []string{"--focus", "updates the mobile alone in local form"}, 3, "could not run"},
	}
	for _, c := range cases {
		r := gateRun(t, c.env, 0, 0, append([]string{"conform", "--out", out(strings.ReplaceAll(c.name, " ", "-"))}, c.args...)...)
		expectCode(t, c.name, r, c.want)
		if c.says != "" && !strings.Contains(r.stderr, c.says) {
			t.Errorf("%s: stderr does not say %q:\n%s", c.name, c.says, r.stderr)
		}
	}
}

func TestConformInterruptedWritesMarkedReports(t *testing.T) {
	dir := t.TempDir()
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		out := filepath.Join(dir, sig.String())
		r := gateRun(t, slowSandboxEnv(t, 20*time.Millisecond), 2500*time.Millisecond, sig, "conform", "--out", out)
		expectCode(t, sig.String(), r, 130)
		// The target is 1 s (about 0.1 s measured on an idle machine); the
		// bound is generous for a loaded shared CI machine.
		if r.took > 3*time.Second {
			t.Errorf("%v: exited %v after the signal, want within 1 s", sig, r.took)
		}
		t.Logf("%v: exit %v after the signal", sig, r.took)
		lines := strings.Split(strings.TrimSpace(r.stderr), "\n")
		if len(lines) != 1 || !strings.Contains(lines[0], "interrupted after") || strings.Contains(r.stderr+r.stdout, "goroutine") {
			t.Errorf("%v: want one line on stderr and no goroutine dump, got:\n%s", sig, r.stderr)
		}
		b, err := os.ReadFile(filepath.Join(out, "report.summary.json"))
		if err != nil {
			t.Fatal(err)
		}
		var s result.Summary
		if err := json.Unmarshal(b, &s); err != nil {
			t.Fatal(err)
		}
		if !s.Interrupted || s.Selected < 100 || s.NotRun == 0 || s.NotRun == s.Selected {
			t.Errorf("%v: summary interrupted=%v selected=%d not finished=%d", sig, s.Interrupted, s.Selected, s.NotRun)
		}
		jb, _ := os.ReadFile(filepath.Join(out, "junit.xml"))
		var j report.JUnitSuites
		if err := xml.Unmarshal(jb, &j); err != nil || j.Tests != s.Selected || !bytes.Contains(jb, []byte(`name="interrupted" value="true"`)) {
			t.Errorf("%v: JUnit of an interrupted run (tests %d, selected %d): %v", sig, j.Tests, s.Selected, err)
		}
		for _, f := range []string{"report.html", "summary.md", "report.json"} {
			if fb, err := os.ReadFile(filepath.Join(out, f)); err != nil || !bytes.Contains(bytes.ToLower(fb), []byte("interrupted")) {
				t.Errorf("%v: %s missing or not marked interrupted (%v)", sig, f, err)
			}
		}
	}
}

func TestLoadExitCodes(t *testing.T) {
	dir := t.TempDir()
	base := []string{"--scenario", "list", "--rate", "20", "--quiet", "--no-plot", "--no-results"}
	run := func(name string, interrupt time.Duration, args ...string) runResult {
		return gateRun(t, nil, interrupt, syscall.SIGINT, append(args, "--out", filepath.Join(dir, name))...)
	}
	load := func(extra ...string) []string { return append(append([]string{"load"}, base...), extra...) }

	r := run("pass", 0, load("--duration", "1s", "--threshold", "list:success>=50%", "--junit-report", filepath.Join(dir, "load-junit.xml"))...)
	expectCode(t, "load passed", r, 0)
	jb, err := os.ReadFile(filepath.Join(dir, "load-junit.xml"))
	if err != nil || !bytes.Contains(jb, []byte(`name="list:success&gt;=50%"`)) || !bytes.Contains(jb, []byte(`classname="load.list"`)) || bytes.Contains(jb, []byte("<failure")) {
		t.Errorf("load JUnit: %v\n%s", err, jb)
	}
	expectCode(t, "load breached", run("breach", 0, load("--duration", "1s", "--threshold", "list:p99<0.001ms")...), 1)
	r = run("unhit", 0, load("--duration", "1s", "--threshold", "secure:p99<100ms")...)
	expectCode(t, "threshold on an endpoint never hit", r, 2)
	if !strings.Contains(r.stderr, "never sends secure requests") {
		t.Errorf("refusal does not say why: %s", r.stderr)
	}
	expectCode(t, "load usage", run("usage", 0, load("--duration", "1s", "--pace", "zigzag")...), 2)
	r = run("interrupted", 2500*time.Millisecond, load("--duration", "30s", "--markdown-report", filepath.Join(dir, "step.md"))...)
	expectCode(t, "load interrupted", r, 130)
	if md, err := os.ReadFile(filepath.Join(dir, "step.md")); err != nil || !bytes.Contains(md, []byte("interrupted")) {
		t.Errorf("markdown of an interrupted load run: %v\n%s", err, md)
	}

	expectCode(t, "merge passed", run("merge-ok", 0, "load", "merge", "--no-results", filepath.Join(dir, "pass")), 0)
	expectCode(t, "merge breached", run("merge-breach", 0, "load", "merge", "--no-results", "--threshold", "all:p99<0.001ms", filepath.Join(dir, "pass")), 1)
	expectCode(t, "merge usage", run("merge-usage", 0, "load", "merge", filepath.Join(dir, "nothing-here")), 2)

	expectCode(t, "probe usage", run("probe-usage", 0, "load", "probe-rate-limit", "--factor", "1"), 2)
	expectCode(t, "probe interrupted", run("probe-int", 2500*time.Millisecond, "load", "probe-rate-limit", "--scenario", "list", "--quiet", "--polite", "0"), 130)
	expectCode(t, "capacity usage", run("cap-usage", 0, "load", "capacity", "--p99", "0s"), 2)
	r = run("cap-none", 0, "load", "capacity", "--scenario", "list", "--quiet", "--p99", "1ns", "--step-duration", "500ms", "--confirm-duration", "500ms", "--start-rate", "20")
	expectCode(t, "capacity: no rate meets the SLO", r, 1)
	if !strings.Contains(r.stderr, "no rate meets the SLO") {
		t.Errorf("capacity failure does not say why: %s", r.stderr)
	}
	// Harness error only: the raw results file cannot be created.
	if err := os.MkdirAll(filepath.Join(dir, "blocked", "results.bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	r = gateRun(t, nil, 0, 0, append(append([]string{"load"}, "--scenario", "list", "--rate", "20", "--quiet", "--no-plot"), "--duration", "1s", "--out", filepath.Join(dir, "blocked"))...)
	expectCode(t, "load harness error", r, 3)
	expectCode(t, "capacity interrupted", run("cap-int", 2500*time.Millisecond, "load", "capacity", "--scenario", "list", "--quiet", "--no-rate-limits"), 130)
}

func TestSelftestExitCodesAndSIGTERM(t *testing.T) {
	expectCode(t, "selftest usage", gateRun(t, nil, 0, 0, "selftest", "--fault", "no-such-fault"), 2)
	expectCode(t, "selftest passed", gateRun(t, nil, 0, 0, "selftest", "--fault", "error-reason-phrase-wrong", "--variant", "none"), 0)
	tmp := t.TempDir()
	km := filepath.Join(t.TempDir(), "km.json")
	r := gateRun(t, []string{"TMPDIR=" + tmp}, 2500*time.Millisecond, syscall.SIGTERM, "selftest", "--parallel", "2", "--json", km)
	expectCode(t, "selftest SIGTERM", r, 130)
	if b, err := os.ReadFile(km); err != nil || !bytes.Contains(b, []byte(`"interrupted": true`)) {
		t.Errorf("kill matrix of an interrupted self-test: %v\n%.300s", err, b)
	}
	if r.took > 5*time.Second {
		t.Errorf("selftest took %v to stop after SIGTERM", r.took)
	}
	left, _ := filepath.Glob(filepath.Join(tmp, "mph-selftest-*"))
	if len(left) > 0 {
		t.Errorf("selftest left its temp dir behind: %v", left)
	}
}

func TestVersionAndHelp(t *testing.T) {
	r := gateRun(t, nil, 0, 0, "--version")
	expectCode(t, "--version", r, 0)
	if !strings.HasPrefix(r.stdout, "mph ") {
		t.Errorf("--version: %q", r.stdout)
	}
	r = gateRun(t, nil, 0, 0, "version", "--json")
	var bi buildinfo.Info
	if err := json.Unmarshal([]byte(r.stdout), &bi); err != nil || bi.Version == "" || bi.GoVersion == "" {
		t.Errorf("version --json: %v %q", err, r.stdout)
	}
	for _, cmd := range [][]string{{"conform"}, {"load"}, {"load", "probe-rate-limit"}, {"load", "capacity"}, {"load", "merge"}, {"selftest"}, {"proxy"}} {
		r := gateRun(t, nil, 0, 0, append(cmd, "--help")...)
		if !strings.Contains(r.stdout, exitcode.Help) || !strings.Contains(r.stdout, "--no-color") {
			t.Errorf("%v --help lacks the exit codes or --no-color:\n%s", cmd, r.stdout)
		}
	}
	expectCode(t, "unknown command", gateRun(t, nil, 0, 0, "no-such-command"), 2)
}

// specIDs returns the IDs --list --json gives for a focus.
func specIDs(t *testing.T, focus string) []string {
	t.Helper()
	r := gateRun(t, nil, 0, 0, "conform", "--list", "--json", "--focus", focus)
	var specs []listing.Spec
	if err := json.Unmarshal([]byte(r.stdout), &specs); err != nil {
		t.Fatalf("--list --json: %v\n%s", err, r.stdout)
	}
	var ids []string
	for _, s := range specs {
		ids = append(ids, s.ID)
	}
	return ids
}

func readSummary(t *testing.T, path string) result.Summary {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var s result.Summary
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	return s
}

func TestWaiversAndBaseline(t *testing.T) {
	const focus = "One card: GET /cards/{id} answers 404 for a card that does not exist"
	ids := specIDs(t, focus)
	if len(ids) != 1 {
		t.Fatalf("focus selects %v", ids)
	}
	dir := t.TempDir()
	waivers := func(name, id, expires string) string {
		p := filepath.Join(dir, name+".yaml")
		y := fmt.Sprintf("waivers:\n  - id: %s\n    reason: known deviation\n    ticket: PAY-1\n    expires: %s\n", id, expires)
		if err := os.WriteFile(p, []byte(y), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	future, past := time.Now().AddDate(0, 1, 0).Format("2006-01-02"), time.Now().AddDate(0, 0, -2).Format("2006-01-02")
	faulty := sandboxEnv(t, []string{"error-reason-phrase-wrong"}, nil)
	conform := func(env []string, name string, args ...string) (runResult, result.Summary) {
		out := filepath.Join(dir, name)
		r := gateRun(t, env, 0, 0, append([]string{"conform", "--out", out, "--focus", focus}, args...)...)
		if r.code == 2 {
			return r, result.Summary{}
		}
		return r, readSummary(t, filepath.Join(out, "report.summary.json"))
	}

	r, s := conform(faulty, "failing")
	expectCode(t, "failing, no waiver", r, 1)
	r, s = conform(faulty, "waived", "--waivers", waivers("w1", ids[0], future))
	expectCode(t, "waived failure", r, 0)
	if s.Waived != 1 || s.Failed != 0 || !strings.Contains(r.stdout, "Waived") {
		t.Errorf("waived run: waived %d failed %d\n%s", s.Waived, s.Failed, r.stdout)
	}
	r, _ = conform(faulty, "waived-by-req", "--waivers", waivers("w2", "GET-04", future))
	expectCode(t, "failure waived by requirement ID", r, 0)
	r, s = conform(faulty, "expired", "--waivers", waivers("w3", ids[0], past))
	expectCode(t, "expired waiver", r, 1)
	if s.Failed != 1 || !strings.Contains(s.Specs[0].Note, "expired") {
		t.Errorf("expired waiver: failed %d, note %q", s.Failed, s.Specs[0].Note)
	}
	r, s = conform(nil, "fixed", "--waivers", waivers("w4", ids[0], future))
	expectCode(t, "fixed, not strict", r, 0)
	if len(s.FixedWaivers) != 1 || !strings.Contains(r.stdout, "fixed: remove the waiver") {
		t.Errorf("fixed waiver not reported: %v\n%s", s.FixedWaivers, r.stdout)
	}
	r, _ = conform(nil, "fixed-strict", "--waivers", waivers("w5", ids[0], future), "--strict-waivers")
	expectCode(t, "fixed, strict", r, 1)
	r, _ = conform(nil, "unknown-id", "--waivers", waivers("w6", "cards.000000", future))
	expectCode(t, "unknown waiver id", r, 2)

	// Baseline: the failing run, compared with a clean run, is fixed.
	r, s = conform(nil, "baseline", "--baseline", filepath.Join(dir, "failing", "report.summary.json"))
	expectCode(t, "baseline", r, 0)
	if s.Baseline == nil || len(s.Baseline.Fixed) != 1 || s.Baseline.Fixed[0] != ids[0] || !strings.Contains(r.stdout, "1 fixed") {
		t.Errorf("baseline: %+v\n%s", s.Baseline, r.stdout)
	}
	r, s = conform(faulty, "baseline-still", "--baseline", filepath.Join(dir, "failing", "report.summary.json"))
	expectCode(t, "baseline still failing", r, 1)
	if s.Baseline == nil || len(s.Baseline.StillFailing) != 1 || len(s.Baseline.NewFailures) != 0 {
		t.Errorf("baseline still failing: %+v", s.Baseline)
	}
}

// TestJUnitOfAFailingRun decodes the JUnit of a run against a faulty sandbox
// strictly and checks what CI tools rely on.
func TestJUnitOfAFailingRun(t *testing.T) {
	dir := t.TempDir()
	env := sandboxEnv(t, []string{"error-reason-phrase-wrong"}, nil)
	r := gateRun(t, env, 0, 0, "conform", "--out", dir, "--label-filter", "errors && !webhooks")
	expectCode(t, "faulty run", r, 1)
	s := readSummary(t, filepath.Join(dir, "report.summary.json"))
	b, err := os.ReadFile(filepath.Join(dir, "junit.xml"))
	if err != nil {
		t.Fatal(err)
	}
	allowed := map[string]bool{"testsuites": true, "testsuite": true, "properties": true, "property": true, "testcase": true,
		"failure": true, "error": true, "skipped": true, "system-out": true, "system-err": true}
	dec := xml.NewDecoder(bytes.NewReader(b))
	dec.Strict = true
	for {
		tok, err := dec.Token()
		if err != nil {
			if err.Error() == "EOF" {
				break
			}
			t.Fatalf("JUnit is not well-formed XML: %v", err)
		}
		if se, ok := tok.(xml.StartElement); ok && !allowed[se.Name.Local] {
			t.Errorf("unexpected JUnit element <%s>", se.Name.Local)
		}
	}
	var j report.JUnitSuites
	if err := xml.Unmarshal(b, &j); err != nil {
		t.Fatal(err)
	}
	ts := j.Suites[0]
	if ts.Tests != s.Selected || j.Tests != s.Selected || s.Selected < 10 || ts.Failures != s.Failed || ts.Failures == 0 {
		t.Fatalf("tests %d failures %d, summary selected %d failed %d", ts.Tests, ts.Failures, s.Selected, s.Failed)
	}
	props := map[string]string{}
	for _, p := range ts.Properties {
		props[p.Name] = p.Value
	}
	for _, k := range []string{"target", "run-id", "harness-version", "profile-digest"} {
		if props[k] == "" {
			t.Errorf("property %s missing", k)
		}
	}
	areas := map[string]bool{}
	for _, sp := range s.Specs {
		areas["conformance."+sp.Area] = true
	}
	maxMsg := 0
	for _, c := range ts.Cases {
		if !areas[c.Classname] || c.Classname == "conformance." {
			t.Errorf("case %q has classname %q", c.Name, c.Classname)
		}
		if strings.HasPrefix(c.Name, "[") || strings.Contains(c.Name, "[It]") {
			t.Errorf("decorated name %q", c.Name)
		}
		if c.Failure != nil {
			m := c.Failure.Message
			maxMsg = max(maxMsg, len([]rune(m)))
			if strings.Contains(m, "\n") || !strings.Contains(m, "[at ") {
				t.Errorf("failure message %q: want one line naming the request", m)
			}
			if n := strings.Count(c.Failure.Body, "--- HTTP exchange "); n > report.JUnitExchanges {
				t.Errorf("failure body holds %d exchanges", n)
			}
		}
	}
	if maxMsg == 0 || maxMsg > result.MaxHeadline {
		t.Errorf("largest failure message %d characters", maxMsg)
	}
	wd, _ := os.Getwd()
	if bytes.Contains(b, []byte(filepath.Dir(filepath.Dir(wd)))) {
		t.Error("JUnit carries the local checkout path")
	}
}

func TestColourOnlyOnATerminal(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "out")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, c := range []struct {
		name    string
		env     map[string]string
		noColor bool
	}{
		{"file", nil, false},
		{"NO_COLOR empty", map[string]string{"NO_COLOR": ""}, false},
		{"TERM=dumb", map[string]string{"TERM": "dumb"}, false},
		{"--no-color", nil, true},
	} {
		for k, v := range c.env {
			t.Setenv(k, v)
		}
		noColor = c.noColor
		if useColor(f) {
			t.Errorf("%s: colour on a file", c.name)
		}
		noColor = false
	}
	// A whole run, piped, and with NO_COLOR into a file: no ESC byte anywhere.
	dir := t.TempDir()
	r := gateRun(t, nil, 0, 0, "conform", "--out", dir, "--label-filter", "cards && !destructive")
	expectCode(t, "piped run", r, 0)
	if strings.ContainsRune(r.stdout+r.stderr, 0x1b) {
		t.Errorf("ESC byte in piped output:\n%q", r.stdout)
	}
	out, err := os.Create(filepath.Join(dir, "out.txt"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(mphBinary(t), "conform", "--out", dir, "--label-filter", "cards && !destructive", "-v")
	cmd.Env = append(os.Environ(), "NO_COLOR=1")
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	out.Close()
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	for _, p := range files {
		b, _ := os.ReadFile(p)
		if bytes.IndexByte(b, 0x1b) >= 0 {
			t.Errorf("ESC byte in %s", filepath.Base(p))
		}
	}
}

func TestListHonoursSelectionAndPrintsOnlySpecs(t *testing.T) {
	all := gateRun(t, nil, 0, 0, "conform", "--list")
	expectCode(t, "--list", all, 0)
	lines := strings.Split(strings.TrimSpace(all.stdout), "\n")
	seen := map[string]bool{}
	for _, l := range lines {
		f := strings.Split(l, "\t")
		if len(f) != 3 || !strings.Contains(f[0], ".") || !strings.HasPrefix(f[2], "[") {
			t.Fatalf("--list line %q: want ID<TAB>text<TAB>[labels]", l)
		}
		if seen[f[0]] {
			t.Errorf("spec ID %s listed twice", f[0])
		}
		seen[f[0]] = true
	}
	if len(lines) < 100 || all.stderr != "" {
		t.Fatalf("--list printed %d lines, stderr %q", len(lines), all.stderr)
	}
	for _, sel := range [][]string{{"--label-filter", "withdraw"}, {"--focus", "Withdrawal"}, {"--label-filter", "withdraw", "--skip", "404"}} {
		r := gateRun(t, nil, 0, 0, append([]string{"conform", "--list"}, sel...)...)
		n := len(strings.Split(strings.TrimSpace(r.stdout), "\n"))
		if r.code != 0 || n == 0 || n >= len(lines) {
			t.Errorf("--list %v: exit %d, %d lines of %d", sel, r.code, n, len(lines))
		}
		for _, l := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
			if sel[0] == "--label-filter" && !strings.Contains(l, "withdraw") || len(sel) > 2 && strings.Contains(l, "404") {
				t.Errorf("--list %v lists %q", sel, l)
			}
		}
	}
	j := gateRun(t, nil, 0, 0, "conform", "--list", "--json", "--label-filter", "withdraw")
	var specs []listing.Spec
	if err := json.Unmarshal([]byte(j.stdout), &specs); err != nil || len(specs) == 0 || specs[0].ID == "" || len(specs[0].Requirements) == 0 {
		t.Errorf("--list --json: %v %+v", err, specs)
	}
	cov := gateRun(t, nil, 0, 0, "conform", "--coverage")
	if first, _, _ := strings.Cut(cov.stdout, "\n"); strings.Contains(first, "Merchant Payments API v1 conformance") || strings.ContainsRune(cov.stdout, 0x1b) || strings.Contains(cov.stdout, "•") {
		t.Errorf("--coverage output polluted: %q", first)
	}
}

// TestConformInterruptedDuringPreflight: a signal while the pre-flight waits
// on a target that does not answer still ends with exit 130 and reports in
// which every selected spec is interrupted.
func TestConformInterruptedDuringPreflight(t *testing.T) {
	stall := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body) // then a closed connection cancels the context
		select {
		case <-r.Context().Done():
		case <-time.After(10 * time.Second):
		}
	}))
	defer stall.Close()
	defer stall.CloseClientConnections()
	dir := t.TempDir()
	env := []string{"MPH_BASE_URL=" + stall.URL + "/v1/merchant", "MPH_MERCHANT_ID=m", "MPH_SECRET_KEY=sk_test_x", "MPH_TIMEOUT=20s"}
	r := gateRun(t, env, 1500*time.Millisecond, syscall.SIGINT, "conform", "--out", dir, "--focus", oneSpec)
	expectCode(t, "interrupted during pre-flight", r, 130)
	if r.took > 3*time.Second {
		t.Errorf("exit %v after the signal", r.took)
	}
	s := readSummary(t, filepath.Join(dir, "report.summary.json"))
	if !s.Interrupted || s.Selected == 0 || s.NotRun != s.Selected {
		t.Errorf("summary: interrupted %v selected %d not run %d", s.Interrupted, s.Selected, s.NotRun)
	}
}
