package loadreport

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"

	"github.com/merchant-harness/mph/loadtest/metrics"
	"github.com/merchant-harness/mph/loadtest/summary"
	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// attr returns the named attribute of n.
func attr(n *html.Node, name string) (string, bool) {
	for _, a := range n.Attr {
		if a.Key == name {
			return a.Val, true
		}
	}
	return "", false
}

func walk(n *html.Node, f func(*html.Node)) {
	f(n)
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		walk(c, f)
	}
}

func syntheticReport(t *testing.T) *summary.Report {
	t.Helper()
	start := time.Unix(5000, 0)
	rec := metrics.NewRecorder(start, 0)
	r := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 3000; i++ {
		off := time.Duration(i) * time.Millisecond
		lat := time.Duration(200+r.ExpFloat64()*2000) * time.Microsecond
		ep, url := "list", "http://h/v1/merchant/cards?limit=20"
		if i%3 == 0 {
			ep, url = "token", "http://h/v1/merchant/auth/token"
		}
		rec.Add(ep, &vegeta.Result{Seq: uint64(i), Code: 200, Timestamp: start.Add(off + 50*time.Microsecond), Latency: lat, URL: url}, off)
	}
	return &summary.Report{Tool: "mph load", Kind: "run", Scenario: "mixed", Start: start, End: start.Add(3 * time.Second), WindowSeconds: 3,
		Endpoints: rec.Summaries(3 * time.Second)}
}

// report.html has one latency frequency histogram per endpoint whose bars
// add up to the endpoint's request count.
func TestReportHTMLHistogramBucketsSumToCount(t *testing.T) {
	rep := syntheticReport(t)
	doc, err := html.Parse(strings.NewReader(loadHTMLString(t, rep)))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]uint64{}
	for _, s := range rep.Endpoints {
		want[strconv.FormatUint(s.Requests, 10)]++
	}
	var hists int
	walk(doc, func(n *html.Node) {
		if n.Type != html.ElementNode || n.Data != "svg" {
			return
		}
		if c, _ := attr(n, "class"); c != "histogram" {
			return
		}
		hists++
		total, _ := attr(n, "data-total")
		var sum int64
		var lastTo float64
		walk(n, func(r *html.Node) {
			if c, _ := attr(r, "class"); r.Data == "rect" && c == "bucket" {
				v, _ := attr(r, "data-count")
				k, err := strconv.ParseInt(v, 10, 64)
				if err != nil || k <= 0 {
					t.Errorf("bucket count %q", v)
				}
				from, _ := attr(r, "data-from-ms")
				f, _ := strconv.ParseFloat(from, 64)
				if f < lastTo-1e-9 {
					t.Errorf("buckets overlap or are unordered at %v", f)
				}
				to, _ := attr(r, "data-to-ms")
				lastTo, _ = strconv.ParseFloat(to, 64)
				if lastTo/f < 1.25 || lastTo/f > 1.27 {
					t.Errorf("bucket %v–%v is not 1/10 of a decade", f, lastTo)
				}
				sum += k
			}
		})
		if strconv.FormatInt(sum, 10) != total || want[total] == 0 {
			t.Errorf("histogram bars sum to %d, total %s, endpoint counts %v", sum, total, want)
		}
	})
	if hists != len(rep.Endpoints) {
		t.Errorf("%d histograms for %d endpoints", hists, len(rep.Endpoints))
	}
}

// The probe page renders its headings as HTML (no Markdown leaks), states the
// measured window, and plots the ladder by offered rate.
func TestProbeHTMLRendering(t *testing.T) {
	rep := &summary.Report{Tool: "mph load", Kind: "probe", Scenario: "secure", Start: time.Unix(0, 0), End: time.Unix(60, 0), Probe: &summary.ProbeReport{
		Paths: []summary.PathProbe{{Endpoint: "secure", LimitFound: true, OnsetRate: 20, Ceiling: 20, BlastRate: 45, BlastSeconds: 3.5,
			Steps: []summary.ProbeStep{{Phase: "coarse", Offered: 10, Requests: 20, OKRate: 10, Window: 2}, {Phase: "coarse", Offered: 30, Requests: 60, OKRate: 20, Share429: 0.33, Window: 2},
				{Phase: "fine", Offered: 18, Requests: 60, OKRate: 18, Window: 3.3}}}}}}
	rep.WindowSeconds = rep.Probe.MeasuredSeconds()
	if rep.WindowSeconds < 10.79 || rep.WindowSeconds > 10.81 {
		t.Fatalf("measured window %v, want 10.8", rep.WindowSeconds)
	}
	out := loadHTMLString(t, rep)
	for _, bad := range []string{"###", "measured window 0.0s", "**"} {
		if strings.Contains(out, bad) {
			t.Errorf("probe page contains %q", bad)
		}
	}
	for _, want := range []string{"<h4>secure steps</h4>", "measured window 10.8s", "x: offered req/s", ">30/s<"} {
		if !strings.Contains(out, want) {
			t.Errorf("probe page lacks %q", want)
		}
	}
	if _, err := html.Parse(strings.NewReader(out)); err != nil {
		t.Fatal(err)
	}
}

