package probe

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/merchant-harness/mph/httpclient"
	"github.com/merchant-harness/mph/loadtest"
	"github.com/merchant-harness/mph/loadtest/internal/testtarget"
)

var sandboxdBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "sandboxd")
	if err == nil {
		bin := filepath.Join(dir, "sandboxd")
		// Built without -race: the integration tests measure a normal server.
		cmd := exec.Command("go", "build", "-o", bin, "github.com/merchant-harness/mph/loadtest/internal/sandboxd")
		cmd.Stderr = os.Stderr
		if cmd.Run() == nil {
			sandboxdBin = bin
		}
	}
	code := m.Run()
	if dir != "" {
		os.RemoveAll(dir)
	}
	os.Exit(code)
}

// startExternalSandbox runs the sandbox in its own (non-race) process.
func startExternalSandbox(t *testing.T, args ...string) *loadtest.Target {
	t.Helper()
	if sandboxdBin == "" {
		t.Fatal("sandboxd was not built")
	}
	cmd := exec.Command(sandboxdBin, args...)
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stdin.Close(); _ = cmd.Wait() })
	line, err := bufio.NewReader(stdout).ReadBytes('\n')
	if err != nil {
		t.Fatalf("sandboxd: %v", err)
	}
	var info struct{ BaseURL, ControlsURL, AdminKey string }
	if err := json.Unmarshal(line, &info); err != nil {
		t.Fatal(err)
	}
	return testtarget.Demo(info.BaseURL, info.ControlsURL, info.AdminKey)
}

// The probe must report the sandbox's configured limit within ±10%.
func TestProbeDetectsConfiguredRateLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("integration")
	}
	for _, R := range []float64{20, 100, 500} {
		t.Run(fmt.Sprintf("R=%g", R), func(t *testing.T) {
			t.Parallel()
			tg := startExternalSandbox(t, "-rate-limit", fmt.Sprintf("secure=%g:%d", R, int(R)))
			scn := testtarget.Prepare(t, tg, "secure", 5)
			pp, err := Path(context.Background(), scn, PathOptions{
				StartRate: R / 2, StepDur: 2 * time.Second, Quiet: 1200 * time.Millisecond, FineFrom: 0.9, FineMinReq: 60,
				Attack: loadtest.AttackOptions{LoadOptions: httpclient.LoadOptions{MaxConnections: 256}},
			})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("R=%v onset=%.1f ceiling=%.1f burst=%.0f honoured=%v 429s %+v headers=%v",
				R, pp.OnsetRate, pp.Ceiling, pp.Burst, pp.Honoured, pp.RATE02, pp.Headers)
			if !pp.LimitFound || math.Abs(pp.OnsetRate-R)/R > 0.10 {
				t.Fatalf("onset %.1f req/s, want %v ± 10%% (steps %+v)", pp.OnsetRate, R, pp.Steps)
			}
			if math.Abs(pp.Ceiling-R)/R > 0.10 {
				t.Errorf("accepted ceiling %.1f, want %v ± 10%%", pp.Ceiling, R)
			}
			if j := pp.RATE02; j.Seen == 0 || j.Envelope != j.Seen || pp.Sampled429 == 0 {
				t.Errorf("429s by RATE-02: %+v, want every one in the error envelope (%d headers sampled)", j, pp.Sampled429)
			}
			if pp.RetryAfter == "" || pp.HeaderPresence["X-Ratelimit-Limit"] != 1 {
				t.Errorf("rate-limit headers not seen: %v", pp.HeaderPresence)
			}
			if !pp.Honoured {
				t.Errorf("Retry-After not honoured: %d then %d", pp.JustBefore, pp.AfterWait)
			}
		})
	}
}
