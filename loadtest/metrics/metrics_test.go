package metrics

import (
	"encoding/json"
	"testing"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"
)

func res(start time.Time, seq uint64, sendOff, lat time.Duration, code uint16) *vegeta.Result {
	return &vegeta.Result{Seq: seq, Code: code, Timestamp: start.Add(sendOff), Latency: lat, BytesIn: 10}
}

func TestOpenModelLatencyAndLag(t *testing.T) {
	start := time.Unix(1000, 0)
	r := NewRecorder(start, 0)
	// Intended at 0, actually sent 40ms late (a stalled worker), 10ms service.
	r.Add("secure", res(start, 0, 40*time.Millisecond, 10*time.Millisecond, 200), 0)
	e := r.Endpoint("secure")
	if got := e.Latency.Max(); got < 49900 || got > 50100 {
		t.Fatalf("open-model latency %dµs, want 50000", got)
	}
	if got := e.Service.Max(); got < 9990 || got > 10010 {
		t.Fatalf("service latency %dµs", got)
	}
	if got := e.Lag.Max(); got < 39900 || got > 40100 {
		t.Fatalf("lag %dµs", got)
	}
}

func TestWarmupExcluded(t *testing.T) {
	start := time.Unix(1000, 0)
	r := NewRecorder(start, time.Second)
	if r.Add("list", res(start, 0, 0, time.Millisecond, 200), 500*time.Millisecond) {
		t.Fatal("warm-up result measured")
	}
	if !r.Add("list", res(start, 1, time.Second, time.Millisecond, 200), time.Second) {
		t.Fatal("measured result dropped")
	}
	if r.WarmupN != 1 || r.Endpoint("list").Requests != 1 {
		t.Fatalf("warmup %d requests %d", r.WarmupN, r.Endpoint("list").Requests)
	}
}

// run records n results per second for secs seconds with the given codes.
func run(start time.Time, ep string, perSec, secs int, lat time.Duration, code uint16) *Recorder {
	r := NewRecorder(start, 0)
	seq := uint64(0)
	for s := 0; s < secs; s++ {
		for i := 0; i < perSec; i++ {
			off := time.Duration(s)*time.Second + time.Duration(i)*time.Second/time.Duration(perSec)
			r.Add(ep, res(start, seq, off, lat, code), off)
			seq++
		}
	}
	return r
}

func TestSummaryFigures(t *testing.T) {
	start := time.Unix(1000, 0)
	r := run(start, "list", 100, 3, 2*time.Millisecond, 200)
	r.Add("list", res(start, 999, 2500*time.Millisecond, time.Millisecond, 429), 2500*time.Millisecond)
	sums := r.Summaries(3 * time.Second)
	if len(sums) != 2 || sums[0].Endpoint != "all" || sums[1].Endpoint != "list" {
		t.Fatalf("summaries %+v", sums)
	}
	s := sums[1]
	if s.Requests != 301 || s.StatusCodes["200"] != 300 || s.StatusCodes["429"] != 1 {
		t.Fatalf("counts %+v", s)
	}
	if s.OfferedRate < 100 || s.OfferedRate > 100.4 {
		t.Fatalf("offered %v", s.OfferedRate)
	}
	if s.Rate429 <= 0 || s.SuccessRatio >= 1 {
		t.Fatalf("ratios %v %v", s.Rate429, s.SuccessRatio)
	}
	if s.Latency.P50 < 1.99 || s.Latency.P50 > 2.01 {
		t.Fatalf("p50 %v", s.Latency.P50)
	}
	if len(s.Series) != 3 || s.Series[0].OK != 100 || s.Series[2].R429 != 1 {
		t.Fatalf("series %+v", s.Series)
	}
	if p := s.Series[1].P99Ms; p < 1.7 || p > 2.3 {
		t.Fatalf("series p99 %v", p)
	}
}

