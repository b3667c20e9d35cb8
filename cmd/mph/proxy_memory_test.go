package main

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"
)

// TestProxyMemoryBoundedUnderConcurrency runs mph proxy between 300
// concurrent clients posting 1 MiB bodies and an upstream answering 1 MiB
// slowly, so that every body is in flight at once: the bodies held for
// inspection stay within the proxy's memory budget (they took 628 MB at 300
// connections), and the proxy stays under 150 MB.
func TestProxyMemoryBoundedUnderConcurrency(t *testing.T) {
	bin := mphBinary(t)
	chunk := bytes.Repeat([]byte("a"), 64<<10)
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		for i := 0; i < 16; i++ {
			if _, err := w.Write(chunk); err != nil {
				return
			}
			w.(http.Flusher).Flush()
			time.Sleep(25 * time.Millisecond)
		}
	}))
	defer up.Close()
	addr, out := freeAddr(t), t.TempDir()
	cmd := exec.Command(bin, "proxy", "--base-url", up.URL+"/v1/merchant", "--listen", addr, "--out", out, "--report-every", "0",
		"--har", filepath.Join(out, "s.har"))
	var logs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	hwm := watchPeakRSS(cmd.Process.Pid)
	waitListening(t, addr)
	body := bytes.Repeat([]byte("b"), 1<<20)
	hc := &http.Client{Timeout: time.Minute, Transport: &http.Transport{MaxConnsPerHost: 0, MaxIdleConnsPerHost: 300}}
	var wg sync.WaitGroup
	var mu sync.Mutex
	failed := 0
	start := time.Now()
	for round := 0; round < 2; round++ {
		for i := 0; i < 300; i++ {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				resp, err := hc.Post(fmt.Sprintf("http://%s/v1/merchant/cards/crd_%d/withdraw", addr, i), "application/json", bytes.NewReader(body))
				if err == nil {
					_, err = io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
				}
				if err != nil {
					mu.Lock()
					failed++
					mu.Unlock()
				}
			}(i)
		}
		wg.Wait()
	}
	took := time.Since(start)
	_ = cmd.Process.Signal(syscall.SIGINT)
	_ = cmd.Wait()
	peak := hwm()
	t.Logf("mph proxy, 2 × 300 concurrent 1 MiB exchanges in %s: max RSS %d MiB, %d failed", took.Round(time.Millisecond), peak>>10, failed)
	if failed > 0 {
		t.Fatalf("%d exchanges failed through the proxy:\n%s", failed, logs.String())
	}
	if peak<<10 > 150<<20 {
		t.Fatalf("mph proxy max RSS %d MiB with 300 connections", peak>>10)
	}
	if b, err := os.ReadFile(filepath.Join(out, "report.json")); err != nil || !bytes.Contains(b, []byte(`"bodiesOverMemory"`)) {
		t.Fatalf("report.json: %v", err)
	}
}
