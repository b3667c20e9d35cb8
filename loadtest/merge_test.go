package loadtest

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/merchant-harness/mph/loadtest/metrics"
	"github.com/merchant-harness/mph/loadtest/threshold"
	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// writeRun writes a fake run directory with n results and its summary.
func writeRun(t *testing.T, dir string, n int, code uint16) {
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
		rec.Add(EPList, r, off)
		if err := enc.Encode(r); err != nil {
			t.Fatal(err)
		}
	}
	f.Close()
	rep := &Report{Tool: "mph load", Kind: "run", Scenario: "list", Start: start, End: start.Add(time.Second), WindowSeconds: 1,
		Endpoints: rec.Summaries(time.Second), ResultsFile: "results.bin"}
	if err := rep.Write(dir); err != nil {
		t.Fatal(err)
	}
}

func TestMergeInputs(t *testing.T) {
	dir := t.TempDir()
	writeRun(t, filepath.Join(dir, "a"), 60, 200)
	writeRun(t, filepath.Join(dir, "b"), 40, 429)
	ths, _ := threshold.ParseAll([]string{"list:rate429<1%", "all:requests>=100"})
	out := filepath.Join(dir, "merged")
	rep, err := MergeInputs([]string{filepath.Join(dir, "a"), filepath.Join(dir, "b", "summary.json")}, out, ths)
	if err != nil {
		t.Fatal(err)
	}
	s, ok := func() (metrics.Summary, bool) {
		for _, e := range rep.Endpoints {
			if e.Endpoint == EPList {
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
	n, err := MergeResults(filepath.Join(dir, "again.bin"), []string{filepath.Join(out, "results.bin")})
	if err != nil || n != 100 {
		t.Fatalf("merged results file holds %d results: %v", n, err)
	}
	// A probe report is not a run.
	probe := filepath.Join(dir, "p")
	if err := (&Report{Kind: "probe", Probe: &ProbeReport{}}).Write(probe); err != nil {
		t.Fatal(err)
	}
	if _, err := MergeInputs([]string{probe}, "", nil); err == nil {
		t.Fatal("probe report merged")
	}
	if _, err := MergeInputs([]string{filepath.Join(dir, "missing")}, "", nil); err == nil {
		t.Fatal("missing input merged")
	}
}
