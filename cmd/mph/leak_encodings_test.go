package main

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/merchant-harness/mph/sandbox"
)

// reflectEveryEncoding makes one JSON answer of the echoing target more
// hostile: an "echo2" member reflects the request in hex and in base64 of
// base64 (body, header block, URL), and every object carrying card data or
// a voucher restates it under other member names, in prose and in hex.
func reflectEveryEncoding(answer []byte, sn *sent) []byte {
	var doc map[string]any
	if json.Unmarshal(answer, &doc) != nil || doc == nil {
		return answer
	}
	b64 := func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
	doc["echo2"] = map[string]any{
		"bodyHex":       hex.EncodeToString(sn.body),
		"bodyB64B64":    b64(b64(string(sn.body))),
		"headersHex":    hex.EncodeToString([]byte(sn.headers)),
		"headersB64B64": b64(b64(sn.headers)),
		"urlHex":        hex.EncodeToString([]byte(sn.url)),
	}
	restate(doc)
	out, err := json.Marshal(doc)
	if err != nil {
		return answer
	}
	return out
}

// restate adds, beside card data and vouchers, the same values under other
// names, in prose and in hex.
func restate(v any) {
	switch t := v.(type) {
	case map[string]any:
		if cvv, ok := t["cvv"].(string); ok {
			pan, _ := t["cardNumber"].(string)
			t["card_verification_value"] = cvv
			t["sc"] = cvv
			t["statement"] = fmt.Sprintf("card %s expires %v/%v, CVV %s", pan, t["expiryMonth"], t["expiryYear"], cvv)
			t["panHex"] = hex.EncodeToString([]byte(pan))
			t["cardB64"] = base64.StdEncoding.EncodeToString([]byte(fmt.Sprintf(`{"number":"%s","verification":"%s"}`, pan, cvv)))
		}
		if code, ok := t["code"].(string); ok {
			pin, _ := t["pin"].(string)
			t["redeem"] = fmt.Sprintf("redeem %s with the PIN %s", code, pin)
			t["codeHex"] = hex.EncodeToString([]byte(code))
			t["voucherB64"] = base64.RawURLEncoding.EncodeToString([]byte(`{"code":"` + code + `","pin":"` + pin + `"}`))
		}
		for _, x := range t {
			restate(x)
		}
	case []any:
		for _, x := range t {
			restate(x)
		}
	}
}

// TestEchoInEveryEncodingLeaksNothing points every command at a target
// that echoes each request in every encoding (JSON, raw headers, base64,
// form, hex, base64 of base64) and restates card data and vouchers under
// other names, in prose and in hex: conform, load, the probe, the capacity
// search, discovery and sweep directly, and discovery and load again through
// mph proxy with a HAR. No artifact may carry a secret, a card credential
// or a voucher, in clear or in any encoding it holds.
func TestEchoInEveryEncodingLeaksNothing(t *testing.T) {
	bin := mphBinary(t)
	dir := t.TempDir()
	if d := os.Getenv("MPH_LEAK_TEST_DIR"); d != "" {
		dir = d
	}
	env, px := leakyTarget(t, sandbox.Options{EchoRequests: true, AdminKey: leakAdminKey, DisableRateLimits: true, Faults: []string{
		"card-secure-reveals-frozen", "gift-verify-charges-again", "auth-wrong-secret-accepted",
	}})
	px.everyEncoding.Store(true)
	// conform keeps its cards (--no-teardown) for sweep to find by run id.
	const runID = "mphleak7e"
	arts := map[string]string{}
	out := func(name string) string { return filepath.Join(dir, name) }
	start := time.Now()
	// The specs where secrets flow: secure details, vouchers and PINs, token
	// exchanges, Basic credentials, webhook secrets (TestLeakyTargetLeaksNothing
	// runs the whole suite against the plain echo).
	runLeaky(t, bin, append(env, "MPH_RUN_ID="+runID), arts, "conform", "conform", "--no-color", "-v", "--no-teardown", "--out", out("conform"),
		"--focus", "secure|reveal|gift|voucher|token|Basic|credentials|simulat|deliver")
	t.Logf("conform: %s", time.Since(start).Round(time.Millisecond))
	runLeaky(t, bin, env, arts, "load secure", "load", "--scenario", "secure", "--rate", "20", "--duration", "1s", "--pool-size", "3", "--out", out("load"))
	runLeaky(t, bin, env, arts, "probe", "load", "probe-rate-limit", "--scenario", "secure", "--pool-size", "2", "--start-rate", "20",
		"--max-rate", "30", "--step-duration", "300ms", "--quiet-period", "100ms", "--polite", "3", "--topology=false", "--out", out("probe"))
	runLeaky(t, bin, env, arts, "capacity", "load", "capacity", "--scenario", "secure", "--pool-size", "2", "--start-rate", "20",
		"--max-rate", "40", "--step-duration", "300ms", "--confirm-duration", "300ms", "--out", out("capacity"))
	runLeaky(t, bin, env, arts, "discover", "profile", "discover", "--out", out("discovered.yaml"))
	runLeaky(t, bin, append(env, "MPH_RUN_ID="+runID), arts, "sweep", "sweep", "--run-id", runID)
	throughProxy(t, bin, env, px, arts, out("proxy"))
	collectArtifacts(t, dir, arts)
	if _, ok := arts[filepath.Join("proxy", "s.har")]; !ok {
		t.Fatal("no HAR among the artifacts")
	}
	if len(px.values("cvv")) == 0 || len(px.values("voucher code")) == 0 || len(px.values("pin")) == 0 {
		t.Fatalf("the runs met no CVV, voucher code or PIN: the grep would prove little (seen %v)", px.seen)
	}
	forms, patterns := leakForms(px, sandbox.DemoMerchants())
	// One pattern per kind for the values met (one per value took seconds),
	// the CVV also restated under other names and in prose.
	for name := range patterns {
		if strings.HasPrefix(name, "cvv ") || strings.HasPrefix(name, "pin ") {
			delete(patterns, name)
		}
	}
	alt := func(vs []string) string {
		for i, v := range vs {
			vs[i] = regexp.QuoteMeta(v)
		}
		return "(" + strings.Join(vs, "|") + ")"
	}
	patterns["a CVV met, restated"] = regexp.MustCompile(`(?i)(cvv|verification|security|"sc)[\\"']*[^0-9A-Za-z]{0,12}` + alt(px.values("cvv")) + `\b`)
	patterns["a PIN met"] = regexp.MustCompile(`(?i)pin[\\"']*\s*[:=]?\s*(is\s+)?[\\"']*` + alt(px.values("pin")) + `\b`)
	t0 := time.Now()
	total := 0
	defer func() {
		t.Logf("grep of %d artifacts (%d KiB): %s", len(arts), total>>10, time.Since(t0).Round(time.Millisecond))
	}()
	for name, text := range arts {
		total += len(text)
		decoded := decodedRuns(text, 2)
		for _, f := range forms {
			if strings.Contains(text, f.value) || strings.Contains(decoded, f.value) {
				t.Errorf("%s: %s leaked (%.6s…)", name, f.what, f.value)
			}
		}
		for what, re := range patterns {
			for _, m := range append(re.FindAllString(text, -1), re.FindAllString(decoded, -1)...) {
				if specIDAfterWord(m) {
					continue
				}
				t.Errorf("%s: %s leaked: %.40q", name, what, m)
				break
			}
		}
	}
}

