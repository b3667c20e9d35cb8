package k8s

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/merchant-harness/mph/sandbox"
)

type summary struct {
	Kind       string `json:"kind"`
	Endpoints  []endpoint
	Thresholds []struct {
		Raw  string `json:"threshold"`
		Pass bool   `json:"pass"`
	} `json:"thresholds"`
	ForcedMerge []string `json:"forcedMerge"`
}

type endpoint struct {
	Endpoint     string  `json:"endpoint"`
	Requests     float64 `json:"requests"`
	OfferedRate  float64 `json:"offeredRate"`
	AchievedRate float64 `json:"achievedRate"`
	SuccessRatio float64 `json:"successRatio"`
	Latency      struct {
		P50 float64 `json:"p50Ms"`
	} `json:"latency"`
}

func readSummary(t *testing.T, dir string) summary {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	var s summary
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	return s
}

func (s summary) ep(name string) endpoint {
	for _, e := range s.Endpoints {
		if e.Endpoint == name {
			return e
		}
	}
	return endpoint{}
}

// podArgs expands the container's $(VAR) references as the kubelet does and
// maps the results volume onto dir; overrides are appended (the last value
// of a flag wins), scaling the run down to this machine.
func podArgs(args []string, env map[string]string, mount, dir string, overrides ...string) []string {
	out := make([]string, 0, len(args)+len(overrides))
	for _, a := range args {
		for k, v := range env {
			a = strings.ReplaceAll(a, "$("+k+")", v)
		}
		out = append(out, strings.ReplaceAll(a, mount, dir))
	}
	return append(out, overrides...)
}

