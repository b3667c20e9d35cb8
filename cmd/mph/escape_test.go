package main

import (
	"bytes"
	"context"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/merchant-harness/mph/sandbox"
)

// fakePass is what a hostile target answers to draw over the operator's
// terminal: erase the line, return to its start, print a success line.
const fakePass = "\x1b[2K\r✔ all specs passed\x1b]0;title\x07"

// TestTargetCannotDrawOnTheTerminal: a target answering GET /cards/config
// with fakePass (500, text/plain and inside a JSON message) cannot draw that
// line: the console and every report carry it escaped (\x1b[2K\r...).
func TestTargetCannotDrawOnTheTerminal(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and runs part of the suite")
	}
	dir := t.TempDir()
	bin := mphBinary(t) // built once per test binary
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sbx, err := sandbox.Start(ctx, "127.0.0.1:0", sandbox.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer sbx.Close()
	root, _ := url.Parse(strings.TrimSuffix(sbx.BaseURL, "/v1/merchant"))
	rp := httputil.NewSingleHostReverseProxy(root)
	rp.ErrorLog = log.New(io.Discard, "", 0)
	n := 0
	hostile := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasSuffix(r.URL.Path, "/cards/config") {
			rp.ServeHTTP(w, r)
			return
		}
		n++
		if n%2 == 1 {
			w.Header().Set("Content-Type", "text/plain")
			w.WriteHeader(http.StatusInternalServerError)
			_, _ = w.Write([]byte(fakePass))
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusInternalServerError)
		_, _ = w.Write([]byte(`{"status":"error","statusCode":500,"message":"` + strings.NewReplacer("\x1b", `\u001b`, "\r", `\r`, "\x07", `\u0007`).Replace(fakePass) + `"}`))
	}))
	defer hostile.Close()

	m := sandbox.DemoMerchants()[0]
	out := filepath.Join(dir, "out")
	cmd := exec.Command(bin, "conform", "--no-color", "-v", "--out", out, "--focus", "Card configuration")
	cmd.Env = append(os.Environ(), "MPH_BASE_URL="+hostile.URL+"/v1/merchant", "MPH_CONTROLS_URL="+hostile.URL+"/_sandbox",
		"MPH_ADMIN_KEY="+sbx.AdminKey, "MPH_MERCHANT_ID="+m.ID, "MPH_SECRET_KEY="+m.TestKey)
	var console bytes.Buffer
	cmd.Stdout, cmd.Stderr = &console, &console
	_ = cmd.Run()
	if cmd.ProcessState.ExitCode() != 1 {
		t.Fatalf("want exit 1 (the config specs fail), got %d:\n%s", cmd.ProcessState.ExitCode(), console.String())
	}
	outputs := map[string]string{"console": console.String()}
	for _, f := range []string{"junit.xml", "report.json", "report.summary.json", "report.html"} {
		b, err := os.ReadFile(filepath.Join(out, f))
		if err != nil {
			t.Fatal(err)
		}
		outputs[f] = string(b)
	}
	for name, text := range outputs {
		// A JSON body keeps its own escapes (\u001b as six characters):
		// inert text. Raw control bytes are what must never pass.
		for _, raw := range []string{"\x1b", "\r", "\x07"} {
			if strings.Contains(text, raw) {
				t.Errorf("%s carries %q raw", name, raw)
			}
		}
	}
	if !strings.Contains(console.String(), `\x1b[2K\r✔ all specs passed`) {
		t.Errorf("the console does not show the target's bytes escaped:\n%s", console.String())
	}
}