// throughProxy runs mph proxy (with a HAR and a log) in front of the leaky
// target and sends discovery and a secure load run through it.
func throughProxy(t *testing.T, bin string, env []string, px *leakProxy, arts map[string]string, dir string) {
	t.Helper()
	addr := freeAddr(t)
	cmd := exec.Command(bin, "proxy", "--base-url", px.srv.URL+"/v1/merchant", "--listen", addr, "--out", dir,
		"--har", filepath.Join(dir, "s.har"), "--log", filepath.Join(dir, "v.log"), "--report-every", "0", "--fail-on", "none")
	cmd.Env = env
	var logs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	stopped := false
	t.Cleanup(func() { // a failed run below must not leave the proxy running
		if !stopped {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
	})
	waitListening(t, addr)
	via := func(path string) string {
		u, _ := url.Parse("http://" + addr + path)
		u.User = url.UserPassword(leakURLUser, leakURLPassword)
		return u.String()
	}
	penv := append(append([]string{}, env...), "MPH_BASE_URL="+via("/v1/merchant"), "MPH_CONTROLS_URL="+via("/_sandbox"))
	runThroughProxy(t, bin, penv, arts, "discover via proxy", "profile", "discover", "--skip-purchase=false")
	runThroughProxy(t, bin, penv, arts, "load via proxy", "load", "--scenario", "secure", "--rate", "10", "--duration", "1s", "--pool-size", "2",
		"--out", filepath.Join(dir, "load"))
	_ = cmd.Process.Signal(syscall.SIGINT)
	_ = cmd.Wait()
	stopped = true
	arts["proxy output"] = logs.String()
}

// runThroughProxy is runLeaky for a run through mph proxy, tried up to three
// times: in front of this echo (its answers grown by everyEncoding) the
// proxy cuts about one answer in 3,000 short ("ReverseProxy read error
// during body copy: use of closed network connection"; the harness before
// issue 23 does it too), which ends a setup. What leaked in an attempt
// stays among the artifacts.
func runThroughProxy(t *testing.T, bin string, env []string, arts map[string]string, name string, args ...string) {
	t.Helper()
	for attempt := 1; ; attempt++ {
		cmd := exec.Command(bin, args...)
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		arts[fmt.Sprintf("%s output (attempt %d)", name, attempt)] = string(out)
		if err == nil || cmd.ProcessState.ExitCode() == 1 {
			return
		}
		if attempt == 3 || !strings.Contains(string(out), "unexpected EOF") {
			t.Fatalf("mph %s: %v\n%s", name, err, out)
		}
		t.Logf("mph %s: an answer cut short through the proxy, again (attempt %d)", name, attempt)
	}
}

// decodedRuns is every base64 and hex run of s decoded, depth levels deep:
// what a reader of the artifact could decode.
func decodedRuns(s string, depth int) string {
	var b strings.Builder
	for d := 0; d < depth; d++ {
		var next strings.Builder
		for _, f := range strings.FieldsFunc(s, func(r rune) bool {
			return !(r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || strings.ContainsRune("+/=_-", r))
		}) {
			if len(f) < 16 {
				continue
			}
			for _, e := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
				if raw, err := e.DecodeString(f); err == nil {
					next.Write(raw)
					next.WriteByte('\n')
				}
			}
			if raw, err := hex.DecodeString(f); err == nil {
				next.Write(raw)
				next.WriteByte('\n')
			}
		}
		s = next.String()
		b.WriteString(s)
	}
	return b.String()
}