func TestMergeEqualsSumAndExactHistograms(t *testing.T) {
	start := time.Unix(1000, 0)
	a := run(start, "secure", 50, 4, 3*time.Millisecond, 200)
	b := run(start, "secure", 30, 4, 9*time.Millisecond, 200)
	c := run(start, "token", 10, 4, time.Millisecond, 429)
	var runs [][]Summary
	for _, r := range []*Recorder{a, b, c} {
		sums := r.Summaries(4 * time.Second)
		// Round-trip through JSON like shard files do.
		raw, err := json.Marshal(sums)
		if err != nil {
			t.Fatal(err)
		}
		var back []Summary
		if err := json.Unmarshal(raw, &back); err != nil {
			t.Fatal(err)
		}
		runs = append(runs, back)
	}
	m, err := Merge(runs)
	if err != nil {
		t.Fatal(err)
	}
	sums := m.Summaries(4 * time.Second)
	by := map[string]Summary{}
	for _, s := range sums {
		by[s.Endpoint] = s
	}
	if by["secure"].Requests != 320 || by["token"].Requests != 40 || by["all"].Requests != 360 {
		t.Fatalf("merged counts: secure %d token %d all %d", by["secure"].Requests, by["token"].Requests, by["all"].Requests)
	}
	if by["token"].StatusCodes["429"] != 40 || by["secure"].StatusCodes["200"] != 320 {
		t.Fatalf("codes %+v %+v", by["token"].StatusCodes, by["secure"].StatusCodes)
	}
	// 200 of 320 at 3ms, 120 at 9ms: p50 = 3ms, p90 = 9ms.
	if l := by["secure"].Latency; l.P50 < 2.99 || l.P50 > 3.01 || l.P90 < 8.99 || l.P90 > 9.01 {
		t.Fatalf("merged latency %+v", l)
	}
	var ok float64
	for _, p := range by["secure"].Series {
		ok += p.OK
	}
	if ok != 320 {
		t.Fatalf("merged series OK total %v", ok)
	}
	if by["secure"].OfferedRate != 80 {
		t.Fatalf("merged offered %v", by["secure"].OfferedRate)
	}
}

func TestSeriesStaysBounded(t *testing.T) {
	start := time.Unix(0, 0)
	r := NewRecorder(start, 0)
	for s := 0; s < 5*MaxIntervals; s++ {
		off := time.Duration(s) * time.Second
		r.Add("list", res(start, uint64(s), off, time.Millisecond, 200), off)
	}
	e := r.Endpoint("list")
	if n := len(e.Series.Intervals); n > MaxIntervals {
		t.Fatalf("%d intervals", n)
	}
	var total uint64
	for _, iv := range e.Series.Intervals {
		total += iv.Scheduled
	}
	if total != uint64(5*MaxIntervals) || e.Series.Width < 4*time.Second {
		t.Fatalf("total %d width %v", total, e.Series.Width)
	}
}

func TestSketch(t *testing.T) {
	prev := -1
	for _, us := range []int64{0, 1, 7, 8, 9, 15, 16, 100, 1000, 12345, 1 << 20, 1 << 27} {
		i := sketchIndex(us)
		if i < prev {
			t.Fatalf("index not monotone at %d", us)
		}
		prev = i
		if v := sketchValue(i); v < us || (us > 16 && float64(v) > float64(us)*1.13) {
			t.Fatalf("bucket %d of %dµs has upper edge %d", i, us, v)
		}
	}
}

