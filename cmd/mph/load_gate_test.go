package main

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/merchant-harness/mph/exitcode"
	"github.com/merchant-harness/mph/loadtest"
	"github.com/merchant-harness/mph/loadtest/summary"
	"github.com/merchant-harness/mph/sandbox"
)

// `mph load` exits: a LIVE token without --allow-live is refused (exit 2)
// before any write; a target answering 200 text/html or only errors fails
// the default success gate (exit 1).
func TestLoadGateExits(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	dir := t.TempDir()
	bin := mphBinary(t) // built once per test binary
	sbx, err := sandbox.New(sandbox.Options{DisableRateLimits: true})
	if err != nil {
		t.Fatal(err)
	}
	var writes atomic.Int64
	live := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && !strings.HasSuffix(r.URL.Path, "/auth/token") {
			writes.Add(1)
		}
		sbx.ServeHTTP(w, r)
	}))
	defer live.Close()
	html := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		_, _ = w.Write([]byte("<html>fine</html>"))
	}))
	defer html.Close()
	broken := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, "no", http.StatusServiceUnavailable)
	}))
	defer broken.Close()
	m := sandbox.DemoMerchants()[0]
	cases := []struct {
		name, base, key, scenario string
		extra                     []string
		code                      int
		stderr                    string
	}{
		{"LIVE secure without --allow-live", live.URL + sbx.BasePath(), m.LiveKey, "secure", nil, 2, "--allow-live"},
		{"LIVE mixed without --allow-live", live.URL + sbx.BasePath(), m.LiveKey, "mixed", nil, 2, "--allow-live"},
		{"HTML 200 target", html.URL + "/v1/merchant", "sk_test_x", "token", nil, 1, "threshold breached"},
		{"0% success with a permissive user gate", broken.URL + "/v1/merchant", "sk_test_x", "token", []string{"--threshold", "all:success>=0%"}, 1, "threshold breached"},
		{"LIVE list is a read", live.URL + sbx.BasePath(), m.LiveKey, "list", nil, 0, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "_"))
			cmd := exec.CommandContext(context.Background(), bin, append([]string{"load", "--scenario", c.scenario, "--rate", "50", "--duration", "1s",
				"--quiet", "--no-plot", "--no-results", "--out", out}, c.extra...)...)
			cmd.Env = append(os.Environ(), "MPH_BASE_URL="+c.base, "MPH_MERCHANT_ID="+m.ID, "MPH_SECRET_KEY="+c.key, "MPH_ALLOW_LIVE=")
			var stdout, stderr strings.Builder
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			_ = cmd.Run()
			if got := cmd.ProcessState.ExitCode(); got != c.code {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", got, c.code, stdout.String(), stderr.String())
			}
			if !strings.Contains(stderr.String(), c.stderr) {
				t.Fatalf("stderr lacks %q:\n%s", c.stderr, stderr.String())
			}
			if c.code == 2 && strings.Count(strings.TrimSpace(stderr.String()), "\n") != 0 {
				t.Fatalf("refusal is not one line:\n%s", stderr.String())
			}
			if c.code == 1 && !strings.Contains(stdout.String(), "FAIL") {
				t.Fatalf("no failed gate printed:\n%s", stdout.String())
			}
		})
	}
	// probe-rate-limit and capacity refuse the same way.
	for _, sub := range []string{"probe-rate-limit", "capacity"} {
		cmd := exec.Command(bin, "load", sub, "--scenario", "secure", "--quiet", "--out", filepath.Join(dir, sub))
		cmd.Env = append(os.Environ(), "MPH_BASE_URL="+live.URL+sbx.BasePath(), "MPH_MERCHANT_ID="+m.ID, "MPH_SECRET_KEY="+m.LiveKey, "MPH_ALLOW_LIVE=")
		b, _ := cmd.CombinedOutput()
		if got := cmd.ProcessState.ExitCode(); got != 2 || !strings.Contains(string(b), "--allow-live") {
			t.Fatalf("mph load %s with a LIVE key: exit %d\n%s", sub, got, b)
		}
	}
	if n := writes.Load(); n != 0 {
		t.Fatalf("%d writes reached the LIVE target without --allow-live", n)
	}
}

// An interrupted setup writes a report marked interrupted with what was
// swept; a LIVE refusal is a usage refusal (exit 2) with no report.
func TestSetupFailedReports(t *testing.T) {
	dir := t.TempDir()
	cmd := &cobra.Command{}
	var stderr strings.Builder
	cmd.SetErr(&stderr)
	tg := &loadtest.Target{BaseURL: "http://127.0.0.1:1/v1/merchant"}
	se := &loadtest.SetupError{Err: errors.New("setup: issuing card 4 of 10: context canceled"), Interrupted: true,
		Notes: []string{"secure: setup did not complete; swept the balance of 3 of 3 cards back to the vault"}}
	err := setupFailed(cmd, tg, "secure", "load", filepath.Join(dir, "int"), time.Now(), se)
	var ee *exitError
	if !errors.As(err, &ee) || ee.code == exitcode.OK || ee.code == exitcode.Usage {
		t.Fatalf("interrupted setup: %v", err)
	}
	rep, rerr := summary.ReadReport(filepath.Join(dir, "int", "summary.json"))
	if rerr != nil || !rep.Interrupted || len(rep.Notes) != 1 || !strings.Contains(rep.Notes[0], "swept the balance of 3 of 3") {
		t.Fatalf("report: %v %+v", rerr, rep)
	}
	err = setupFailed(cmd, tg, "secure", "load", filepath.Join(dir, "live"), time.Now(), &loadtest.LiveRefusal{Scenario: "secure", Environment: "LIVE"})
	if !errors.As(err, &ee) || ee.code != exitcode.Usage {
		t.Fatalf("LIVE refusal: %v", err)
	}
	if _, serr := os.Stat(filepath.Join(dir, "live")); serr == nil {
		t.Fatal("a LIVE refusal wrote a report")
	}
}
