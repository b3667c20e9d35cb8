package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/merchant-harness/mph/sandbox"
)

// hookAttacker posts to the harness's webhook receiver while conform runs:
// deliveries forged from an allowed address (kind only, a made-up
// reference; never a valid signature, since no profile key is set) and a
// flood of 1 MiB posts from an address outside MPH_WEBHOOK_ALLOW_FROM.
type hookAttacker struct {
	url    string
	stop   chan struct{}
	wg     sync.WaitGroup
	mu     sync.Mutex
	forged int
	flood  int
}

func (a *hookAttacker) post(from string, body []byte) bool {
	d := &net.Dialer{Timeout: time.Second, LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}}
	hc := &http.Client{Timeout: 2 * time.Second, Transport: &http.Transport{DialContext: d.DialContext, DisableKeepAlives: true}}
	resp, err := hc.Post(a.url, "application/json", bytes.NewReader(body))
	if err != nil {
		return false
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode == http.StatusOK
}

func (a *hookAttacker) start(floodFrom string) {
	a.stop = make(chan struct{})
	kinds := []string{"authorization", "settlement", "reversed", "declined"}
	for f := 0; f < 4; f++ {
		a.wg.Add(1)
		go func() { // forger: a kind-only delivery of every kind, over and over
			defer a.wg.Done()
			for i := f; ; i += 4 {
				select {
				case <-a.stop:
					return
				case <-time.After(2 * time.Millisecond):
				}
				// Half name a made-up reference, half none at all (they
				// matched by kind before).
				body := fmt.Sprintf(`{"type":"virtualcard.transaction.%s","data":{"reference":"SIMULATE_forged%d","amount":1}}`, kinds[i%4], i)
				if i%2 == 1 {
					body = fmt.Sprintf(`{"type":"virtualcard.transaction.%s"}`, kinds[i%4])
				}
				if a.post("127.0.0.1", []byte(body)) {
					a.mu.Lock()
					a.forged++
					a.mu.Unlock()
				}
			}
		}()
	}
	big := bytes.Repeat([]byte("A"), 1<<20)
	for w := 0; w < 8; w++ {
		a.wg.Add(1)
		go func() { // flood from elsewhere
			defer a.wg.Done()
			for {
				select {
				case <-a.stop:
					return
				default:
				}
				a.post(floodFrom, big)
				a.mu.Lock()
				a.flood++
				a.mu.Unlock()
			}
		}()
	}
}

func (a *hookAttacker) halt() (forged, flood int) {
	close(a.stop)
	a.wg.Wait()
	return a.forged, a.flood
}

// TestWebhookReceiverUnderAttack runs the delivery specs against a target
// whose deliveries go to a pre-configured receiver URL, with no signature
// profile, while forged deliveries arrive from an allowed address and
// 1 MiB posts flood in from another one. Against a target that delivers
// nothing (faults), no delivery spec passes; against an honest one, they
// pass as without the attack; mph conform stays under 150 MB.
func TestWebhookReceiverUnderAttack(t *testing.T) {
	bin := mphBinary(t)
	dir := t.TempDir()
	profile := filepath.Join(dir, "profile.yaml")
	if err := os.WriteFile(profile, []byte("webhooks:\n  preconfigured: true\n  signature:\n    header: \"\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		faults []string
		passes bool
	}{
		{"a target delivering nothing", []string{"webhook-claims-dispatch", "webhook-txn-not-delivered"}, false},
		{"an honest target", nil, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			sbx, err := sandbox.Start(context.Background(), "127.0.0.1:0", sandbox.Options{Faults: c.faults, DisableRateLimits: true})
			if err != nil {
				t.Fatal(err)
			}
			defer sbx.Close()
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			hookURL := fmt.Sprintf("http://%s/hooks", ln.Addr())
			ln.Close()
			m := sandbox.DemoMerchants()[0]
			// The provider's dashboard: deliveries of the merchant go to hookURL.
			req, _ := http.NewRequest(http.MethodPut, sbx.ControlsURL+"/merchants/"+m.ID+"/webhook", strings.NewReader(`{"url":"`+hookURL+`"}`))
			req.Header.Set("X-Sandbox-Admin-Key", sbx.AdminKey)
			req.Header.Set("Content-Type", "application/json")
			if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusOK {
				t.Fatalf("configuring the webhook URL: %v %v", err, resp)
			}
			var env []string
			for _, kv := range os.Environ() {
				if !strings.HasPrefix(kv, "MPH_") {
					env = append(env, kv)
				}
			}
			env = append(env, "MPH_BASE_URL="+sbx.BaseURL, "MPH_CONTROLS_URL="+sbx.ControlsURL, "MPH_ADMIN_KEY="+sbx.AdminKey,
				"MPH_MERCHANT_ID="+m.ID, "MPH_SECRET_KEY="+m.TestKey, "MPH_PROFILE="+profile,
				"MPH_WEBHOOK_RECEIVER_URL="+hookURL, "MPH_WEBHOOK_ALLOW_FROM=127.0.0.1/32")
			a := &hookAttacker{url: hookURL}
			a.start("127.0.0.2")
			r := runMPH(t, bin, env, 3*time.Minute, "conform", "--no-color", "-v", "--out", filepath.Join(dir, c.name),
				"--focus", "delivers a simulated|signs each delivery|gives callback_url|sends the webhooks of card transactions")
			forged, flood := a.halt()
			t.Logf("%s", summaryLine(r.out))
			t.Logf("%s: exit %d, max RSS %d MiB, %s; %d forged deliveries accepted, %d flood posts tried", c.name, r.code, r.maxRSS>>10, r.elapsed.Round(time.Millisecond), forged, flood)
			if forged == 0 || flood == 0 {
				t.Fatalf("the attack did not run (forged %d, flood %d)", forged, flood)
			}
			if r.maxRSS<<10 > 150<<20 {
				t.Fatalf("max RSS %d MiB under the flood:\n%s", r.maxRSS>>10, r.out)
			}
			summary := summaryLine(r.out)
			if c.passes {
				if r.code != 0 || !strings.Contains(summary, " 0 failed") || strings.Contains(summary, " 0 passed") {
					t.Fatalf("an honest target under attack: want the delivery specs to pass, got exit %d:\n%s", r.code, r.out)
				}
				return
			}
			if !strings.Contains(summary, " 0 passed") {
				t.Fatalf("forged deliveries made a delivery spec pass (%s):\n%s", summary, r.out)
			}
		})
	}
}

// summaryLine is the console's conformance summary line.
func summaryLine(out string) string {
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "Conformance summary:") {
			return l
		}
	}
	return ""
}
