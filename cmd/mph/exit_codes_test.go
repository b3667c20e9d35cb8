package main

import (
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/merchant-harness/mph/exitcode"
	"github.com/merchant-harness/mph/loadtest/summary"
	"github.com/merchant-harness/mph/sandbox/variant"
	"github.com/merchant-harness/mph/selftest"
)

// The exit-code contract (0 passed, 1 a rule failed or a threshold was
// breached, 2 usage, configuration, pre-flight refusal or empty selection,
// 3 harness errors only, 130 interrupted) for the command/exit pairs the
// other tests leave out. Each is produced by a real cause: a sandbox fault,
// a slowed or rate-limited sandbox, a profile, or a path that cannot be
// written.

// envValue is the value of name in an MPH_* environment list.
func envValue(env []string, name string) string {
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, name+"="); ok {
			return v
		}
	}
	return ""
}

// sandboxPut sends a PUT to a sandboxEnv sandbox's test controls.
func sandboxPut(t *testing.T, env []string, path, body string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPut, envValue(env, "MPH_CONTROLS_URL")+path, strings.NewReader(body))
	req.Header.Set("X-Sandbox-Admin-Key", envValue(env, "MPH_ADMIN_KEY"))
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("PUT %s: %v", path, err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("PUT %s: %s", path, resp.Status)
	}
}

