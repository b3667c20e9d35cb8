package main

import (
	"bufio"
	"context"
	"fmt"
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

// readmeBlock is one shell block of the README and what the comment above
// it says of it: run by the test named, or an illustration with a reason.
type readmeBlock struct {
	run, illustration string
	lines             []string
}

var blockMark = regexp.MustCompile(`^<!-- (run|illustration): (.+?) -->$`)

// readmeBlocks reads every ```sh block of the README with its mark.
func readmeBlocks(t *testing.T) []readmeBlock {
	t.Helper()
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	var out []readmeBlock
	lines := strings.Split(string(b), "\n")
	for i := 0; i < len(lines); i++ {
		if lines[i] != "```sh" {
			continue
		}
		var blk readmeBlock
		if i > 0 {
			if m := blockMark.FindStringSubmatch(lines[i-1]); m != nil && m[1] == "run" {
				blk.run = m[2]
			} else if m != nil {
				blk.illustration = m[2]
			}
		}
		for i++; i < len(lines) && lines[i] != "```"; i++ {
			blk.lines = append(blk.lines, lines[i])
		}
		out = append(out, blk)
	}
	return out
}

// TestReadmeCommandsAreRunOrMarked: every shell block of the README is run
// by a test named in the comment above it, or says why it is only an
// illustration.
func TestReadmeCommandsAreRunOrMarked(t *testing.T) {
	runners := map[string]bool{"first-run": true, "sandbox": true}
	blocks := readmeBlocks(t)
	if len(blocks) < 3 {
		t.Fatalf("%d shell blocks in the README", len(blocks))
	}
	for _, b := range blocks {
		switch {
		case b.run != "" && !runners[b.run]:
			t.Errorf("block %q: no test runs %q", b.lines, b.run)
		case b.run == "" && len(strings.Fields(b.illustration)) < 4:
			t.Errorf("block %q is neither run by a test (<!-- run: NAME -->) nor an illustration with its reason (<!-- illustration: why -->)", b.lines)
		}
	}
}

// readmeRun is one command of a block, run as a user would, with its exit
// code and output.
type readmeRun struct {
	line   string
	code   int
	out    string
	took   time.Duration
	stderr string
}

// runReadmeBlock runs each line of the named block with bash in dir, where
// bin/mph is the binary under test, with env and no other MPH_* variable.
func runReadmeBlock(t *testing.T, name, dir string, env []string) []readmeRun {
	t.Helper()
	var blk *readmeBlock
	for _, b := range readmeBlocks(t) {
		if b.run == name {
			blk = &b
		}
	}
	if blk == nil {
		t.Fatalf("the README has no block run by %s", name)
	}
	if err := os.MkdirAll(filepath.Join(dir, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(mphBinary(t), filepath.Join(dir, "bin", "mph")); err != nil && !os.IsExist(err) {
		t.Fatal(err)
	}
	var base []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "MPH_") && !strings.HasPrefix(kv, "GITHUB_STEP_SUMMARY=") {
			base = append(base, kv)
		}
	}
	var runs []readmeRun
	for _, line := range blk.lines {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		cmd := exec.CommandContext(ctx, "bash", "-c", line)
		cmd.Dir, cmd.Env = dir, append(base, env...)
		var so, se strings.Builder
		cmd.Stdout, cmd.Stderr = &so, &se
		start := time.Now()
		err := cmd.Run()
		cancel()
		r := readmeRun{line: line, out: so.String(), stderr: se.String(), took: time.Since(start)}
		if ee, ok := err.(*exec.ExitError); ok {
			r.code = ee.ExitCode()
		} else if err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		if r.code != 0 {
			t.Fatalf("README command %q: exit %d\nstdout: %.3000s\nstderr: %.3000s", line, r.code, r.out, r.stderr)
		}
		runs = append(runs, r)
	}
	return runs
}

// hiddenSandbox starts `mph sandbox --hide-controls` on a free port and
// returns its base URL.
func hiddenSandbox(t *testing.T) string {
	t.Helper()
	cmd := exec.Command(mphBinary(t), "sandbox", "--addr", "127.0.0.1:0", "--hide-controls")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Signal(syscall.SIGTERM); _ = cmd.Wait() })
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		if f := strings.Fields(sc.Text()); len(f) == 3 && f[0] == "base" && f[1] == "URL" {
			go func() {
				for sc.Scan() {
				}
			}()
			return f[2]
		}
	}
	t.Fatal("mph sandbox printed no base URL")
	return ""
}

var (
	runMarker     = regexp.MustCompile(`<!-- run:([a-zA-Z]+) -->(.*?)<!-- /run -->`)
	discoverCount = regexp.MustCompile(`discover: \d+ keys found, \d+ undetermined, (\d+) requests`)
)

