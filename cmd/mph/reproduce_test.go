package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestPreflightReproduceLine: the line printed when pre-flight refuses the
// credentials is valid shell in the README's variables and, run with them,
// gets the refusal pre-flight got (401); with the right key, a token.
func TestPreflightReproduceLine(t *testing.T) {
	if _, err := exec.LookPath("curl"); err != nil {
		t.Skip("needs curl")
	}
	env := sandboxEnv(t, nil, nil)
	wrong := append(append([]string{}, env...), "MPH_SECRET_KEY=sk_test_wrong_key_0123456789")
	r := gateRun(t, wrong, 0, 0, "conform", "--out", t.TempDir(), "--focus", oneSpec)
	expectCode(t, "wrong key", r, 2)
	_, after, ok := strings.Cut(r.stderr, "reproduce the pre-flight token exchange")
	if !ok {
		t.Fatalf("no reproduce line:\n%s", r.stderr)
	}
	lines := strings.Split(after, "\n")
	if len(lines) < 2 {
		t.Fatalf("no reproduce line:\n%s", r.stderr)
	}
	line := strings.TrimSpace(lines[1])
	for _, v := range []string{"$MPH_BASE_URL", "$MPH_MERCHANT_ID", "$MPH_SECRET_KEY"} {
		if !strings.Contains(line, v) {
			t.Errorf("the line does not use %s: %s", v, line)
		}
	}
	if out, err := exec.Command("bash", "-n", "-c", line).CombinedOutput(); err != nil {
		t.Fatalf("bash -n: %v %s\n%s", err, out, line)
	}
	for _, c := range []struct {
		env  []string
		want string
	}{{wrong, "401"}, {env, "200"}} {
		cmd := exec.Command("bash", "-c", line+` -o /dev/null -w '%{http_code}' --max-time 10`)
		cmd.Env = append(os.Environ(), c.env...)
		cmd.WaitDelay = 5 * time.Second
		out, err := cmd.Output()
		if err != nil || strings.TrimSpace(string(out)) != c.want {
			t.Errorf("running the line: HTTP %s (%v), want %s\n%s", out, err, c.want, line)
		}
	}
}
