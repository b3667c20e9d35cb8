package main

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/merchant-harness/mph/exitcode"
	"github.com/merchant-harness/mph/sandbox"
)

func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// waitListening polls until addr accepts connections.
func waitListening(t *testing.T, addr string) {
	t.Helper()
	for i := 0; i < 200; i++ {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("%s never listened", addr)
}

// TestProxyCommandExitCodes: usage errors exit 2; a session ended by
// --duration exits 0 when clean and 1 with violations on the --fail-on
// side; SIGINT exits 130 after writing the reports.
func TestProxyCommandExitCodes(t *testing.T) {
	sbx, err := sandbox.Start(context.Background(), "127.0.0.1:0", sandbox.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer sbx.Close()
	if got := run([]string{"proxy", "--base-url", ""}); got != exitcode.Usage {
		t.Errorf("no upstream: exit %d, want 2", got)
	}
	if got := run([]string{"proxy", "--base-url", sbx.BaseURL, "--fail-on", "sometimes"}); got != exitcode.Usage {
		t.Errorf("bad --fail-on: exit %d, want 2", got)
	}
	if got := run([]string{"proxy", "--upstream", "http://127.0.0.1:1/api", "--fail-on", "any"}); got != exitcode.Usage {
		t.Errorf("upstream without /v1/merchant: exit %d, want 2", got)
	}

	cases := []struct {
		name, failOn string
		badCall      bool
		signal       bool
		want         int
	}{
		{"clean", "any", false, false, exitcode.OK},
		{"client violation, fail on client", "client", true, false, exitcode.Failed},
		{"client violation, fail on server", "server", true, false, exitcode.OK},
		{"interrupted", "any", true, true, exitcode.Interrupted},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			addr, out := freeAddr(t), t.TempDir()
			dur := "2s"
			if tc.signal {
				dur = "0"
			}
			done := make(chan int, 1)
			go func() {
				done <- run([]string{"proxy", "--base-url", sbx.BaseURL, "--listen", addr, "--out", out,
					"--fail-on", tc.failOn, "--duration", dur, "--report-every", "100ms", "--har", filepath.Join(out, "s.har"), "--log", filepath.Join(out, "v.log")})
			}()
			waitListening(t, addr)
			req, _ := http.NewRequest("GET", "http://"+addr+"/v1/merchant/cards/config", nil)
			if !tc.badCall {
				req.Header.Set("Authorization", "Bearer eyJhbGciOiJIUzI1NiJ9.e30.sig")
			}
			if resp, err := http.DefaultClient.Do(req); err == nil {
				resp.Body.Close()
			}
			if tc.signal {
				time.Sleep(100 * time.Millisecond)
				syscall.Kill(os.Getpid(), syscall.SIGINT)
			}
			got := <-done
			if got != tc.want {
				t.Fatalf("exit %d, want %d", got, tc.want)
			}
			var rep struct {
				Exchanges   int  `json:"exchanges"`
				Interrupted bool `json:"interrupted"`
			}
			b, err := os.ReadFile(filepath.Join(out, "report.json"))
			if err != nil || json.Unmarshal(b, &rep) != nil || rep.Exchanges != 1 || rep.Interrupted != tc.signal {
				t.Fatalf("report.json: %v %+v", err, rep)
			}
			if b, _ := os.ReadFile(filepath.Join(out, "v.log")); tc.badCall != strings.Contains(string(b), "AUTH-09") {
				t.Errorf("--log file: %q", b)
			}
			for _, f := range []string{"junit.xml", "report.html", "report.md", "s.har"} {
				if b, err := os.ReadFile(filepath.Join(out, f)); err != nil || len(strings.TrimSpace(string(b))) == 0 {
					t.Errorf("%s missing: %v", f, err)
				}
			}
			// The HAR and the log quote every client's traffic: the owner's only.
			for _, f := range []string{"s.har", "v.log"} {
				if fi, err := os.Stat(filepath.Join(out, f)); err != nil || fi.Mode().Perm() != 0o600 {
					t.Errorf("%s: mode %v, want 0600 (%v)", f, fi.Mode().Perm(), err)
				}
			}
		})
	}
}