// TestReadmeFirstRun runs the README's five first-run commands, copied
// literally, against `mph sandbox --hide-controls` (a TEST environment
// without test controls): each exits 0, within five minutes together; the
// conform run passes with nothing failed or undecided, every spec it could
// not run says why; the CI run compares with the first. The figures the
// README quotes of this run are what it measured (-update-readme rewrites
// them).
func TestReadmeFirstRun(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the whole conformance suite twice")
	}
	dir := t.TempDir()
	secret := filepath.Join(dir, "secret")
	demo := sandbox.DemoMerchants()
	if err := os.WriteFile(secret, []byte(demo[0].TestKey+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env := []string{"MPH_BASE_URL=" + hiddenSandbox(t), "MPH_MERCHANT_ID=" + demo[0].ID, "MPH_SECRET_KEY_FILE=" + secret}
	runs := runReadmeBlock(t, "first-run", dir, env)
	if len(runs) != 5 {
		t.Fatalf("the first run is %d commands, want 5", len(runs))
	}
	var took time.Duration
	for _, r := range runs {
		took += r.took
		t.Logf("%6.1fs  %s", r.took.Seconds(), r.line)
	}
	if took > 5*time.Minute {
		t.Errorf("the five commands took %s, more than the five minutes the README promises", took)
	}
	sum := readSummary(t, filepath.Join(dir, "mph-results", "report.summary.json"))
	ci := readSummary(t, filepath.Join(dir, "ci-results", "report.summary.json"))
	if sum.Failed+sum.NoVerdict+sum.HarnessErrors != 0 || sum.Passed == 0 || ci.Baseline == nil {
		t.Errorf("against the sandbox: %d passed, %d failed, %d no verdict, %d harness errors; CI baseline %v", sum.Passed, sum.Failed, sum.NoVerdict, sum.HarnessErrors, ci.Baseline)
	}
	for _, r := range sum.SkipReasons {
		if !strings.Contains(r.Reason, "MPH_") && !strings.Contains(r.Reason, "--") && !strings.Contains(r.Reason, "profile") {
			t.Errorf("not applicable without saying what to set: %q", r.Reason)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "ci-results", "summary.md")); err != nil {
		t.Error(err)
	}
	m := discoverCount.FindStringSubmatch(runs[0].stderr)
	if m == nil {
		t.Fatalf("discovery printed no request count:\n%s", runs[0].stderr)
	}
	checkRunFigures(t, map[string]string{"requests": m[1], "passed": fmt.Sprint(sum.Passed), "skipped": fmt.Sprint(sum.Skipped)})
}

// checkRunFigures compares the README's <!-- run:KEY --> figures with the
// run's.
func checkRunFigures(t *testing.T, want map[string]string) {
	t.Helper()
	path := "../../README.md"
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	var stale []string
	out := runMarker.ReplaceAllStringFunc(string(b), func(s string) string {
		m := runMarker.FindStringSubmatch(s)
		v, ok := want[m[1]]
		if !ok {
			t.Errorf("README marker run:%s names no figure of the first run", m[1])
			return s
		}
		seen[m[1]] = true
		if m[2] != v {
			stale = append(stale, fmt.Sprintf("%s: README says %s, the run measured %s", m[1], m[2], v))
		}
		return "<!-- run:" + m[1] + " -->" + v + "<!-- /run -->"
	})
	for k := range want {
		if !seen[k] {
			t.Errorf("the first run's %s is quoted nowhere in the README (<!-- run:%s -->)", k, k)
		}
	}
	if *updateReadme {
		if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if len(stale) > 0 {
		t.Errorf("the README's first-run figures are stale (go test ./cmd/mph -run TestReadmeFirstRun -update-readme): %s", strings.Join(stale, "; "))
	}
}

// TestReadmeSandboxCommands runs the README's commands against the
// embedded sandbox: each exits 0 and writes what it says.
func TestReadmeSandboxCommands(t *testing.T) {
	if testing.Short() {
		t.Skip("runs mph conform and mph load")
	}
	dir := t.TempDir()
	runReadmeBlock(t, "sandbox", dir, nil)
	for _, f := range []string{"sandbox-results/report.html", "sandbox-results/report.summary.json", "load-results/plot.html", "merchant-api.yaml"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
}

var mdLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// TestReadmeLinksResolve: every page of the reference is linked from the
// README, and every relative link of the README and of docs/ names a file
// that exists.
func TestReadmeLinksResolve(t *testing.T) {
	pages, err := filepath.Glob("../../docs/*.md")
	if err != nil || len(pages) < 8 {
		t.Fatalf("docs pages: %v %v", pages, err)
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pages {
		if name := "docs/" + filepath.Base(p); name != "docs/ledger.md" && !strings.Contains(string(readme), "]("+name+")") {
			t.Errorf("the README does not link %s", name)
		}
	}
	for _, path := range append([]string{"../../README.md"}, pages...) {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range mdLink.FindAllStringSubmatch(string(b), -1) {
			target, _, _ := strings.Cut(m[1], "#")
			if target == "" || strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			if _, err := os.Stat(filepath.Join(filepath.Dir(path), target)); err != nil {
				t.Errorf("%s links %s, which does not exist", strings.TrimPrefix(path, "../../"), m[1])
			}
		}
	}
}
