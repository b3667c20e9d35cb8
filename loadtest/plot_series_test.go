package loadtest

import (
	"image"
	"image/color"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/merchant-harness/mph/internal/browsertest"
)

// mixedResults writes the results of a mixed run at 100/s for 3 s: list,
// secure and token interleaved 6:3:1 as the smooth weighted round robin
// sends them, each at a latency of its own.
func mixedResults(t *testing.T, dir string) string {
	t.Helper()
	path := filepath.Join(dir, "results.bin")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	enc := vegeta.NewEncoder(f)
	urls := map[string]string{
		"list":   "http://h/v1/merchant/cards?limit=20",
		"secure": "http://h/v1/merchant/cards/crd_x/secure",
		"token":  "http://h/v1/merchant/auth/token",
	}
	base := map[string]time.Duration{"list": time.Millisecond, "secure": 3 * time.Millisecond, "token": 9 * time.Millisecond}
	order := []string{"list", "secure", "list", "token", "list", "secure", "list", "list", "secure", "list"}
	t0 := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	for i := 0; i < 300; i++ {
		ep := order[i%len(order)]
		r := vegeta.Result{Attack: "mixed", Seq: uint64(i), Code: 200, Timestamp: t0.Add(time.Duration(i) * 10 * time.Millisecond),
			Latency: base[ep] + time.Duration(i%7)*100*time.Microsecond, URL: urls[ep]}
		if err := enc.Encode(&r); err != nil {
			t.Fatal(err)
		}
	}
	return path
}

// TestPlotNamesEverySeriesOfAComposite: the page has a series per endpoint
// of the mix, and lets each draw across the others' points.
func TestPlotNamesEverySeriesOfAComposite(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "plot.html")
	if err := VegetaPlot(mixedResults(t, dir), out, "mph load mixed"); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"mixed: list 2xx"`, `"mixed: secure 2xx"`, `"mixed: token 2xx"`, "spanGaps: true"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("plot.html lacks %s", want)
		}
	}
	if _, err := spanGaps([]byte("<html>no series options</html>")); err == nil {
		t.Error("a page without vegeta's series options was taken as patched")
	}
}

// seriesColours are the colours vegeta gives the first three successful
// series (labels sorted: list, secure, token).
var seriesColours = map[string]color.RGBA{
	"list":   {0xE9, 0xD7, 0x58, 0xff},
	"secure": {0x29, 0x73, 0x73, 0xff},
	"token":  {0x39, 0x39, 0x3A, 0xff},
}

// TestPlotDrawsEverySeriesOfAComposite opens plot.html of a mixed run in
// headless Chromium at laptop size: the plot area shows the colour of
// every series, where vegeta's page as it comes drew only list's (the
// other two are never adjacent in time, and uPlot broke their lines at
// every null). No console message either.
func TestPlotDrawsEverySeriesOfAComposite(t *testing.T) {
	browsertest.Chromium(t)
	dir := t.TempDir()
	results := mixedResults(t, dir)
	fixed := filepath.Join(dir, "plot.html")
	if err := VegetaPlot(results, fixed, "mph load mixed"); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(fixed)
	if err != nil {
		t.Fatal(err)
	}
	asShipped := filepath.Join(dir, "vegeta.html")
	if err := os.WriteFile(asShipped, []byte(strings.Replace(string(b), " spanGaps: true,", "", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	page := browsertest.Open(t, fixed, 1366, 768)
	page.Keep(t, "plot-mixed.png")
	if len(page.Console) > 0 {
		t.Errorf("plot.html logged to the console: %q", page.Console)
	}
	before := browsertest.Open(t, asShipped, 1366, 768)
	for name, c := range seriesColours {
		got, was := plotPixels(page.Screenshot, c), plotPixels(before.Screenshot, c)
		t.Logf("%s: %d pixels of its colour in the plot area (%d on vegeta's page as shipped)", name, got, was)
		if got < 200 {
			t.Errorf("series %s is not drawn: %d pixels of %v in the plot area", name, got, c)
		}
		if name != "list" && was*4 > got {
			t.Errorf("series %s: vegeta's page as shipped shows %d pixels, the fixed one %d: the check cannot tell a drawn series", name, was, got)
		}
	}
}

// plotPixels counts the pixels close to c in the plot area (above the
// legend, which shows every series' colour whether drawn or not).
func plotPixels(img image.Image, c color.RGBA) int {
	n := 0
	r := img.Bounds()
	for y := r.Min.Y + 90; y < r.Min.Y+600 && y < r.Max.Y; y++ {
		for x := r.Min.X + 100; x < r.Max.X-20; x++ {
			p := color.RGBAModel.Convert(img.At(x, y)).(color.RGBA)
			if near(p.R, c.R) && near(p.G, c.G) && near(p.B, c.B) {
				n++
			}
		}
	}
	return n
}

func near(a, b uint8) bool { return a-b < 4 || b-a < 4 }