// A run whose open-model latency is mostly send lag is flagged in the
// summary and on the page; one whose lag is small is not.
func TestLagWarnings(t *testing.T) {
	lagged := metrics.Summary{Endpoint: "list", Requests: 100,
		Latency: metrics.LatencyStats{P50: 0.84, P99: 2}, ServiceLatency: metrics.LatencyStats{P50: 0.21, P99: 1.5}, SendLag: metrics.LatencyStats{P50: 0.6, P99: 0.7}}
	fine := metrics.Summary{Endpoint: "secure", Requests: 100,
		Latency: metrics.LatencyStats{P50: 1, P99: 3}, ServiceLatency: metrics.LatencyStats{P50: 0.95, P99: 2.9}, SendLag: metrics.LatencyStats{P50: 0.05, P99: 0.2}}
	w := summary.LagWarnings([]metrics.Summary{lagged, fine})
	if len(w) != 1 || !strings.HasPrefix(w[0], "list: send lag 0.60ms is 71% of the open-model p50 0.84ms") {
		t.Fatalf("warnings %q", w)
	}
	rep := &summary.Report{Kind: "run", Endpoints: []metrics.Summary{lagged, fine}}
	if !strings.Contains(loadMarkdownString(t, rep), "**generator-bound**: list") || !strings.Contains(loadHTMLString(t, rep), `<b>generator-bound</b>: list`) || !strings.Contains(loadHTMLString(t, rep), `<span class="fail">71%</span>`) {
		t.Error("generator-bound run not flagged in the summary or the page")
	}
	if c := loadConsoleString(t, rep); !strings.Contains(c, "WARNING generator-bound: list: send lag 0.60ms") {
		t.Errorf("generator-bound run not flagged on the console:\n%s", c)
	}
	rep.Endpoints = []metrics.Summary{fine}
	if strings.Contains(loadMarkdownString(t, rep)+loadHTMLString(t, rep)+loadConsoleString(t, rep), "generator-bound") {
		t.Error("run with a small lag flagged")
	}
}

func loadHTMLString(t *testing.T, r *summary.Report) string {
	t.Helper()
	b, err := HTML(r).Bytes()
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func loadConsoleString(t *testing.T, r *summary.Report) string {
	t.Helper()
	var b strings.Builder
	if err := Console(r)(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func loadMarkdownString(t *testing.T, r *summary.Report) string {
	t.Helper()
	b, err := Markdown(r).Bytes()
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// The page shows the summary's facts, sections and tables as HTML built
// from the report's data: no Markdown syntax, target text escaped.
func TestLoadHTMLRendersTheSummaryConstructs(t *testing.T) {
	rep := &summary.Report{Kind: "run", Scenario: "secure", Target: "http://h/v1/merchant", Embedded: true, Interrupted: true,
		Notes: []string{"<x>"}, Endpoints: []metrics.Summary{{Endpoint: "secure", Requests: 1, Latency: metrics.LatencyStats{P99: 1.81}}}}
	got := loadHTMLString(t, rep)
	for _, want := range []string{
		"<li>target: <code>http://h/v1/merchant</code> (embedded sandbox)</li>",
		"<li><b>interrupted</b>: figures cover what was collected",
		"<li>&lt;x&gt;</li>",
		"<h3>Endpoints</h3>",
		"<p>Latency is open-model:",
		"<tr><th>endpoint</th><th>requests</th>",
		"<tr><td>secure</td><td>1</td>",
		"<td>1.81ms</td>",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in:\n%s", want, got)
		}
	}
	for _, bad := range []string{"| :-", "# mph load", "<x>", "**", "`"} {
		if strings.Contains(got, bad) {
			t.Errorf("%q should not survive:\n%s", bad, got)
		}
	}
}
