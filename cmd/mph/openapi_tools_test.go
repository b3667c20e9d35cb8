package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
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

// The third-party OpenAPI tools the export is checked with, at the versions
// `make openapi-tools` installs.
const (
	redoclyPackage = "@redocly/cli@2.77.0"
	prismPackage   = "@stoplight/prism-cli@5.16.0"
)

// nodeTool is the command running an npm tool: its installed binary, else
// npx with the pinned package; the test is skipped, saying why, without
// Node.js.
func nodeTool(t *testing.T, bin, pkg string) []string {
	t.Helper()
	if p, err := exec.LookPath(bin); err == nil {
		return []string{p}
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Skipf("Node.js is not installed (make openapi-tools installs %s with npm): the export is not checked with %s", pkg, bin)
	}
	npx, err := exec.LookPath("npx")
	if err != nil {
		t.Skipf("npx is not installed (make openapi-tools installs %s): the export is not checked with %s", pkg, bin)
	}
	return []string{npx, "--yes", pkg}
}

// exportOpenAPI runs mph openapi as a user would and returns the file.
func exportOpenAPI(t *testing.T, dir string, args ...string) string {
	t.Helper()
	name := strings.NewReplacer("/", "_", ":", "_").Replace("api" + strings.Join(args, "_"))
	out := filepath.Join(dir, name)
	r := gateRun(t, nil, 0, syscall.SIGINT, append([]string{"openapi", "-o", out}, args...)...)
	expectCode(t, "mph openapi", r, 0)
	return out
}

// TestOpenAPIPassesRedoclyLint: the export, in YAML and JSON, for the
// sandbox's root and for another base path, lints clean with Redocly's
// recommended rules: 0 errors and 0 warnings (an operation without an
// operationId, a missing licence, a required member undeclared each warn).
func TestOpenAPIPassesRedoclyLint(t *testing.T) {
	redocly := nodeTool(t, "redocly", redoclyPackage)
	dir := t.TempDir()
	for _, args := range [][]string{
		{"--format", "yaml"},
		{"--format", "json"},
		{"--format", "yaml", "--server", "https://api.provider.test/api/v1/merchant"},
	} {
		spec := exportOpenAPI(t, dir, args...)
		cmd := exec.Command(redocly[0], append(redocly[1:], "lint", spec, "--format=json")...)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		_ = cmd.Run() // exits 1 on errors; the totals say why
		var res struct {
			Totals   struct{ Errors, Warnings int }
			Problems []struct{ RuleID, Message string }
		}
		if err := json.Unmarshal(stdout.Bytes(), &res); err != nil {
			t.Fatalf("redocly lint %v: %v\n%s\n%s", args, err, stdout.String(), stderr.String())
		}
		t.Logf("redocly lint (%s) %v: %d errors, %d warnings", redoclyPackage, args, res.Totals.Errors, res.Totals.Warnings)
		if res.Totals.Errors+res.Totals.Warnings > 0 {
			t.Errorf("redocly lint %v: %d errors, %d warnings: %+v", args, res.Totals.Errors, res.Totals.Warnings, res.Problems)
		}
	}
}

// prism runs `prism proxy SPEC UPSTREAM` on a free port until the test
// ends, logging to a file; it returns the proxy's merchant root and the log.
func prism(t *testing.T, spec, upstream string) (string, func() string) {
	t.Helper()
	bin := nodeTool(t, "prism", prismPackage)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	logPath := filepath.Join(t.TempDir(), "prism.log")
	logFile, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin[0], append(bin[1:], "proxy", spec, upstream, "--host", "127.0.0.1", "--port", fmt.Sprint(port), "--errors=false")...)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		_ = cmd.Wait()
		logFile.Close()
	})
	read := func() string { b, _ := os.ReadFile(logPath); return string(b) }
	for deadline := time.Now().Add(2 * time.Minute); !strings.Contains(read(), "Prism is listening"); time.Sleep(200 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("prism proxy did not start:\n%s", read())
		}
	}
	return fmt.Sprintf("http://127.0.0.1:%d/v1/merchant", port), read
}

var prismViolation = regexp.MustCompile(`Violation: (request|response)\S*`)

// violations counts Prism's violations of requests and of answers, and
// lists the answers' ones.
func violations(log string) (requests int, answers []string) {
	sc := bufio.NewScanner(strings.NewReader(log))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		m := prismViolation.FindStringSubmatch(sc.Text())
		switch {
		case m == nil:
		case m[1] == "request":
			requests++
		default:
			answers = append(answers, strings.TrimSpace(sc.Text()))
		}
	}
	return requests, answers
}

