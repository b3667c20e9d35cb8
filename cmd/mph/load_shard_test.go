package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/merchant-harness/mph/sandbox"
)

type shardSummary struct {
	Shard     string `json:"shard"`
	Endpoints []struct {
		Endpoint    string            `json:"endpoint"`
		Requests    uint64            `json:"requests"`
		StatusCodes map[string]uint64 `json:"statusCodes"`
	} `json:"endpoints"`
	Thresholds []struct {
		Pass bool `json:"pass"`
	} `json:"thresholds"`
	Notes []string `json:"notes"`
}

func readShardSummary(t *testing.T, dir string) shardSummary {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	var s shardSummary
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	return s
}

func requestsOf(s shardSummary, ep string) uint64 {
	for _, e := range s.Endpoints {
		if e.Endpoint == ep {
			return e.Requests
		}
	}
	return 0
}

// Several `mph load --shard i/n` processes with a common --start-at, then
// `mph load merge`: the merged counts equal the sum of the shards, and the
// whole schedule is sent exactly once.
func TestLoadShardsThenMerge(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and runs several processes")
	}
	dir := t.TempDir()
	bin := mphBinary(t) // built once per test binary
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sbx, err := sandbox.Start(ctx, "127.0.0.1:0", sandbox.Options{DisableRateLimits: true})
	if err != nil {
		t.Fatal(err)
	}
	defer sbx.Close()
	m := sandbox.DemoMerchants()[0]
	env := append(os.Environ(), "MPH_BASE_URL="+sbx.BaseURL, "MPH_MERCHANT_ID="+m.ID, "MPH_SECRET_KEY="+m.TestKey)

	const n, rate, dur = 3, 150, 2 // 300 requests in all
	startAt := time.Now().Add(4 * time.Second).UTC().Format(time.RFC3339Nano)
	cmds := make([]*exec.Cmd, n)
	outs := make([]string, n)
	logs := make([]*strings.Builder, n)
	for i := 0; i < n; i++ {
		outs[i] = filepath.Join(dir, fmt.Sprintf("shard%d", i))
		c := exec.Command(bin, "load", "--scenario", "list", "--rate", fmt.Sprint(rate), "--duration", fmt.Sprintf("%ds", dur),
			"--shard", fmt.Sprintf("%d/%d", i, n), "--start-at", startAt, "--out", outs[i], "--quiet")
		c.Env = env
		logs[i] = &strings.Builder{}
		c.Stdout, c.Stderr = logs[i], logs[i]
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		cmds[i] = c
	}
	var sum uint64
	for i, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Fatalf("shard %d: %v\n%s", i, err, logs[i])
		}
		s := readShardSummary(t, outs[i])
		if s.Shard != fmt.Sprintf("%d/%d", i, n) {
			t.Fatalf("shard %d summary says %q", i, s.Shard)
		}
		sum += requestsOf(s, "list")
	}
	if sum != rate*dur {
		t.Fatalf("shards sent %d requests, schedule has %d", sum, rate*dur)
	}

	mergeDir := filepath.Join(dir, "merged")
	args := append([]string{"load", "merge", "--out", mergeDir, "--threshold", "list:success>=99%,all:requests>=300"}, outs...)
	c := exec.Command(bin, args...)
	out, err := c.CombinedOutput()
	if err != nil {
		t.Fatalf("merge: %v\n%s", err, out)
	}
	merged := readShardSummary(t, mergeDir)
	if got := requestsOf(merged, "list"); got != sum {
		t.Fatalf("merged list requests %d, sum of shards %d", got, sum)
	}
	if got := requestsOf(merged, "all"); got != sum {
		t.Fatalf("merged all requests %d, sum of shards %d", got, sum)
	}
	for _, th := range merged.Thresholds {
		if !th.Pass {
			t.Fatalf("merged thresholds failed:\n%s", out)
		}
	}
	// The merged raw results hold every shard's results.
	joined := strings.Join(merged.Notes, " ")
	if !strings.Contains(joined, fmt.Sprintf("raw results: %d results from %d files", sum, n)) {
		t.Fatalf("merged raw results: %q", joined)
	}
	// A breached global threshold exits 1.
	c = exec.Command(bin, append([]string{"load", "merge", "--no-results", "--out", filepath.Join(dir, "m2"), "--threshold", "all:requests>=301"}, outs...)...)
	if err := c.Run(); err == nil || c.ProcessState.ExitCode() != 1 {
		t.Fatalf("breached merge: err %v exit %d", err, c.ProcessState.ExitCode())
	}
	// A malformed threshold exits 2.
	c = exec.Command(bin, append([]string{"load", "merge", "--threshold", "all:p99<<1"}, outs...)...)
	if err := c.Run(); err == nil || c.ProcessState.ExitCode() != 2 {
		t.Fatalf("malformed threshold: err %v exit %d", err, c.ProcessState.ExitCode())
	}
	// An incomplete set of shards is refused (exit 2, naming the missing
	// shard); --force merges it and marks the report.
	c = exec.Command(bin, append([]string{"load", "merge", "--no-results", "--out", filepath.Join(dir, "m3")}, outs[:2]...)...)
	if b, err := c.CombinedOutput(); err == nil || c.ProcessState.ExitCode() != 2 || !strings.Contains(string(b), "shards missing: 2/3") {
		t.Fatalf("incomplete merge: err %v exit %d\n%s", err, c.ProcessState.ExitCode(), b)
	}
	c = exec.Command(bin, append([]string{"load", "merge", "--force", "--no-results", "--out", filepath.Join(dir, "m4")}, outs[:2]...)...)
	if b, err := c.CombinedOutput(); err != nil {
		t.Fatalf("forced merge: %v\n%s", err, b)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "m4", "summary.md")); !strings.Contains(string(b), "forced merge") {
		t.Fatalf("forced merge not marked:\n%s", b)
	}
	// compare: a run against itself has no regression (exit 0, Markdown on
	// stdout); a malformed limit or a non-run input is a usage error (exit 2).
	c = exec.Command(bin, "load", "compare", "--out", filepath.Join(dir, "cmp"), outs[0], outs[0])
	if b, err := c.Output(); err != nil || !strings.Contains(string(b), "no significant regression") {
		t.Fatalf("compare with itself: %v\n%s", err, b)
	}
	for _, args := range [][]string{
		{"--max-regression", "p99=10pp", outs[0], outs[1]},
		{outs[0], filepath.Join(dir, "nowhere")},
		{outs[0]},
	} {
		c = exec.Command(bin, append([]string{"load", "compare", "--out", filepath.Join(dir, "cmp2")}, args...)...)
		if b, err := c.CombinedOutput(); err == nil || c.ProcessState.ExitCode() != 2 {
			t.Fatalf("compare %v: err %v exit %d\n%s", args, err, c.ProcessState.ExitCode(), b)
		}
	}
	// `mph load` itself: a breached gate exits 1 (reports still written), a
	// malformed one or --shard without --start-at exits 2.
	for _, tc := range []struct {
		args []string
		code int
	}{
		{[]string{"--threshold", "list:p99<0.001ms"}, 1},
		{[]string{"--threshold", "list:p99<1s,list:success>=99%"}, 0},
		{[]string{"--threshold", "list:p99=1s"}, 2},
		{[]string{"--shard", "0/2"}, 2},
		{[]string{"--rate", "0"}, 2},
	} {
		out := filepath.Join(dir, fmt.Sprintf("gate%d", tc.code))
		c := exec.Command(bin, append([]string{"load", "--scenario", "list", "--rate", "50", "--duration", "1s", "--quiet", "--no-plot", "--out", out}, tc.args...)...)
		c.Env = env
		b, _ := c.CombinedOutput()
		if got := c.ProcessState.ExitCode(); got != tc.code {
			t.Fatalf("mph load %v: exit %d, want %d\n%s", tc.args, got, tc.code, b)
		}
		if tc.code == 1 {
			if _, err := os.Stat(filepath.Join(out, "report.html")); err != nil {
				t.Fatalf("breached run wrote no report: %v", err)
			}
		}
	}
}