// The shard Job's pods, run locally as the Job would run them (the
// manifest's arguments, its index and one common start instant, the key from
// a file), merged by the merge Job's arguments, match one process running the
// same schedule at the same total rate. Tolerances: request counts exact (the
// schedule is deterministic); each endpoint's share of requests within 2
// percentage points (each shard interleaves the mix over its own sequence);
// offered rate within 5% and achieved rate within 10%; success ratio and
// the verdicts of the non-latency gates equal; p50 within 3× + 2 ms either way (4 processes
// against 1 on a shared machine).
func TestShardsMergeLikeOneRun(t *testing.T) {
	if testing.Short() {
		t.Skip("builds mph and runs several processes")
	}
	jobs, _ := manifests(t)
	shardJob, mergeJob := jobs["mph-load"], jobs["mph-load-merge"]
	c, mc := container(t, shardJob), container(t, mergeJob)
	n := int(*shardJob.Spec.Completions)
	mount := c.VolumeMounts[0].MountPath

	dir := t.TempDir()
	bin := filepath.Join(dir, "mph")
	if out, err := exec.Command("go", "build", "-o", bin, "../../cmd/mph").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sbx, err := sandbox.Start(ctx, "127.0.0.1:0", sandbox.Options{DisableRateLimits: true})
	if err != nil {
		t.Fatal(err)
	}
	defer sbx.Close()
	m := sandbox.DemoMerchants()[0]
	keyFile := filepath.Join(dir, "secret-key")
	if err := os.WriteFile(keyFile, []byte(m.TestKey), 0o600); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "MPH_BASE_URL="+sbx.BaseURL, "MPH_MERCHANT_ID="+m.ID, "MPH_SECRET_KEY_FILE="+keyFile)
	const rate, dur = 160, 3
	scale := []string{"--rate=" + strconv.Itoa(rate), fmt.Sprintf("--duration=%ds", dur), "--warmup=0s", "--pool-size=4", "--quiet", "--no-plot"}
	startAt := time.Now().Add(10 * time.Second).UTC().Format(time.RFC3339Nano)

	var wg sync.WaitGroup
	errs := make([]error, n)
	logs := make([][]byte, n)
	for i := 0; i < n; i++ {
		args := podArgs(c.Args, map[string]string{"JOB_COMPLETION_INDEX": strconv.Itoa(i), "START_AT": startAt}, mount, dir, scale...)
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.Command(bin, args...)
			cmd.Env = env
			logs[i], errs[i] = cmd.CombinedOutput()
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if !gateExit(err) {
			t.Fatalf("shard %d: %v\n%s", i, err, logs[i])
		}
	}
	margs := podArgs(mc.Args, nil, mount, dir, "--no-results")
	if out, err := exec.Command(bin, margs...).CombinedOutput(); !gateExit(err) {
		t.Fatalf("merge %v: %v\n%s", margs, err, out)
	}
	var single []string
	for _, a := range podArgs(c.Args, nil, mount, dir, scale...) {
		if !strings.HasPrefix(a, "--shard=") && !strings.HasPrefix(a, "--start-at=") && !strings.HasPrefix(a, "--out=") {
			single = append(single, a)
		}
	}
	single = append(single, "--out="+filepath.Join(dir, "single"))
	cmd := exec.Command(bin, single...)
	cmd.Env = env
	if out, err := cmd.CombinedOutput(); !gateExit(err) {
		t.Fatalf("single run: %v\n%s", err, out)
	}

	merged, one := readSummary(t, filepath.Join(dir, "merged")), readSummary(t, filepath.Join(dir, "single"))
	if merged.Kind != "merge" || len(merged.ForcedMerge) > 0 {
		t.Fatalf("merged report: kind %q, forced %v", merged.Kind, merged.ForcedMerge)
	}
	ma, oa := merged.ep("all"), one.ep("all")
	if ma.Requests != rate*dur || oa.Requests != rate*dur {
		t.Fatalf("requests: merged %v, single %v, schedule %d", ma.Requests, oa.Requests, rate*dur)
	}
	rel := func(a, b float64) float64 { return math.Abs(a-b) / b }
	if rel(ma.OfferedRate, oa.OfferedRate) > 0.05 || rel(ma.AchievedRate, oa.AchievedRate) > 0.10 {
		t.Errorf("rates: merged offered %.1f achieved %.1f, single %.1f %.1f", ma.OfferedRate, ma.AchievedRate, oa.OfferedRate, oa.AchievedRate)
	}
	for _, e := range one.Endpoints {
		me := merged.ep(e.Endpoint)
		if math.Abs(me.Requests/ma.Requests-e.Requests/oa.Requests) > 0.02 {
			t.Errorf("%s share: merged %.3f single %.3f", e.Endpoint, me.Requests/ma.Requests, e.Requests/oa.Requests)
		}
		if me.SuccessRatio != e.SuccessRatio {
			t.Errorf("%s success: merged %v single %v", e.Endpoint, me.SuccessRatio, e.SuccessRatio)
		}
		if me.Latency.P50 > 3*e.Latency.P50+2 || e.Latency.P50 > 3*me.Latency.P50+2 {
			t.Errorf("%s p50: merged %.2fms single %.2fms", e.Endpoint, me.Latency.P50, e.Latency.P50)
		}
	}
	if len(merged.Thresholds) == 0 || len(merged.Thresholds) != len(one.Thresholds) {
		t.Fatalf("gates: merged %d, single %d", len(merged.Thresholds), len(one.Thresholds))
	}
	for i := range one.Thresholds {
		if strings.Contains(one.Thresholds[i].Raw, ":p") {
			continue // latency gates: compared through p50 above (one process vs four on a shared machine)
		}
		if merged.Thresholds[i].Pass != one.Thresholds[i].Pass {
			t.Errorf("gate %s: merged %v single %v", one.Thresholds[i].Raw, merged.Thresholds[i].Pass, one.Thresholds[i].Pass)
		}
	}
	t.Logf("merged: %.0f requests, achieved %.1f/s, p50 %.2fms; single: achieved %.1f/s, p50 %.2fms",
		ma.Requests, ma.AchievedRate, ma.Latency.P50, oa.AchievedRate, oa.Latency.P50)
}

// gateExit accepts exit 0 and exit 1 (a gate breached, reports written): the
// manifest's latency gates may fail on a busy machine; the verdicts are
// compared afterwards.
func gateExit(err error) bool {
	var ee *exec.ExitError
	return err == nil || (errors.As(err, &ee) && ee.ExitCode() == 1)
}
