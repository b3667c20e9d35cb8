package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"html"
	"io"
	"io/fs"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/merchant-harness/mph/loadtest"
	"github.com/merchant-harness/mph/sandbox"
	"github.com/merchant-harness/mph/suites"
)

// Secrets of the leaky run, none with a recognisable prefix: they can only
// be masked by value.
const (
	leakPlainKey    = "Zq9Vx2LmPp41RtYw8KcDnoprefix" // the primary's secret key, without sk_
	leakAdminKey    = "LeakAdminKey-4q8w2e6r"
	leakURLUser     = "ops"
	leakURLPassword = "UrlPassw0rd-Leak-77"
)

// TestLeakyTargetLeaksNothing runs `mph conform` and every load scenario
// against a sandbox that echoes every request (headers and body) in its
// answers, with a primary secret key without the sk_ prefix, a password in
// the base URL's userinfo and an admin key without prefix. Then it greps every
// artifact (stdout/stderr, JUnit, JSON, summary JSON, HTML, Markdown,
// summary.md, plot.html and results.bin decoded) for every form of every
// secret: it must find none.
func TestLeakyTargetLeaksNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the conformance suite and four load runs")
	}
	dir := t.TempDir()
	if d := os.Getenv("MPH_LEAK_TEST_DIR"); d != "" {
		dir = d // keep the artifacts for inspection
	}
	bin := mphBinary(t) // built once per test binary
	arts := map[string]string{}
	// Conform against a sandbox with its rate limits; the load runs against
	// another one without, so that conform's limit specs do not starve them.
	// Faults make specs fail where secrets flow (secure details, voucher
	// codes and PINs, the token exchange), so their exchanges are printed.
	env, px := leakyTarget(t, sandbox.Options{EchoRequests: true, AdminKey: leakAdminKey, Faults: []string{
		"card-secure-reveals-frozen", "gift-verify-charges-again", "gift-verify-tenant-leak", "auth-wrong-secret-accepted", "token-lifetime-600s",
	}})
	runLeaky(t, bin, env, arts, "conform", "conform", "--no-color", "-v", "--out", filepath.Join(dir, "conform"))
	env, px2 := leakyTarget(t, sandbox.Options{EchoRequests: true, AdminKey: leakAdminKey, DisableRateLimits: true})
	px.also = px2
	for _, sc := range loadtest.ScenarioNames() { // every registered scenario
		args := []string{"load", "--scenario", sc, "--rate", "20", "--duration", "1s", "--pool-size", "3",
			"--out", filepath.Join(dir, "load-"+sc)}
		if sc == "list" {
			args = append(args, "--list-query", "limit=-5") // 400s: their bodies are kept in results.bin
		}
		runLeaky(t, bin, env, arts, "load "+sc, args...)
	}
	collectArtifacts(t, dir, arts)
	for _, want := range []string{"junit.xml", "report.json", "report.summary.json", "report.html", "summary.md", "plot.html", "results.bin"} {
		found := false
		for name := range arts {
			found = found || strings.HasSuffix(name, want)
		}
		if !found {
			t.Errorf("no %s among the artifacts", want)
		}
	}
	if len(px.values("voucher code")) == 0 || len(px.values("pan")) == 0 {
		t.Errorf("the run met no voucher code or PAN: the grep would prove little (seen %v)", px.seen)
	}
	echoed := 0
	for name, text := range arts {
		n := strings.Count(text, "debug") + strings.Count(text, "X-Echo-Authorization")
		echoed += n
		t.Logf("%s: %d bytes, %d echoes", name, len(text), n)
	}
	if echoed == 0 {
		t.Error("no artifact carries the target's echo: the grep would prove nothing")
	}
	for _, k := range []string{"pan", "cvv", "voucher code", "pin", "token", "webhook secret"} {
		t.Logf("the target handed out %d %s values", len(px.values(k)), k)
	}
	forms, patterns := leakForms(px, sandbox.DemoMerchants())
	for name, text := range arts {
		for _, f := range forms {
			if strings.Contains(text, f.value) {
				t.Errorf("%s: %s leaked (%.6s…)", name, f.what, f.value)
			}
		}
		for what, re := range patterns {
			for _, m := range re.FindAllString(text, -1) {
				if specIDAfterWord(m) {
					continue // a spec text ending in "Bearer" before its ID
				}
				t.Errorf("%s: %s leaked: %.24q", name, what, m)
				break
			}
		}
	}
}

