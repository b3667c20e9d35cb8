package merge

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/merchant-harness/mph/loadtest/metrics"
	"github.com/merchant-harness/mph/loadtest/summary"
	"github.com/merchant-harness/mph/loadtest/threshold"
	"github.com/merchant-harness/mph/report/loadreport"
)

// writeRun writes a fake run directory with n results and its summary, shard
// i of 2 of one plan.
func writeRun(t *testing.T, dir string, n int, code uint16) {
	t.Helper()
	writeShard(t, dir, n, code, func(r *summary.Report) {
		r.Shard = map[bool]string{true: "0/2", false: "1/2"}[code == 200]
		r.Plan.ShardIndex = map[bool]int{true: 0, false: 1}[code == 200]
	})
}

// writeShard writes a fake shard (0/2 of 100/s for 1s) changed by edit.
func writeShard(t *testing.T, dir string, n int, code uint16, edit func(*summary.Report)) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	start := time.Unix(2000, 0)
	rec := metrics.NewRecorder(start, 0)
	f, err := os.Create(filepath.Join(dir, "results.bin"))
	if err != nil {
		t.Fatal(err)
	}
	enc := vegeta.NewEncoder(f)
	for i := 0; i < n; i++ {
		off := time.Duration(i) * 10 * time.Millisecond
		r := &vegeta.Result{Seq: uint64(i), Code: code, Timestamp: start.Add(off), Latency: 2 * time.Millisecond, URL: "http://h/v1/merchant/cards?limit=20"}
		rec.Add("list", r, off)
		if err := enc.Encode(r); err != nil {
			t.Fatal(err)
		}
	}
	f.Close()
	rep := &summary.Report{Tool: "mph load", Kind: "run", Scenario: "list", Start: start, End: start.Add(time.Second), WindowSeconds: 1,
		Target: "http://h/v1/merchant", Schedule: "100/s for 1s (shard 0/2)", Shard: "0/2",
		Plan:      &summary.RunPlan{Rate: 100, Pace: "constant", Duration: "1s", StartAt: start, ShardIndex: 0, ShardCount: 2},
		Endpoints: rec.Summaries(time.Second), ResultsFile: "results.bin"}
	if edit != nil {
		edit(rep)
	}
	if err := loadreport.Write(dir, rep); err != nil {
		t.Fatal(err)
	}
}

func TestMergeInputs(t *testing.T) {
	dir := t.TempDir()
	writeRun(t, filepath.Join(dir, "a"), 60, 200)
	writeRun(t, filepath.Join(dir, "b"), 40, 429)
	ths, _ := threshold.ParseAll([]string{"list:rate429<1%", "all:requests>=100"})
	out := filepath.Join(dir, "merged")
	rep, err := Inputs([]string{filepath.Join(dir, "a"), filepath.Join(dir, "b", "summary.json")}, Options{OutDir: out, Thresholds: ths})
	if err != nil {
		t.Fatal(err)
	}
	s, ok := func() (metrics.Summary, bool) {
		for _, e := range rep.Endpoints {
			if e.Endpoint == "list" {
				return e, true
			}
		}
		return metrics.Summary{}, false
	}()
	if !ok || s.Requests != 100 || s.StatusCodes["429"] != 40 || s.StatusCodes["200"] != 60 {
		t.Fatalf("merged %+v", s)
	}
	if !rep.Breached || rep.Thresholds[0].Pass || !rep.Thresholds[1].Pass {
		t.Fatalf("thresholds %+v", rep.Thresholds)
	}
	n, err := Results(filepath.Join(dir, "again.bin"), []string{filepath.Join(out, "results.bin")})
	if err != nil || n != 100 {
		t.Fatalf("merged results file holds %d results: %v", n, err)
	}
	// A probe report is not a run.
	probe := filepath.Join(dir, "p")
	if err := loadreport.Write(probe, &summary.Report{Kind: "probe", Probe: &summary.ProbeReport{}}); err != nil {
		t.Fatal(err)
	}
	if _, err := Inputs([]string{probe}, Options{}); err == nil {
		t.Fatal("probe report merged")
	}
	if _, err := Inputs([]string{filepath.Join(dir, "missing")}, Options{}); err == nil {
		t.Fatal("missing input merged")
	}
}

// Inputs that are not the shards of one run are refused, naming the
// mismatch; --force merges them and marks the report.
func TestMergeRefusesNonsense(t *testing.T) {
	dir := t.TempDir()
	second := func(r *summary.Report) { r.Shard, r.Plan.ShardIndex, r.Schedule = "1/2", 1, "100/s for 1s (shard 1/2)" }
	good1 := filepath.Join(dir, "good1")
	writeShard(t, good1, 10, 200, second)
	for _, tc := range []struct {
		name string
		edit func(*summary.Report) // applied to shard 1/2; nil = shard 0/2 is merged alone
		want string
	}{
		{"scenario", func(r *summary.Report) { second(r); r.Scenario = "secure" }, "scenario differs"},
		{"target", func(r *summary.Report) { second(r); r.Target = "http://other/v1/merchant" }, "target differs"},
		{"rate", func(r *summary.Report) { second(r); r.Schedule = "50/s for 1s (shard 1/2)" }, "schedule differs"},
		{"start", func(r *summary.Report) { second(r); r.Plan.StartAt = r.Plan.StartAt.Add(time.Minute) }, "start (--start-at) differs"},
		{"count", func(r *summary.Report) { second(r); r.Plan.ShardCount = 3 }, "shard count differs"},
		{"overlap", func(r *summary.Report) {}, "shards overlap: shard 0/2"},
		{"incomplete", nil, "shards missing: 1/2"},
		{"no plan", func(r *summary.Report) { second(r); r.Plan = nil }, "no run plan"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := filepath.Join(dir, tc.name)
			inputs := []string{filepath.Join(d, "s0")}
			writeShard(t, inputs[0], 10, 200, nil)
			if tc.edit != nil {
				inputs = append(inputs, filepath.Join(d, "s1"))
				writeShard(t, inputs[1], 10, 200, tc.edit)
			}
			_, err := Inputs(inputs, Options{})
			var ref *Refusal
			if !errors.As(err, &ref) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err %v, want a refusal naming %q", err, tc.want)
			}
			rep, err := Inputs(inputs, Options{Force: true})
			if err != nil {
				t.Fatal(err)
			}
			md, err := loadreport.Markdown(rep).Bytes()
			if err != nil || len(rep.ForcedMerge) == 0 || !strings.Contains(string(md), "**forced merge**") {
				t.Fatalf("forced merge not marked (%v): %v", err, rep.Notes)
			}
		})
	}
	// The two shards of one run merge without complaint.
	s0 := filepath.Join(dir, "good0")
	writeShard(t, s0, 10, 200, nil)
	rep, err := Inputs([]string{s0, good1}, Options{})
	if err != nil || len(rep.ForcedMerge) != 0 || rep.Schedule != "100/s for 1s" {
		t.Fatalf("good shards: %v %+v", err, rep)
	}
}
