package report

import (
	"image"
	"image/color"
	"path/filepath"
	"strings"
	"testing"

	"github.com/merchant-harness/mph/internal/browsertest"
)

// TestConformPageInABrowser opens report.html in headless Chromium at the
// size of a laptop screen (1366×768), offline: the page logs nothing to the
// console (no script error, no remote asset), its scripts leave every
// section in place, and the first screen shows the verdict's banner and the
// money card. BROWSERTEST_SCREENSHOTS=DIR keeps the screenshot for a person to look at.
func TestConformPageInABrowser(t *testing.T) {
	browsertest.Chromium(t)
	path := filepath.Join(t.TempDir(), "report.html")
	if err := WriteHTML(goldenRun(t), path); err != nil {
		t.Fatal(err)
	}
	page := browsertest.Open(t, path, 1366, 768)
	page.Keep(t, "conform-report.png")
	if len(page.Console) > 0 {
		t.Errorf("report.html logged to the console: %q", page.Console)
	}
	for _, want := range []string{"FAILED: 2 failed", "exit code <b>1</b>", "Test money", "760.62", "Teardown", "Rate limits",
		"Against the baseline run mphbase1", "Failures and harness errors (3)", `class="repro"`,
		"No verdict, by reason", "Not applicable, by reason", "Rules × endpoints", `id="filter"`} {
		if !strings.Contains(page.DOM, want) {
			t.Errorf("the page as the browser built it lacks %q", want)
		}
	}
	if !shows(page.Screenshot, color.RGBA{0xfd, 0xe7, 0xe9, 0xff}, 300) {
		t.Error("the first screen does not show the failed verdict's banner")
	}
	if !shows(page.Screenshot, color.RGBA{0x2e, 0x7d, 0x32, 0xff}, 100) {
		t.Error("the first screen does not show the teardown card's mark")
	}
}

// shows reports whether at least n pixels of the image have colour c.
func shows(img image.Image, c color.RGBA, n int) bool {
	count := 0
	r := img.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if color.RGBAModel.Convert(img.At(x, y)).(color.RGBA) == c {
				count++
			}
		}
	}
	return count >= n
}