// specIDAfterWord reports whether m is a word followed by a spec ID of the
// inventory, as a report's search text puts them: not a credential.
func specIDAfterWord(m string) bool {
	f := strings.Fields(m)
	if len(f) != 2 {
		return false
	}
	inv, _ := suites.Inventory()
	for _, e := range inv {
		if e.ID == f[1] {
			return true
		}
	}
	return false
}

// leakyTarget starts an echoing sandbox behind a leak proxy and returns the
// environment that points mph at it: a password in the URLs' userinfo, the
// primary's secret key without the sk_ prefix.
func leakyTarget(t *testing.T, opts sandbox.Options) ([]string, *leakProxy) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	sbx, err := sandbox.Start(ctx, "127.0.0.1:0", opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sbx.Close() })
	demo := sandbox.DemoMerchants()
	px := newLeakProxy(t, strings.TrimSuffix(sbx.BaseURL, "/v1/merchant"), demo[0].ID, demo[0].TestKey, leakPlainKey)
	withPw := func(path string) string {
		u, _ := url.Parse(px.srv.URL + path)
		u.User = url.UserPassword(leakURLUser, leakURLPassword)
		return u.String()
	}
	return append(os.Environ(),
		"MPH_BASE_URL="+withPw("/v1/merchant"), "MPH_CONTROLS_URL="+withPw("/_sandbox"), "MPH_ADMIN_KEY="+leakAdminKey,
		"MPH_MERCHANT_ID="+demo[0].ID, "MPH_SECRET_KEY="+leakPlainKey,
		"MPH_MERCHANT2_ID="+demo[1].ID, "MPH_SECRET_KEY2="+demo[1].TestKey,
		"MPH_LIVE_MERCHANT_ID="+demo[0].ID, "MPH_LIVE_SECRET_KEY="+demo[0].LiveKey,
		"MPH_LIVE_LOWKYB_MERCHANT_ID="+demo[1].ID, "MPH_LIVE_LOWKYB_SECRET_KEY="+demo[1].LiveKey,
		"MPH_BLOCKED_MERCHANT_ID="+demo[2].ID, "MPH_BLOCKED_SECRET_KEY="+demo[2].TestKey,
	), px
}

// runLeaky runs mph and keeps its combined output as an artifact; exit
// codes 0 and 1 are fine (the echo breaks specs), anything else is not.
func runLeaky(t *testing.T, bin string, env []string, arts map[string]string, name string, args ...string) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err := cmd.Run()
	t.Logf("mph %s: %s", name, time.Since(start).Round(time.Millisecond))
	var ee *exec.ExitError
	if err != nil && (!errors.As(err, &ee) || ee.ExitCode() > 1) {
		t.Fatalf("mph %s: %v\n%s", name, err, out.String())
	}
	arts[name+" output"] = out.String()
	if d := os.Getenv("MPH_LEAK_TEST_DIR"); d != "" {
		_ = os.WriteFile(filepath.Join(d, strings.ReplaceAll(name, " ", "-")+".out"), out.Bytes(), 0o600)
	}
}