// An invalid 2xx is not a success, an invalid 429 is a 429 and invalid, a
// gateway's 429 is counted apart; all survive a merge.
func TestInvalidAnswersAreNotSuccesses(t *testing.T) {
	start := time.Unix(1000, 0)
	r := NewRecorder(start, 0)
	html := Check{Invalid: "Content-Type text/html, want application/json"}
	r.AddChecked("list", res(start, 0, 0, time.Millisecond, 200), 0, Check{})
	r.AddChecked("list", res(start, 1, 0, time.Millisecond, 200), 0, html)
	r.AddChecked("list", res(start, 2, 0, time.Millisecond, 200), 0, html)
	r.AddChecked("list", res(start, 3, 0, time.Millisecond, 429), 0, Check{})
	r.AddChecked("list", res(start, 4, 0, time.Millisecond, 429), 0, Check{Invalid: "429 breaks RATE-02: no error envelope"})
	r.AddChecked("list", res(start, 5, 0, time.Millisecond, 429), 0, Check{Gateway429: true})
	s := r.Summaries(time.Second)[1]
	if s.Invalid != 3 || s.InvalidRatio != 0.5 || s.SuccessRatio != 1.0/6 || s.Rate429 != 0.5 || s.Invalid429 != 1 || s.Gateway429 != 1 {
		t.Fatalf("invalid %d (%.2f, 429s %d) success %.2f 429 %.2f (gateway %d)", s.Invalid, s.InvalidRatio, s.Invalid429, s.SuccessRatio, s.Rate429, s.Gateway429)
	}
	if s.Errors["invalid answer: Content-Type text/html, want application/json"] != 2 {
		t.Fatalf("errors %v", s.Errors)
	}
	b, _ := json.Marshal(s)
	var back Summary
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	m, err := Merge([][]Summary{{back}, {back}})
	if err != nil {
		t.Fatal(err)
	}
	if ms := m.Summaries(time.Second)[1]; ms.Invalid != 6 || ms.SuccessRatio != 1.0/6 || ms.Invalid429 != 2 || ms.Gateway429 != 2 {
		t.Fatalf("merged invalid %d (429s %d) success %.2f gateway 429s %d", ms.Invalid, ms.Invalid429, ms.SuccessRatio, ms.Gateway429)
	}
}

// An endpoint whose open-model latency is mostly send lag carries
// generatorBound in its summary (and the aggregate does too); one with a
// small lag does not.
func TestGeneratorBoundFlag(t *testing.T) {
	start := time.Unix(1000, 0)
	cases := []struct {
		name     string
		lag, svc time.Duration
		want     bool
	}{
		{"lag 0.6ms of 0.8ms", 600 * time.Microsecond, 200 * time.Microsecond, true},
		{"lag exactly a quarter", 250 * time.Microsecond, 750 * time.Microsecond, true},
		{"lag 50µs of 1ms", 50 * time.Microsecond, 950 * time.Microsecond, false},
		{"no lag", 0, time.Millisecond, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := NewRecorder(start, 0)
			for i := 0; i < 100; i++ {
				off := time.Duration(i) * time.Millisecond
				r.Add("list", res(start, uint64(i), off+c.lag, c.svc, 200), off)
			}
			for _, s := range r.Summaries(time.Second) {
				if s.GeneratorBound != c.want {
					t.Errorf("%s: generatorBound %v, want %v (lag p50 %v, latency p50 %v)", s.Endpoint, s.GeneratorBound, c.want, s.SendLag.P50, s.Latency.P50)
				}
				b, err := json.Marshal(s)
				if err != nil {
					t.Fatal(err)
				}
				var m map[string]any
				if err := json.Unmarshal(b, &m); err != nil {
					t.Fatal(err)
				}
				if m["generatorBound"] != c.want {
					t.Errorf("%s: summary.json generatorBound %v, want %v", s.Endpoint, m["generatorBound"], c.want)
				}
			}
		})
	}
}

// Each interval keeps its largest send lag and counts its late sends, and
// both survive a merge.
func TestSeriesLateSends(t *testing.T) {
	start := time.Unix(1000, 0)
	rec := NewRecorder(start, 0)
	for i, lag := range []time.Duration{100 * time.Microsecond, 600 * time.Microsecond, 2 * time.Millisecond, 0} {
		intended := time.Duration(i) * 400 * time.Millisecond // intervals 0, 0, 0, 1
		rec.Add("list", &vegeta.Result{Code: 200, Timestamp: start.Add(intended + lag), Latency: time.Millisecond}, intended)
	}
	s := rec.Endpoints()[0].Summary(2)
	if len(s.Series) != 2 || s.Series[0].LateSends != 2 || s.Series[0].LagMaxMs != 2 || s.Series[1].LateSends != 0 {
		t.Fatalf("series %+v", s.Series)
	}
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var a, c Summary
	if json.Unmarshal(b, &a) != nil || json.Unmarshal(b, &c) != nil {
		t.Fatal("summary does not read back")
	}
	m, err := Merge([][]Summary{{a}, {c}})
	if err != nil {
		t.Fatal(err)
	}
	if got := m.Endpoints()[0].Summary(2).Series[0]; got.LateSends != 4 || got.LagMaxMs != 2 {
		t.Fatalf("merged interval %+v", got)
	}
}
