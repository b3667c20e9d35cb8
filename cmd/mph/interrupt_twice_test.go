package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/merchant-harness/mph/result"
	"github.com/merchant-harness/mph/sandbox"
)

// syncBuffer is a buffer a test can read while a child writes to it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}
func (s *syncBuffer) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

// TestSecondInterruptStillWritesReports: a second Ctrl-C during the
// teardown cuts it short, but the reports are still written (marked
// interrupted, the unswept cards listed) and the run says which run id to
// sweep; mph sweep then returns the money (it exited with no report and left
// funded cards).
func TestSecondInterruptStillWritesReports(t *testing.T) {
	r, err := sandbox.Start(context.Background(), "127.0.0.1:0", sandbox.Options{DisableRateLimits: true})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	out := t.TempDir()
	const runID = "mphtwice1"
	cmd := exec.Command(mphBinary(t), "conform", "--no-color", "--out", out, "--run-id", runID, "--max-rps", "40", "--focus", "Card issuance|Withdrawal|Card model")
	cmd.Env = append(os.Environ(), runningEnv(r)...)
	var buf syncBuffer
	cmd.Stdout, cmd.Stderr = &buf, &buf
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	alpha := sandbox.DemoMerchants()[0].ID
	deadline := time.Now().Add(30 * time.Second)
	for readBalances(t, r, alpha).Count < 4 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	setLatency(t, r, 400*time.Millisecond) // a slow teardown
	_ = cmd.Process.Signal(os.Interrupt)
	for !strings.Contains(buf.String(), "sweeping the money") && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	time.Sleep(100 * time.Millisecond)
	second := time.Now()
	_ = cmd.Process.Signal(os.Interrupt)
	err = cmd.Wait()
	setLatency(t, r, 0)
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 130 {
		t.Fatalf("want exit 130, got %v:\n%s", err, tail(buf.String()))
	}
	if took := time.Since(second); took > 10*time.Second {
		t.Fatalf("the second Ctrl-C took %s to end the run", took)
	}
	var sum result.Summary
	b, err := os.ReadFile(filepath.Join(out, "report.summary.json"))
	if err != nil || json.Unmarshal(b, &sum) != nil || !sum.Interrupted || sum.Money == nil {
		t.Fatalf("no interrupted summary with money after the second Ctrl-C (%v):\n%s", err, tail(buf.String()))
	}
	if sum.Money.Teardown != "incomplete" || len(sum.Money.Unswept) == 0 || !strings.Contains(buf.String(), "mph sweep --run-id "+runID) {
		t.Fatalf("the cut teardown is not reported (teardown %q, %d unswept):\n%s", sum.Money.Teardown, len(sum.Money.Unswept), tail(buf.String()))
	}
	sw := exec.Command(mphBinary(t), "sweep", "--run-id", runID)
	sw.Env = append(os.Environ(), runningEnv(r)...)
	if b, err := sw.CombinedOutput(); err != nil {
		t.Fatalf("mph sweep after the cut teardown: %v\n%s", err, b)
	}
	if left := readBalances(t, r, alpha).Cards; int64(left) > 9*int64(sum.Money.CardsCreated) {
		t.Fatalf("after mph sweep the cards still hold %s USD", left)
	}
}

func setLatency(t *testing.T, r *sandbox.Running, d time.Duration) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPut, r.ControlsURL+"/latency", strings.NewReader(fmt.Sprintf(`{"ms":%d}`, d.Milliseconds())))
	req.Header.Set("X-Sandbox-Admin-Key", r.AdminKey)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("setting the sandbox latency: %v %v", err, resp)
	}
	resp.Body.Close()
}