// collectArtifacts reads every file the runs wrote: HTML unescaped (html/
// template writes + as &#43;), results.bin decoded with vegeta's decoder.
func collectArtifacts(t *testing.T, dir string, arts map[string]string) {
	t.Helper()
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() == "mph" {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		if d.Name() == "results.bin" {
			arts[rel] = decodeResults(t, path)
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		arts[rel] = string(b)
		if strings.HasSuffix(path, ".html") {
			arts[rel+" (unescaped)"] = html.UnescapeString(string(b))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func decodeResults(t *testing.T, path string) string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	dec := vegeta.NewDecoder(f)
	var b strings.Builder
	for {
		var r vegeta.Result
		if err := dec.Decode(&r); err != nil {
			if !errors.Is(err, io.EOF) {
				t.Errorf("%s: %v", path, err)
			}
			break
		}
		b.WriteString(r.Method + " " + r.URL + " " + r.Error + " " + string(r.Body) + "\n")
		for k, vs := range r.Headers {
			b.WriteString(k + ": " + strings.Join(vs, ", ") + "\n")
		}
	}
	return b.String()
}

type leakForm struct{ what, value string }

// leakForms lists every form of every secret the harness held or met, and
// the patterns no artifact may match.
func leakForms(px *leakProxy, demo []sandbox.DemoMerchant) ([]leakForm, map[string]*regexp.Regexp) {
	var forms []leakForm
	add := func(what string, values ...string) {
		for _, v := range values {
			if v != "" {
				forms = append(forms, leakForm{what, v})
			}
		}
	}
	b64 := func(what, s string) {
		for _, e := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
			add(what, e.EncodeToString([]byte(s)))
		}
	}
	add("the primary's secret key (no sk_ prefix)", leakPlainKey)
	b64("base64 of the secret key", leakPlainKey)
	b64("base64(merchantId:secret)", demo[0].ID+":"+leakPlainKey)
	for _, m := range demo {
		add("a demo secret key", m.TestKey, m.LiveKey)
		b64("base64(merchantId:secret)", m.ID+":"+m.TestKey)
	}
	add("the admin key", leakAdminKey)
	b64("base64 of the admin key", leakAdminKey)
	add("the URL password", leakURLPassword, url.QueryEscape(leakURLPassword))
	b64("base64(user:password) of the URL", leakURLUser+":"+leakURLPassword)
	add("an access token", px.values("token")...)
	add("a webhook secret", px.values("webhook secret")...)
	for _, p := range px.values("pan") {
		add("a full PAN", p, strings.ReplaceAll(p, " ", ""))
	}
	for _, c := range px.values("voucher code") {
		add("a voucher code", c)
		if len(c) > 8 {
			add("a voucher code (all but its last 4)", c[:len(c)-4])
		}
	}
	patterns := map[string]*regexp.Regexp{
		"a JWT":                     regexp.MustCompile(`eyJ[A-Za-z0-9_-]{10,}`),
		"a Basic/Bearer credential": regexp.MustCompile(`(?i)\b(basic|bearer)\s+[A-Za-z0-9._~+/-]*[0-9.=+][A-Za-z0-9._~+/=-]*`),
		// Bounded by non-alphanumerics: 16 digits inside a hex id
		// (crd_b3093268839338775e) are no card number; every PAN the
		// target handed out is searched for by value above.
		"a 16-digit PAN": regexp.MustCompile(`(^|[^0-9A-Za-z.])[0-9]{4}[ -]?[0-9]{4}[ -]?[0-9]{4}[ -]?[0-9]{4}([^0-9A-Za-z]|$)`),
		"a CVV":          regexp.MustCompile(`(?i)cvv[\\"']*\s*[:=]\s*[\\"']*[0-9]{3,4}`),
		"a PIN":          regexp.MustCompile(`(?i)pin[\\"']*\s*[:=]\s*[\\"']*[0-9]{4,}`),
		"a URL password": regexp.MustCompile(`://[^/\s:@"]*:[^*\s/@"][^\s/@"]*@`),
	}
	for _, c := range px.values("cvv") {
		patterns["cvv "+c] = regexp.MustCompile(`(?i)cvv[\\"']*\s*[:=]\s*[\\"']*` + c)
	}
	for _, p := range px.values("pin") {
		patterns["pin "+p] = regexp.MustCompile(`(?i)pin[\\"']*\s*[:=]?\s*[\\"']*` + p)
	}
	return forms, patterns
}
