package loadtest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// Two workers may start hits N and N+1 the other way round, and batches
// reach the file out of send order: the plot still renders, every point in
// send order.
func TestVegetaPlotTakesResultsOutOfOrder(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "results.bin")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	enc := vegeta.NewEncoder(f)
	t0 := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	// seq 1 sent before seq 0; the batch with seq 2-3 written before seq 0-1.
	for _, r := range []vegeta.Result{
		{Attack: "a", Seq: 2, Code: 200, Timestamp: t0.Add(3 * time.Millisecond), Latency: time.Millisecond, URL: "http://h/v1/merchant/cards?limit=20"},
		{Attack: "a", Seq: 3, Code: 429, Timestamp: t0.Add(4 * time.Millisecond), Latency: time.Millisecond, URL: "http://h/v1/merchant/cards?limit=20"},
		{Attack: "a", Seq: 1, Code: 200, Timestamp: t0, Latency: 2 * time.Millisecond, URL: "http://h/v1/merchant/cards?limit=20"},
		{Attack: "a", Seq: 0, Code: 200, Timestamp: t0.Add(time.Millisecond), Latency: time.Millisecond, URL: "http://h/v1/merchant/cards?limit=20", Error: "x"},
	} {
		if err := enc.Encode(&r); err != nil {
			t.Fatal(err)
		}
	}
	f.Close()
	out := filepath.Join(dir, "plot.html")
	if err := VegetaPlot(path, out, "t"); err != nil {
		t.Fatalf("plot of results out of order: %v", err)
	}
	if b, err := os.ReadFile(out); err != nil || !strings.Contains(string(b), "list 2xx") {
		t.Fatalf("plot without its series: %v", err)
	}
	pts, err := readPlotPoints(path)
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i < len(pts.pts); i++ {
		if pts.pts[i].ts < pts.pts[i-1].ts {
			t.Fatalf("point %d sent at %d after %d", i, pts.pts[i].ts, pts.pts[i-1].ts)
		}
	}
	if r := pts.result(0, 7); r.Seq != 7 || r.Latency != 2*time.Millisecond || r.Code != 200 || r.URL == "" || r.Attack != "a" {
		t.Fatalf("first point rebuilt as %+v", r)
	}
	if r := pts.result(1, 8); r.Error == "" {
		t.Fatalf("the failed result lost its failure: %+v", r)
	}
}
