package main

import (
	"flag"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata/")

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func fixture(t *testing.T) *Results {
	t.Helper()
	r, err := collect("testdata/raw")
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// The fixture's figures were chosen so that each goal falls on a known side.
func TestCollectFixture(t *testing.T) {
	r := fixture(t)
	med := map[string]Round{}
	var keys []string
	for _, d := range r.Closed {
		med[d.Key] = d.Median
		keys = append(keys, d.Key)
	}
	if want := []string{"wrk", "vegeta", "k6", "mph", "mph-no-results"}; !slices.Equal(keys, want) {
		t.Fatalf("drivers %v, want %v", keys, want)
	}
	for _, c := range []struct {
		key           string
		rps, p50, p99 float64
		success       float64
	}{
		{"wrk", 97000.5, 0.56, 2.5, 1}, // 1.5s p99 and the 0.1% non-2xx are the outlying round
		{"vegeta", 36000, 1.1, 3.0, 1}, // ns → ms
		{"k6", 22500, 2.45, 5.8, 1},    // handleSummary's values
		{"mph", 40000, 1.0, 2.9, 1},    // the scenario's endpoint, not "all"
		{"mph-no-results", 48000, 0.8, 2.0, 1},
	} {
		m := med[c.key]
		if !near(m.RPS, c.rps) || !near(m.P50, c.p50) || !near(m.P99, c.p99) || !near(m.Success, c.success) {
			t.Errorf("%s median %+v, want rps %v p50 %v p99 %v success %v", c.key, m, c.rps, c.p50, c.p99, c.success)
		}
	}
	wantRatios := []struct {
		of, to string
		value  float64
		met    bool
	}{
		{"mph-no-results", "wrk", 48000 / 97000.5, false},
		{"mph", "wrk", 40000 / 97000.5, false},
		{"mph", "vegeta", 40000.0 / 36000, true},
		{"mph", "k6", 40000.0 / 22500, true},
	}
	if len(r.Ratios) != len(wantRatios) {
		t.Fatalf("ratios %+v", r.Ratios)
	}
	for i, w := range wantRatios {
		g := r.Ratios[i]
		if g.Of != w.of || g.To != w.to || !near(g.Value, w.value) || g.Met() != w.met || len(g.PerRound) != 3 {
			t.Errorf("ratio %d: %+v (met %v), want %+v", i, g, g.Met(), w)
		}
	}
	if got := r.Ratios[2].PerRound[1]; !near(got, 40000.0/35000) {
		t.Errorf("per-round ratio of round 2 = %v, want the round's own mph/vegeta", got)
	}
}

func TestCollectOpenSandboxMemory(t *testing.T) {
	r := fixture(t)
	if len(r.Open) != 2 || r.Open[0].Rate != 200 || r.Open[1].Rate != 2000 {
		t.Fatalf("open rates %+v", r.Open)
	}
	lo, hi := r.Open[0], r.Open[1]
	if !near(lo.MphLag.P50, 0.06) || !near(lo.MphLag.P99, 0.4) || !lo.LagMet() {
		t.Errorf("200/s lag %+v met %v, want 0.06/0.4 met", lo.MphLag, lo.LagMet())
	}
	if !near(hi.MphLag.P50, 0.2) || hi.LagMet() {
		t.Errorf("2000/s lag %+v met %v, want p50 0.2, not met", hi.MphLag, hi.LagMet())
	}
	wantStalls := []StallRound{{200, 200, 4, 2}, {100, 50, 2, 1}, {120, 120, 1, 1}}
	if !slices.Equal(hi.Stalls, wantStalls) || len(lo.Stalls) != 3 || lo.Stalls[0].LateSends != 0 {
		t.Errorf("late sends and stalls: 2000/s %+v, want %+v; 200/s %+v", hi.Stalls, wantStalls, lo.Stalls)
	}
	if lo.K6 != nil || hi.K6 == nil || !slices.Equal(hi.K6Dropped, []int{0, 12, 0}) || !near(hi.K6Achieved, 1992) {
		t.Errorf("k6 only at 2000/s with its dropped iterations: 200 %+v, 2000 %+v %v", lo.K6, hi.K6, hi.K6Dropped)
	}
	if lo.Vegeta == nil || !near(lo.Vegeta.P50, 0.16) {
		t.Errorf("vegeta at 200/s %+v, want p50 0.16", lo.Vegeta)
	}
	if len(r.Sandbox) != 3 || r.Sandbox[2].Path != "secure" || !near(r.Sandbox[2].RPS, 12142) {
		t.Errorf("sandbox %+v", r.Sandbox)
	}
	if m := r.Memory; m.PeakMB != 35 || m.Requests != 120000 || !slices.Equal(m.SamplesMB, []int{26, 27, 28}) || m.ResultsMB != 15 {
		t.Errorf("memory %+v", m)
	}
	if !r.Machine.Quiet() || r.Machine.CPU != "AMD EPYC" || len(r.Commands) != 3 || r.Commands[1].Name != "vegeta" {
		t.Errorf("machine %+v commands %+v", r.Machine, r.Commands)
	}
}

func TestReadWrkUnits(t *testing.T) {
	for _, c := range []struct {
		line string
		want float64
	}{{"     50%  560.00us", 0.56}, {"     50%    1.02ms", 1.02}, {"     50%    1.50s", 1500}} {
		path := t.TempDir() + "/wrk.txt"
		if err := os.WriteFile(path, []byte(c.line+"\nRequests/sec:  10.5\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		rd, err := readWrk(path)
		if err != nil || !near(rd.P50, c.want) || !near(rd.RPS, 10.5) || rd.Success != -1 {
			t.Errorf("%q: %+v %v, want p50 %v", c.line, rd, err, c.want)
		}
	}
	path := t.TempDir() + "/bad.txt"
	_ = os.WriteFile(path, []byte("unable to connect\n"), 0o644)
	if _, err := readWrk(path); err == nil {
		t.Error("wrk output without Requests/sec accepted")
	}
}

// The rendered pages of the fixture, compared with reviewed golden files.
func TestRenderGolden(t *testing.T) {
	r := fixture(t)
	for path, got := range map[string]string{
		"testdata/RESULTS.golden.md": renderResults(r),
		"testdata/README.golden.md":  renderReadme(r) + "\n",
	} {
		if *update {
			if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if got != string(want) {
			t.Errorf("%s differs (go test ./bench/report -update, then review the diff):\n%s", path, got)
		}
	}
}

// Verdicts and warnings follow the figures, not the fixture's layout.
func TestRenderVerdicts(t *testing.T) {
	r := fixture(t)
	md, rm := renderResults(r), renderReadme(r)
	for _, want := range []string{
		"| mph load --no-results / wrk | **0.49** | 0.46, 0.48, 0.52 | ≥ 0.9 in every round | **not met** |",
		"| mph load (results written) / vegeta CLI | **1.11** | 1.08, 1.14, 1.10 | ≥ 1.1 | met |",
		"| mph load: send lag | 0.060 ms | 0.400 ms | 0.050, 0.080, 0.060 | 0.300, 0.400, 0.450 | goal met |",
		"| mph load: send lag | 0.200 ms | 0.900 ms |",
		"round 2: 100 late sends, 50 of them in stalled seconds (1 of 2 s stalled): **mph**",
		"1 of the 3 rounds over the p99 goal had late sends outside the machine's stalls: the lag came from mph.",
		"achieved 1992.0/s, dropped iterations 0 12 0",
		"peak RSS **35 MB**",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("RESULTS.md lacks %q", want)
		}
	}
	if strings.Contains(md, "not quiet") || strings.Contains(md, "Quick mode") || strings.Contains(rm, "Smoke run") {
		t.Error("a quiet full run is flagged")
	}
	if !strings.Contains(rm, "mph load --no-results / wrk **0.49** (goal ≥ 0.9 in every round: not met)") {
		t.Errorf("README block:\n%s", rm)
	}
	r.Machine.LoadBefore[0], r.Quick = 5.18, true
	md, rm = renderResults(r), renderReadme(r)
	for doc, wants := range map[string][]string{
		md: {"**Warning: the machine was not quiet**: 1-minute load average 5.18", "**Quick mode (`BENCH_QUICK=1`)**"},
		rm: {"the machine was not quiet, load average 5.18", "Smoke run (`BENCH_QUICK=1`), not a measurement"},
	} {
		for _, w := range wants {
			if !strings.Contains(doc, w) {
				t.Errorf("busy quick run: %q missing", w)
			}
		}
	}
}

// A goal in every round fails on one round short of it, whatever the
// medians; a goal on the medians does not.
func TestRatioEveryRound(t *testing.T) {
	r := Ratio{Value: 0.95, PerRound: []float64{0.97, 0.89, 0.95}, Goal: 0.9, EveryRound: true}
	if r.Met() {
		t.Error("a round at 0.89 met a goal of 0.9 in every round")
	}
	if r.EveryRound = false; !r.Met() {
		t.Error("the medians' 0.95 did not meet a goal of 0.9 on the medians")
	}
}

// The lag of rounds over the goal is the machine's only when every such
// round has most of its late sends in stalled seconds.
func TestLagVerdict(t *testing.T) {
	o := OpenRate{MphLag: Latency{P50: 0.02, RoundsP99: []float64{0.3, 0.9, 1.2}},
		Stalls: []StallRound{{LateSends: 3}, {LateSends: 100, InStalls: 95}, {LateSends: 40, InStalls: 40}}}
	if v := o.lagVerdict(); !strings.Contains(v, "the lag came from the machine") || o.LagMet() {
		t.Errorf("verdict %q met %v", v, o.LagMet())
	}
	o.Stalls[1].InStalls = 80
	if v := o.lagVerdict(); !strings.Contains(v, "1 of the 2 rounds") || !strings.Contains(v, "came from mph") {
		t.Errorf("verdict %q", v)
	}
	o.MphLag.RoundsP99 = []float64{0.3, 0.4, 0.5}
	if v := o.lagVerdict(); v != "" || !o.LagMet() {
		t.Errorf("every round within the goal: verdict %q met %v", v, o.LagMet())
	}
}

// A ratio just short of its goal must not print as the goal.
func TestRatioRoundsDown(t *testing.T) {
	for v, want := range map[float64]string{1.0996: "1.09", 1.1: "1.10", 0.29: "0.29", 0.4999: "0.49", 2.5: "2.50"} {
		if got := ratio(v); got != want {
			t.Errorf("ratio(%v) = %s, want %s", v, got, want)
		}
	}
}

func TestReplaceBlock(t *testing.T) {
	doc := "a\n" + readmeOpen + " old -->\nold text\n" + readmeClose + "\nb\n"
	out, err := replaceBlock(doc, "NEW")
	if err != nil || out != "a\nNEW\nb\n" {
		t.Errorf("replaceBlock = %q, %v", out, err)
	}
	if _, err := replaceBlock("no block", "NEW"); err == nil {
		t.Error("a README without the block accepted")
	}
}

// bench/RESULTS.md and the README's bench block are what bench/results.json
// renders: nobody edited them by hand after `make bench`.
func TestCommittedResultsCurrent(t *testing.T) {
	r, err := readResults("../results.json")
	if err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile("../RESULTS.md")
	if err != nil {
		t.Fatal(err)
	}
	if string(md) != renderResults(r) {
		t.Error("bench/RESULTS.md differs from what bench/results.json renders: run `make bench` (or `go run ./bench/report` to render again), never edit it")
	}
	readme, err := os.ReadFile("../../docs/load.md")
	if err != nil {
		t.Fatal(err)
	}
	block, ok := currentBlock(string(readme))
	if !ok {
		t.Fatal("docs/load.md has no " + readmeOpen + " block")
	}
	if block != renderReadme(r) {
		t.Errorf("the bench block of docs/load.md differs from bench/results.json: run `go run ./bench/report -readme docs/load.md`\nwant:\n%s", renderReadme(r))
	}
}

// run.sh writes every meta key and raw file that collect reads (the fixture
// proves collect reads them; this proves the script writes them).
func TestRunScriptWritesWhatReportReads(t *testing.T) {
	script, err := os.ReadFile("../run.sh")
	if err != nil {
		t.Fatal(err)
	}
	meta, err := os.ReadFile("testdata/raw/meta.env")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(meta)), "\n") {
		key, _, _ := strings.Cut(line, "=")
		if strings.HasPrefix(key, "cmd_") || strings.HasPrefix(key, "version_") {
			key = key[:strings.Index(key, "_")+1] // cmd_ and version_ lines are free-form
		}
		if !strings.Contains(string(script), "meta "+key) && !strings.Contains(string(script), `meta "`+key) {
			t.Errorf("bench/run.sh writes no meta key %s", key)
		}
	}
	for _, path := range []string{`"$RAW/open/$RATE-mph-$r"`, `"$RAW/open/$RATE-stall-$r.json"`, `"$RAW/open/$RATE-vegeta-$r.json"`,
		`"$RAW/open/$RATE-k6-$r.json"`, `"$RAW/sandbox/$P"`, `"$RAW/rss.json"`} {
		if !strings.Contains(string(script), path) {
			t.Errorf("bench/run.sh writes nothing to %s", path)
		}
	}
	for _, d := range closedDrivers {
		if !strings.Contains(string(script), fmt.Sprintf(`"$RAW/closed/%s-$r`, d.key)) {
			t.Errorf("bench/run.sh runs no closed-model round of %s", d.key)
		}
	}
}

// run.sh is only run by hand (`make bench`); parsing it here catches syntax
// slips in every `make test`.
func TestRunScriptParses(t *testing.T) {
	out, err := exec.Command("bash", "-n", "../run.sh").CombinedOutput()
	if err != nil {
		t.Fatalf("bash -n bench/run.sh: %v\n%s", err, out)
	}
}

// A round run in two halves (A B … B A) is the mean of its halves, for
// every driver's format; a missing half is an error, not a round of one.
func TestClosedRoundInHalves(t *testing.T) {
	dir := t.TempDir()
	for _, d := range closedDrivers {
		src := func(i int) string {
			return filepath.Join("testdata", "raw", "closed", fmt.Sprintf("%s-%d.%s", d.key, i, d.ext))
		}
		for h := 1; h <= 2; h++ {
			b, err := os.ReadFile(src(h))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("%s-1-%d.%s", d.key, h, d.ext)), b, 0o600); err != nil {
				t.Fatal(err)
			}
		}
		a, errA := readClosed(d.key, src(1))
		b, errB := readClosed(d.key, src(2))
		got, err := readClosedRound(d.key, filepath.Join(dir, fmt.Sprintf("%s-1.%s", d.key, d.ext)), true)
		if errA != nil || errB != nil || err != nil {
			t.Fatalf("%s: %v %v %v", d.key, errA, errB, err)
		}
		if want := (a.RPS + b.RPS) / 2; got.RPS != want || got.P99 != (a.P99+b.P99)/2 || a.RPS == b.RPS {
			t.Fatalf("%s: halves %.1f and %.1f req/s, round %.1f (p99 %.3f and %.3f, round %.3f)", d.key, a.RPS, b.RPS, got.RPS, a.P99, b.P99, got.P99)
		}
		if _, err := readClosedRound(d.key, filepath.Join(dir, fmt.Sprintf("%s-2.%s", d.key, d.ext)), true); err == nil {
			t.Fatalf("%s: a round without its halves was read", d.key)
		}
	}
}
