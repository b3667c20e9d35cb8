package selftest

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/merchant-harness/mph/sandbox/fault"
	"github.com/merchant-harness/mph/sandbox/variant"
	"github.com/onsi/ginkgo/v2/types"
)

// A child still running after its bound is interrupted, and killed when it
// ignores the interrupt; one that ends in time is left alone.
func TestWaitBoundedStopsAHungChild(t *testing.T) {
	defer func(s, k time.Duration) { stopGrace, killGrace = s, k }(stopGrace, killGrace)
	stopGrace, killGrace = 10*time.Millisecond, 300*time.Millisecond
	for _, c := range []struct {
		name   string
		script string
		bound  time.Duration
		timed  bool
	}{
		{"ends in time", "exit 0", time.Second, false},
		{"interrupted", "sleep 30", 50 * time.Millisecond, true},
		{"ignores the interrupt", "trap '' INT; sleep 30", 50 * time.Millisecond, true},
	} {
		cmd := exec.Command("sh", "-c", c.script)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		timed, _ := waitBounded(context.Background(), cmd, c.bound)
		if timed != c.timed {
			t.Errorf("%s: timed out %v, want %v", c.name, timed, c.timed)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("%s: waited %s", c.name, d)
		}
	}
}

// A bounded child gets its bound as its deadline.
func TestConformArgsCarryTheBound(t *testing.T) {
	args := strings.Join(conformArgs(Job{ReportPath: "/w/x.json", Bound: 90 * time.Second}), " ")
	if !strings.Contains(args, "--deadline 1m30s") {
		t.Errorf("args %q lack the deadline", args)
	}
	if strings.Contains(strings.Join(conformArgs(Job{ReportPath: "/w/x.json"}), " "), "--deadline") {
		t.Error("an unbounded child got a deadline")
	}
}

// A stopped run names the spec its report shows interrupted.
func TestRunningAtStopNamesTheSpec(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "r.json")
	rep := types.Report{SpecReports: types.SpecReports{
		{LeafNodeType: types.NodeTypeIt, LeafNodeText: "done", State: types.SpecStatePassed},
		{LeafNodeType: types.NodeTypeIt, LeafNodeText: "lists every customer", State: types.SpecStateInterrupted},
	}}
	b, _ := json.Marshal([]types.Report{rep})
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if got := runningAtStop(path, nil); !strings.Contains(got, "lists every customer") || strings.Contains(got, "done") {
		t.Errorf("runningAtStop = %q", got)
	}
	if got := runningAtStop(filepath.Join(dir, "none.json"), []byte("dots....")); !strings.Contains(got, "dots") {
		t.Errorf("without a report: %q", got)
	}
}

// Execute reports a run its runner says ran out of time as broken.
func TestExecuteReportsATimedOutRunBroken(t *testing.T) {
	m, err := Execute(context.Background(), Options{
		Faults: []fault.Fault{}, Variants: []variant.Variant{}, Seeds: []uint64{}, Parallel: 1, Bound: time.Minute,
		Run: func(ctx context.Context, j Job) (Outcome, error) {
			if j.Bound != time.Minute {
				t.Errorf("job bound %s", j.Bound)
			}
			return Outcome{ExitCode: 130, TimedOut: true, Output: []byte("....")}, nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if m.CleanOK || !strings.Contains(m.Clean.Error, "did not end within its bound of 1m0s") {
		t.Errorf("clean run: %+v", m.Clean)
	}
}
