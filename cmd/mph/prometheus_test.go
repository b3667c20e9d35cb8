package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/merchant-harness/mph/loadtest/promrw"
)

// startPrometheus runs the real Prometheus (the Debian package's binary)
// with its remote-write receiver on, on a free port, and returns its URL.
// The test skips, saying why, where Prometheus is not installed.
func startPrometheus(t *testing.T) string {
	t.Helper()
	bin, err := exec.LookPath("prometheus")
	if err != nil {
		t.Skip("prometheus is not installed (`make integration` installs it: apt-get install -y prometheus)")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	_ = ln.Close()
	dir := t.TempDir()
	cfg := filepath.Join(dir, "prometheus.yml")
	if err := os.WriteFile(cfg, []byte("global:\n  scrape_interval: 15s\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "--config.file="+cfg, "--storage.tsdb.path="+filepath.Join(dir, "data"),
		"--web.listen-address="+addr, "--web.enable-remote-write-receiver")
	logf, err := os.Create(filepath.Join(dir, "prometheus.log"))
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait(); _ = logf.Close() })
	base := "http://" + addr
	for deadline := time.Now().Add(60 * time.Second); ; {
		resp, err := http.Get(base + "/-/ready")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return base
			}
		}
		if time.Now().After(deadline) {
			b, _ := os.ReadFile(filepath.Join(dir, "prometheus.log"))
			t.Fatalf("prometheus not ready: %v\n%s", err, b)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// promQuery evaluates an instant query and returns its vector's values.
func promQuery(t *testing.T, base, q string) []float64 {
	t.Helper()
	resp, err := http.Get(base + "/api/v1/query?query=" + url.QueryEscape(q))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var r struct {
		Status string `json:"status"`
		Data   struct {
			Result []struct {
				Value [2]any `json:"value"`
			} `json:"result"`
		} `json:"data"`
		Error string `json:"error"`
	}
	if err := json.Unmarshal(b, &r); err != nil || r.Status != "success" {
		t.Fatalf("query %s: %v %s", q, err, b)
	}
	var out []float64
	for _, v := range r.Data.Result {
		s, _ := v.Value[1].(string)
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatalf("query %s: value %v", q, v.Value)
		}
		out = append(out, f)
	}
	return out
}

// TestPrometheusRemoteWrite: two shards of one run push their live figures
// to a real Prometheus; the series come back by the run's run_id and add up
// to both shards' counts, and every query of the generated Grafana
// dashboard finds them.
func TestPrometheusRemoteWrite(t *testing.T) {
	base := startPrometheus(t)
	dir := t.TempDir()
	startAt := time.Now().Add(3 * time.Second).UTC().Format(time.RFC3339)
	var wg sync.WaitGroup
	results := make([]runResult, 2)
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = gateRun(t, nil, 0, 0, "load", "--scenario", "list", "--rate", "60", "--duration", "3s", "--quiet", "--no-plot",
				"--shard", fmt.Sprintf("%d/2", i), "--start-at", startAt, "--out", filepath.Join(dir, strconv.Itoa(i)),
				"--prometheus-rw", base+"/api/v1/write", "--prometheus-rw-interval", "500ms")
		}()
	}
	wg.Wait()
	var total uint64
	for i, r := range results {
		expectCode(t, fmt.Sprintf("shard %d", i), r, 0)
		s := readShardSummary(t, filepath.Join(dir, strconv.Itoa(i)))
		total += s.Endpoints[0].Requests
		if len(s.Notes) == 0 || !strings.Contains(strings.Join(s.Notes, " "), "prometheus remote write to "+base) ||
			strings.Contains(strings.Join(s.Notes, " "), "failed") {
			t.Errorf("shard %d notes: %v", i, s.Notes)
		}
	}
	start, _ := time.Parse(time.RFC3339, startAt)
	runID := "list-" + start.Format("20060102T150405Z")
	sel := `{run_id="` + runID + `"}`
	if got := promQuery(t, base, "sum(mph_load_requests_total"+sel+")"); len(got) != 1 || uint64(got[0]) != total || total < 150 {
		t.Fatalf("requests in Prometheus %v, in the shards' summaries %d", got, total)
	}
	if got := promQuery(t, base, "sum(mph_load_latency_seconds_count"+sel+")"); len(got) != 1 || uint64(got[0]) != total {
		t.Fatalf("latency histogram count %v, want %d", got, total)
	}
	if got := promQuery(t, base, "count(count by (shard) (mph_load_requests_total"+sel+"))"); len(got) != 1 || got[0] != 2 {
		t.Fatalf("shards %v, want 2", got)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, base+"/api/v1/label/run_id/values?match[]=mph_load_requests_total", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(b), `"`+runID+`"`) {
		t.Fatalf("the dashboard's run_id variable (%s) does not list %s: %s", promrw.DashboardRunVar, runID, b)
	}
	for _, tg := range promrw.DashboardTargets() {
		q := strings.NewReplacer("$run_id", runID, "$__rate_interval", "1m").Replace(tg.Expr)
		if got := promQuery(t, base, q); len(got) == 0 {
			t.Errorf("dashboard query %q finds nothing", q)
		}
	}
}