// unwritable is a directory path that cannot be made: it lies under a
// regular file.
func unwritable(t *testing.T) string {
	t.Helper()
	file := filepath.Join(t.TempDir(), "a-file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	return filepath.Join(file, "out")
}

func readLoadReport(t *testing.T, dir string) *summary.Report {
	t.Helper()
	r, err := summary.ReadReport(filepath.Join(dir, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestProbeExitCodes: 429 answers in plain text are a gateway's under the
// profile's default (rateLimits.envelope: optional): counted apart, exit 0;
// under envelope: required they break RATE-02 and the probe exits 1 (the
// list group limited to 200/s, burst 10, so the ladder finds it at its
// third step; about 13 s each); a probe that finds no limit up to
// --max-rate has nothing to judge and exits 0; one that cannot write its
// reports exits 3. TestProbeBreaches (loadtest/gate) covers the verdict's parts.
func TestProbeExitCodes(t *testing.T) {
	dir := t.TempDir()
	env := sandboxEnv(t, []string{"rate-limit-bare-429"}, nil)
	sandboxPut(t, env, "/rate-limits", `{"read":{"rate":200,"burst":10}}`)
	strict := filepath.Join(dir, "strict.yaml")
	if err := os.WriteFile(strict, []byte("rateLimits:\n  envelope: required\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	probe := func(out string, extra ...string) runResult {
		return gateRun(t, env, 0, 0, append([]string{"load", "probe-rate-limit", "--scenario", "list", "--quiet", "--out", out,
			"--start-rate", "100", "--factor", "2", "--max-rate", "800", "--step-duration", "300ms",
			"--quiet-period", "300ms", "--polite", "0", "--topology=false"}, extra...)...)
	}
	out := filepath.Join(dir, "gateway")
	expectCode(t, "probe: bare 429, envelope optional", probe(out), 0)
	if rep := readLoadReport(t, out); rep.Probe == nil || len(rep.Probe.Paths) != 1 || rep.Probe.Paths[0].RATE02.Gateway == 0 ||
		rep.Probe.Paths[0].RATE02.Gateway != rep.Probe.Paths[0].RATE02.Seen {
		t.Errorf("probe of bare 429s, envelope optional: %+v", rep.Probe)
	}
	out = filepath.Join(dir, "bare")
	r := probe(out, "--profile", strict)
	expectCode(t, "probe: bare 429, envelope required", r, 1)
	rep := readLoadReport(t, out)
	if rep.Probe == nil || len(rep.Probe.Paths) != 1 || !rep.Probe.Paths[0].LimitFound || rep.Probe.Paths[0].RATE02.Envelope != 0 ||
		rep.Probe.Paths[0].RATE02.Broken != rep.Probe.Paths[0].RATE02.Seen {
		t.Errorf("probe of bare 429s, envelope required: %+v", rep.Probe)
	}
	if !strings.Contains(r.stderr, "break the error envelope (RATE-02)") || strings.Count(r.stderr, "\n") > 3 {
		t.Errorf("probe failure does not say why on one line:\n%s", r.stderr)
	}

	noLimit := func(out string) runResult {
		return gateRun(t, nil, 0, 0, "load", "probe-rate-limit", "--scenario", "list", "--quiet", "--no-rate-limits", "--out", out,
			"--start-rate", "20", "--max-rate", "30", "--step-duration", "500ms", "--polite", "0", "--topology=false")
	}
	out = filepath.Join(dir, "no-limit")
	expectCode(t, "probe: no limit found", noLimit(out), 0)
	if rep := readLoadReport(t, out); rep.Probe == nil || len(rep.Probe.Paths) != 1 || rep.Probe.Paths[0].LimitFound {
		t.Errorf("probe without a limit: %+v", rep.Probe)
	}
	expectCode(t, "probe: reports not written", noLimit(unwritable(t)), 3)
}

// TestCapacityExitCodes: a rate that meets the SLO and is confirmed exits 0
// (TestLoadExitCodes has the SLO missed). Reports that cannot be written are
// a harness error (3), unless the SLO was missed: that failure stands (1).
func TestCapacityExitCodes(t *testing.T) {
	capacity := func(out, p99 string) runResult {
		return gateRun(t, nil, 0, 0, "load", "capacity", "--scenario", "list", "--quiet", "--no-rate-limits", "--out", out,
			"--start-rate", "20", "--max-rate", "20", "--step-duration", "500ms", "--confirm-duration", "500ms",
			"--p99", p99, "--min-achieved", "0.5")
	}
	out := t.TempDir()
	expectCode(t, "capacity met", capacity(out, "5s"), 0)
	if c := readLoadReport(t, out).Capacity; c == nil || !c.Confirmed || c.Capacity != 20 {
		t.Errorf("capacity report: %+v", c)
	}
	expectCode(t, "capacity met, reports not written", capacity(unwritable(t), "5s"), 3)
	r := capacity(unwritable(t), "1ns")
	expectCode(t, "SLO missed, reports not written", r, 1)
	if !strings.Contains(r.stderr, "no rate meets the SLO") || !strings.Contains(r.stderr, "writing reports") {
		t.Errorf("stderr does not state both the failure and the unwritten reports:\n%s", r.stderr)
	}
}

// TestLoadReportNotWrittenExitCodes: a run whose JUnit report cannot be
// written exits 3 when it passed, and 1 when a threshold was breached: the
// failure stands.
func TestLoadReportNotWrittenExitCodes(t *testing.T) {
	load := func(threshold string) runResult {
		return gateRun(t, nil, 0, 0, "load", "--scenario", "list", "--rate", "20", "--duration", "1s", "--quiet", "--no-plot", "--no-results",
			"--threshold", threshold, "--out", t.TempDir(), "--junit-report", filepath.Join(unwritable(t), "junit.xml"))
	}
	expectCode(t, "load: passed, JUnit not written", load("list:success>=50%"), 3)
	r := load("list:p99<0.001ms")
	expectCode(t, "load: breached, JUnit not written", r, 1)
	if !strings.Contains(r.stderr, "threshold breached") || !strings.Contains(r.stderr, "--junit-report") {
		t.Errorf("stderr does not state both the breach and the unwritten report:\n%s", r.stderr)
	}
}

// TestCompareExitCodes: a run against a sandbox slowed by 100 ms regresses
// significantly against a run of the plain sandbox (exit 1); the other way
// round it is an improvement (exit 0); a malformed limit is a usage error;
// reports that cannot be written are a harness error (3).
// (load_shard_test.go compares a run with itself, exit 0.)
func TestCompareExitCodes(t *testing.T) {
	dir := t.TempDir()
	run := func(name string, env []string) string {
		out := filepath.Join(dir, name)
		r := gateRun(t, env, 0, 0, "load", "--scenario", "list", "--rate", "40", "--duration", "1s", "--quiet", "--no-plot", "--no-results", "--out", out)
		expectCode(t, "load "+name, r, 0)
		return out
	}
	fast := run("fast", sandboxEnv(t, nil, nil))
	slow := run("slow", slowSandboxEnv(t, 100*time.Millisecond))
	compare := func(args ...string) runResult {
		return gateRun(t, nil, 0, 0, append([]string{"load", "compare", "--out", filepath.Join(dir, "cmp")}, args...)...)
	}
	r := compare("--max-regression", "p99=10%", fast, slow)
	expectCode(t, "compare: slower", r, 1)
	if !strings.Contains(r.stderr, "REGRESSION") || !strings.Contains(r.stdout, "p99=10%") || !strings.Contains(r.stdout, "**REGRESSION**") {
		t.Errorf("the regression is not stated, or not on p99:\n%s", r.stdout)
	}
	expectCode(t, "compare: faster", compare("--max-regression", "p99=10%", slow, fast), 0)
	expectCode(t, "compare: malformed limit", compare("--max-regression", "p99", fast, slow), 2)
	r = gateRun(t, nil, 0, 0, "load", "compare", "--out", unwritable(t), fast, slow)
	expectCode(t, "compare: reports not written", r, 3)

	// merge (TestLoadExitCodes has 0, 1 and 2): reports that cannot be
	// written are a harness error, unless a threshold was breached.
	merge := func(args ...string) runResult {
		return gateRun(t, nil, 0, 0, append([]string{"load", "merge", "--no-results", "--out", unwritable(t)}, args...)...)
	}
	expectCode(t, "merge: reports not written", merge(fast), 3)
	expectCode(t, "merge: breached, reports not written", merge("--threshold", "all:p99<0.001ms", fast), 1)
}

// variantProfile is the profile a document-allowed variant needs.
func variantProfile(t *testing.T, name string) string {
	t.Helper()
	for _, v := range variant.Variants() {
		if v.Name == name && v.Profile != "" {
			return v.Profile
		}
	}
	t.Fatalf("no variant %s with a profile", name)
	return ""
}

// TestSelftestIgnoresTheUsersEnvironmentAndExitsOnBrokenRuns: a user's
// MPH_* settings (here a profile that misdescribes the clean sandbox) never
// reach the child runs, so the verdict stands (0); selftest exits 3 when
// only runs broke: the work directory cannot be made, the clean run's report
// cannot be written, or a variant's profile cannot be written. Each run is
// the clean suite (about 2 s) at most. Exit 1 (a spec failed the clean
// sandbox, a fault survived, a variant failed) is TestSelftestVerdict's.
func TestSelftestIgnoresTheUsersEnvironmentAndExitsOnBrokenRuns(t *testing.T) {
	const variant = "frozen-secure-403"
	dir := t.TempDir()
	mkdir := func(p string) string {
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	profile := filepath.Join(dir, "variant.yaml")
	if err := os.WriteFile(profile, []byte(variantProfile(t, variant)), 0o644); err != nil {
		t.Fatal(err)
	}
	r := gateRun(t, []string{"MPH_PROFILE=" + profile, "MPH_TIMEOUT=1ms"}, 0, 0, "selftest", "--fault", "none", "--variant", "none")
	expectCode(t, "selftest with the user's MPH_PROFILE and MPH_TIMEOUT set", r, 0)

	cleanBlocked := mkdir(filepath.Join(dir, "clean-blocked"))
	mkdir(filepath.Join(cleanBlocked, "clean.json")) // the child cannot write its report there
	variantBlocked := mkdir(filepath.Join(dir, "variant-blocked"))
	mkdir(filepath.Join(variantBlocked, "variant-"+variant+".profile.yaml"))
	for _, c := range []struct {
		name string
		args []string
		says string
	}{
		{"work directory", []string{"--out", unwritable(t), "--fault", "none", "--variant", "none"}, "self-test:"},
		{"clean run broke", []string{"--out", cleanBlocked, "--fault", "none", "--variant", "none"}, "the clean run broke"},
		{"variant run broke", []string{"--out", variantBlocked, "--fault", "none", "--variant", variant}, "1 variant run(s) broke"},
	} {
		r := gateRun(t, nil, 0, 0, append([]string{"selftest"}, c.args...)...)
		expectCode(t, "selftest: "+c.name, r, 3)
		if !strings.Contains(r.stderr, c.says) {
			t.Errorf("selftest %s: stderr does not say %q:\n%s", c.name, c.says, r.stderr)
		}
	}
}

// TestConformReportNotWrittenExitCode: a run that passes but cannot write a
// report exits 3, not 0: the gate's artifacts are incomplete. A run that
// failed still exits 1.
func TestConformReportNotWrittenExitCode(t *testing.T) {
	for _, c := range []struct {
		name string
		env  []string
		want int
	}{
		{"passed", nil, 3},
		{"failed", sandboxEnv(t, []string{"error-reason-phrase-wrong"}, nil), 1},
	} {
		out := t.TempDir()
		if err := os.MkdirAll(filepath.Join(out, "report.json"), 0o755); err != nil {
			t.Fatal(err)
		}
		r := gateRun(t, c.env, 0, 0, "conform", "--out", out, "--focus", oneSpec)
		expectCode(t, "conform "+c.name+", report not written", r, c.want)
		if !strings.Contains(r.stderr, "mph: writing "+filepath.Join(out, "report.json")) {
			t.Errorf("%s: stderr does not name the report not written:\n%s", c.name, r.stderr)
		}
	}
}

// TestProxyReportNotWrittenExitCodes: a session whose reports cannot be
// written exits 3 when clean, and 1 when it saw violations on the
// --fail-on side: they stand.
func TestProxyReportNotWrittenExitCodes(t *testing.T) {
	env := sandboxEnv(t, nil, nil)
	for _, c := range []struct {
		name    string
		badCall bool
		want    int
	}{
		{"clean", false, 3},
		{"client violation", true, 1},
	} {
		addr, out := freeAddr(t), unwritable(t)
		done := make(chan runResult, 1)
		go func() {
			done <- gateRun(t, nil, 0, 0, "proxy", "--base-url", envValue(env, "MPH_BASE_URL"), "--listen", addr,
				"--out", out, "--fail-on", "client", "--duration", "1500ms")
		}()
		waitListening(t, addr)
		req, _ := http.NewRequest(http.MethodGet, "http://"+addr+"/v1/merchant/cards/config", nil)
		if !c.badCall {
			req.Header.Set("Authorization", "Bearer eyJhbGciOiJIUzI1NiJ9.e30.sig")
		}
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
		}
		r := <-done
		expectCode(t, "proxy "+c.name+", reports not written", r, c.want)
		if !strings.Contains(r.stderr, "writing reports") {
			t.Errorf("%s: stderr does not say the reports were not written:\n%s", c.name, r.stderr)
		}
	}
}

// TestSmallCommandsExitCodes: sweep, profile discover, sandbox, openapi and
// version exit 0 when they did their job and 2 on usage, configuration or a
// pre-flight refusal.
func TestSmallCommandsExitCodes(t *testing.T) {
	dir := t.TempDir()
	unreachable := []string{"MPH_BASE_URL=http://127.0.0.1:1/v1/merchant", "MPH_MERCHANT_ID=m", "MPH_SECRET_KEY=sk_test_x"}
	for _, c := range []struct {
		name string
		env  []string
		args []string
		want int
	}{
		{"sweep without --run-id", nil, []string{"sweep"}, 2},
		{"sweep pre-flight refusal", unreachable, []string{"sweep", "--run-id", "mphx"}, 2},
		{"sweep extra argument", nil, []string{"sweep", "--run-id", "mphx", "extra"}, 2},
		{"discover", nil, []string{"profile", "discover", "--skip-purchase", "-o", filepath.Join(dir, "p.yaml")}, 0},
		{"discover pre-flight refusal", unreachable, []string{"profile", "discover", "--skip-purchase"}, 2},
		{"discover unknown flag", nil, []string{"profile", "discover", "--no-such-flag"}, 2},
		{"sandbox list", nil, []string{"sandbox", "--list-faults"}, 0},
		{"sandbox bad format", nil, []string{"sandbox", "--list-faults", "--format", "xml"}, 2},
		{"sandbox unknown fault", nil, []string{"sandbox", "--addr", "127.0.0.1:0", "--fault", "no-such-fault"}, 2},
		{"sandbox extra argument", nil, []string{"sandbox", "extra"}, 2},
		{"openapi", nil, []string{"openapi", "-o", filepath.Join(dir, "api.json")}, 0},
		{"openapi missing profile", nil, []string{"openapi", "--profile", filepath.Join(dir, "none.yaml")}, 2},
		{"version", nil, []string{"version"}, 0},
		{"version unknown flag", nil, []string{"version", "--no-such-flag"}, 2},
		{"version extra argument", nil, []string{"version", "extra"}, 2},
	} {
		expectCode(t, c.name, gateRun(t, c.env, 0, 0, c.args...), c.want)
	}
}

// TestExitKeepVerdict: a verdict (1, 130) stands over harness errors; alone,
// the first harness error is exit 3; nil harness errors are ignored.
func TestExitKeepVerdict(t *testing.T) {
	harm := errors.New("writing reports: disk full")
	code := func(err error) int {
		var ee *exitError
		if err == nil {
			return exitcode.OK
		}
		if errors.As(err, &ee) {
			return ee.code
		}
		return -1
	}
	for _, c := range []struct {
		name      string
		verdict   error
		harness   []error
		want      int
		printed   bool
		wantInErr string
	}{
		{"nothing", nil, []error{nil, nil}, exitcode.OK, false, ""},
		{"harness error alone", nil, []error{nil, harm}, exitcode.Harness, false, "disk full"},
		{"failure stands", failuresErr("1 failed"), []error{harm}, exitcode.Failed, true, "1 failed"},
		{"interrupt stands", interruptedErr("interrupted"), []error{harm}, exitcode.Interrupted, true, "interrupted"},
		{"failure alone", failuresErr("1 failed"), nil, exitcode.Failed, false, "1 failed"},
	} {
		var stderr strings.Builder
		err := keepVerdict(&stderr, c.verdict, c.harness...)
		if code(err) != c.want || (err != nil && !strings.Contains(err.Error(), c.wantInErr)) {
			t.Errorf("%s: %v (exit %d), want exit %d", c.name, err, code(err), c.want)
		}
		if printed := strings.Contains(stderr.String(), "disk full"); printed != c.printed {
			t.Errorf("%s: stderr %q", c.name, stderr.String())
		}
	}
}

// TestSelftestVerdict: the self-test's matrix → exit code. 1 when the suites
// are wrong (a spec failed the clean sandbox, a fault survived, a variant
// failed), also beside broken runs; 3 when only runs broke; 130 when
// interrupted; 0 when everything holds.
func TestSelftestVerdict(t *testing.T) {
	ok := func() *selftest.Matrix {
		return &selftest.Matrix{CleanOK: true, CleanSandboxOK: true, Killed: 2, Total: 2,
			Specificity: selftest.Specificity{VariantsPassed: 1, VariantsTotal: 1}}
	}
	broken := selftest.Entry{Run: selftest.Run{Error: "exit status 2"}}
	for _, c := range []struct {
		name   string
		change func(m *selftest.Matrix)
		want   int
		says   string
	}{
		{"all holds", func(*selftest.Matrix) {}, exitcode.OK, ""},
		{"clean sandbox failed a spec", func(m *selftest.Matrix) {
			m.CleanOK, m.Clean.Failed = false, []string{"spec A"}
		}, exitcode.Failed, "the clean sandbox did not pass"},
		{"a fault survived", func(m *selftest.Matrix) {
			m.Killed, m.Survivors = 1, []selftest.Entry{{}}
		}, exitcode.Failed, "1 fault(s) survived"},
		{"a variant failed", func(m *selftest.Matrix) {
			m.VariantsPassed, m.FalsePositives = 0, []selftest.VariantEntry{{}}
		}, exitcode.Failed, "false positives"},
		{"a survivor beside a broken run", func(m *selftest.Matrix) {
			m.Killed, m.Survivors, m.Errors = 0, []selftest.Entry{{}}, []selftest.Entry{broken}
		}, exitcode.Failed, "1 run(s) broke"},
		{"only a run broke", func(m *selftest.Matrix) {
			m.Killed, m.Errors = 1, []selftest.Entry{broken}
		}, exitcode.Harness, "1 run(s) broke"},
		{"the clean run broke", func(m *selftest.Matrix) { m.CleanOK = false }, exitcode.Harness, "the clean run broke"},
		{"the clean run under the sandbox's profile failed a spec", func(m *selftest.Matrix) {
			m.CleanSandboxOK, m.CleanSandbox.Failed = false, []string{"spec A"}
		}, exitcode.Failed, "the clean sandbox did not pass"},
		{"a seed failed", func(m *selftest.Matrix) {
			m.SeedsTotal, m.FailedSeeds = 1, []selftest.SeedEntry{{Seed: 7}}
		}, exitcode.Failed, "1 seed(s) failed"},
		{"interrupted", func(m *selftest.Matrix) { m.Interrupted, m.Killed = true, 0 }, exitcode.Interrupted, "interrupted"},
	} {
		m := ok()
		c.change(m)
		err := selftestVerdict(m)
		got := exitcode.OK
		var ee *exitError
		if errors.As(err, &ee) {
			got = ee.code
		} else if err != nil {
			got = -1
		}
		if got != c.want || (err != nil && !strings.Contains(err.Error(), c.says)) {
			t.Errorf("%s: %v (exit %d), want exit %d saying %q", c.name, err, got, c.want, c.says)
		}
	}
}