// TestConformThroughPrismProxy: the export as mph openapi writes it, with
// the sandbox's root as --server, works with `prism proxy` unmodified; a
// whole conform pass goes through it and Prism finds no violation in any
// answer of the sandbox (the suites' deliberately wrong requests are its
// request violations). The check can fail: in front of a sandbox whose
// configuration answers amounts as strings, Prism reports the answer.
func TestConformThroughPrismProxy(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the whole conformance suite through prism proxy")
	}
	nodeTool(t, "prism", prismPackage)
	ctx := context.Background()
	dir := t.TempDir()

	broken, err := sandbox.Start(ctx, "127.0.0.1:0", sandbox.Options{Faults: []string{"config-amounts-as-strings"}})
	if err != nil {
		t.Fatal(err)
	}
	defer broken.Close()
	root, log := prism(t, exportOpenAPI(t, dir, "--server", broken.BaseURL), origin(broken.BaseURL))
	demo := sandbox.DemoMerchants()
	if code := configThrough(t, root, demo[0].ID, demo[0].TestKey); code != http.StatusOK {
		t.Fatalf("GET /cards/config through prism answered %d", code)
	}
	if _, answers := violations(log()); len(answers) == 0 {
		t.Fatalf("prism reported no violation of an answer with its amounts as strings: the check proves nothing\n%s", log())
	}

	clean, err := sandbox.Start(ctx, "127.0.0.1:0", sandbox.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer clean.Close()
	root, log = prism(t, exportOpenAPI(t, dir, "--format", "yaml", "--server", clean.BaseURL), origin(clean.BaseURL))
	code, out, sum := runConformEnv(t, []string{"MPH_BASE_URL=" + root, "MPH_MERCHANT_ID=" + demo[0].ID, "MPH_SECRET_KEY=" + demo[0].TestKey, "MPH_TIMEOUT=3s"})
	forwarded := strings.Count(log(), "Received forward response")
	requests, answers := violations(log())
	t.Logf("conform through prism proxy (%s): exit %d, %d passed, %d failed, %d harness errors; %d exchanges forwarded; %d request violations (the suites' deliberate ones), %d answer violations",
		prismPackage, code, sum.Passed, sum.Failed, sum.HarnessErrors, forwarded, requests, len(answers))
	if forwarded < 1000 || sum.Passed < 300 {
		t.Fatalf("the conform pass did not go through prism (%d exchanges, %d passed):\n%.3000s", forwarded, sum.Passed, out)
	}
	if len(answers) > 0 {
		t.Errorf("prism found %d violations in the sandbox's answers:\n%s", len(answers), strings.Join(answers[:min(20, len(answers))], "\n"))
	}
}

// origin is a URL's scheme and host.
func origin(raw string) string {
	i := strings.Index(raw[len("http://"):], "/")
	if i < 0 {
		return raw
	}
	return raw[:len("http://")+i]
}

// configThrough exchanges the credentials for a token and reads the
// configuration through root.
func configThrough(t *testing.T, root, merchant, key string) int {
	t.Helper()
	body := fmt.Sprintf(`{"merchantId":%q,"secretKey":%q}`, merchant, key)
	resp, err := http.Post(root+"/auth/token", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	var tok struct {
		Data struct{ AccessToken string } `json:"data"`
	}
	err = json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&tok)
	resp.Body.Close()
	if err != nil || tok.Data.AccessToken == "" {
		t.Fatalf("token through prism: %v", err)
	}
	req, _ := http.NewRequest(http.MethodGet, root+"/cards/config", nil)
	req.Header.Set("Authorization", "Bearer "+tok.Data.AccessToken)
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
	resp.Body.Close()
	return resp.StatusCode
}

// TestOpenAPIFormat: --format picks YAML or JSON whatever -o's name; by
// default -o's extension decides; anything else, and a --server that is
// no merchant root URL, are usage errors.
func TestOpenAPIFormat(t *testing.T) {
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"openapi", "--format", "yaml"}, 0, "openapi: 3.1.0"},
		{[]string{"openapi", "--format", "json"}, 0, `"openapi": "3.1.0"`},
		{[]string{"openapi"}, 0, `"openapi": "3.1.0"`},
		{[]string{"openapi", "--format", "xml"}, 2, "want yaml or json"},
		{[]string{"openapi", "--server", "127.0.0.1:8080/v1/merchant"}, 2, "--server"},
	} {
		r := gateRun(t, nil, 0, syscall.SIGINT, c.args...)
		expectCode(t, strings.Join(c.args, " "), r, c.code)
		if !strings.Contains(r.stdout+r.stderr, c.want) {
			t.Errorf("%v: output lacks %q", c.args, c.want)
		}
	}
}
