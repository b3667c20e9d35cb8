// Package browsertest opens a page in headless Chromium for tests, offline:
// a screenshot at a window size and every message the page wrote to the
// browser console (script errors and failed loads included). Tests that use
// it skip, saying why, where Chromium is not installed (make browser).
package browsertest

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
	"time"
)

// Install is the command that installs the browser (make browser runs it).
const Install = "apt-get install -y chromium"

// Page is what Chromium made of a page.
type Page struct {
	Screenshot image.Image
	PNG        string   // the screenshot's file, kept in the test's temp dir
	Console    []string // every console message, uncaught errors included
	DOM        string   // the document after its scripts ran
}

// Chromium is the browser's path; the test is skipped with the reason when
// there is none.
func Chromium(t testing.TB) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skipf("headless Chromium is not installed (make browser, or %s): the page is not checked in a browser", Install)
	return ""
}

// consoleLine is how Chromium logs a console message to stderr.
var consoleLine = regexp.MustCompile(`:CONSOLE(?:\(\d+\)|:\d+)\] (.*)`)

// Open loads the file in headless Chromium at width × height with no network
// beyond the file itself (every host resolves to nothing, so a remote asset
// fails and says so on the console).
func Open(t testing.TB, file string, width, height int) Page {
	t.Helper()
	bin := Chromium(t)
	abs, err := filepath.Abs(file)
	if err != nil {
		t.Fatal(err)
	}
	shot := filepath.Join(t.TempDir(), filepath.Base(file)+"."+strconv.Itoa(width)+"x"+strconv.Itoa(height)+".png")
	common := []string{"--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
		"--user-data-dir=" + t.TempDir(), `--host-resolver-rules=MAP * ~NOTFOUND`,
		"--enable-logging=stderr", "--v=0", "--virtual-time-budget=3000",
		"--window-size=" + strconv.Itoa(width) + "," + strconv.Itoa(height)}
	stderr := run(t, bin, append(common, "--screenshot="+shot, "file://"+abs), nil)
	var dom bytes.Buffer
	run(t, bin, append(common, "--dump-dom", "file://"+abs), &dom)
	p := Page{PNG: shot, DOM: dom.String()}
	for _, m := range consoleLine.FindAllStringSubmatch(stderr, -1) {
		p.Console = append(p.Console, m[1])
	}
	f, err := os.Open(shot)
	if err != nil {
		t.Fatalf("chromium wrote no screenshot: %v\n%s", err, stderr)
	}
	defer f.Close()
	if p.Screenshot, err = png.Decode(f); err != nil {
		t.Fatalf("screenshot %s: %v", shot, err)
	}
	return p
}

// run runs Chromium with a bound on its time and returns its stderr.
func run(t testing.TB, bin string, args []string, stdout *bytes.Buffer) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if stdout != nil {
		cmd.Stdout = stdout
	}
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium %v: %v\n%s", args, err, stderr.String())
	}
	return stderr.String()
}

// Keep copies the screenshot to dir (BROWSERTEST_SCREENSHOTS, for a person to look
// at) when that variable is set.
func (p Page) Keep(t testing.TB, name string) {
	t.Helper()
	dir := os.Getenv("BROWSERTEST_SCREENSHOTS")
	if dir == "" {
		return
	}
	b, err := os.ReadFile(p.PNG)
	if err == nil {
		err = os.WriteFile(filepath.Join(dir, name), b, 0o644)
	}
	if err != nil {
		t.Errorf("keeping the screenshot: %v", err)
	}
}
