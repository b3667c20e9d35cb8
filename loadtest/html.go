package loadtest

import (
	"fmt"
	"html"
	"math"
	"strings"

	"github.com/merchant-harness/mph/loadtest/metrics"
)

// HTML renders a self-contained report: inline CSS and SVG, no script, no CDN.
func (r *Report) HTML() string {
	var b strings.Builder
	b.WriteString(`<!doctype html><html><head><meta charset="utf-8"><title>mph load report</title><style>
body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#222;max-width:1100px}
table{border-collapse:collapse;margin:8px 0}td,th{border:1px solid #ccc;padding:3px 7px;text-align:right}th{background:#f3f3f3}
td:first-child,th:first-child{text-align:left}.fail{color:#b00;font-weight:bold}.pass{color:#070}
svg{background:#fff;border:1px solid #ddd;margin:6px 6px 6px 0}h2{margin-top:28px}code{background:#f3f3f3;padding:0 3px}
</style></head><body>`)
	fmt.Fprintf(&b, "<h1>mph load — %s</h1>", html.EscapeString(r.Scenario+" ("+r.Kind+")"))
	b.WriteString(headlineHTML(r.Endpoints))
	b.WriteString(summaryHTML(r.Markdown()))
	for _, s := range r.Endpoints {
		hist := histogramSVG(s)
		if len(s.Series) == 0 && hist == "" {
			continue
		}
		fmt.Fprintf(&b, "<h2>%s</h2>", html.EscapeString(s.Endpoint))
		b.WriteString(hist)
		if len(s.Series) == 0 {
			continue
		}
		xs := make([]float64, len(s.Series))
		get := func(f func(metrics.Point) float64) []float64 {
			out := make([]float64, len(s.Series))
			for i, p := range s.Series {
				out[i] = f(p)
			}
			return out
		}
		for i, p := range s.Series {
			xs[i] = p.T
		}
		b.WriteString(lineChart("Latency over time (open model, by intended send second)", "s", "ms", xs, []line{
			{"p50", "#1f77b4", get(func(p metrics.Point) float64 { return p.P50Ms })},
			{"p99", "#d62728", get(func(p metrics.Point) float64 { return p.P99Ms })},
			{"max", "#999999", get(func(p metrics.Point) float64 { return p.MaxMs })},
		}, false))
		b.WriteString(lineChart("Offered vs achieved rate", "s", "req/s", xs, []line{
			{"offered (scheduled)", "#7f7f7f", get(func(p metrics.Point) float64 { return p.Scheduled })},
			{"achieved (sent)", "#1f77b4", get(func(p metrics.Point) float64 { return p.Sent })},
			{"2xx", "#2ca02c", get(func(p metrics.Point) float64 { return p.OK })},
		}, false))
		b.WriteString(lineChart("Status codes over time", "s", "req/s", xs, []line{
			{"2xx", "#2ca02c", get(func(p metrics.Point) float64 { return p.OK })},
			{"429", "#ff7f0e", get(func(p metrics.Point) float64 { return p.R429 })},
			{"other/errors", "#d62728", get(func(p metrics.Point) float64 { return p.Other })},
		}, false))
		l := s.Latency
		qx := []float64{0, 50, 90, 95, 99, 99.9, 100}
		qv := []float64{l.Min, l.P50, l.P90, l.P95, l.P99, l.P999, l.Max}
		px := make([]float64, len(qx))
		for i, q := range qx {
			// HDR-style x axis: 1/(1-q) on a log scale.
			if q >= 100 {
				px[i] = 4
			} else {
				px[i] = math.Min(4, -math.Log10(1-q/100))
			}
		}
		b.WriteString(lineChart("Latency by percentile (log scale)", "", "ms", px, []line{
			{"latency", "#9467bd", qv},
			{"service", "#8c564b", []float64{s.ServiceLatency.Min, s.ServiceLatency.P50, s.ServiceLatency.P90, s.ServiceLatency.P95, s.ServiceLatency.P99, s.ServiceLatency.P999, s.ServiceLatency.Max}},
		}, true))
	}
	if r.Probe != nil {
		b.WriteString(r.Probe.HTML())
	}
	b.WriteString("</body></html>\n")
	return b.String()
}

type line struct {
	name, color string
	ys          []float64
}

// lineChart draws an inline SVG line chart.
func lineChart(title, xunit, yunit string, xs []float64, lines []line, pctAxis bool) string {
	const W, H, L, R, T, B = 520.0, 240.0, 56.0, 12.0, 28.0, 30.0
	xmin, xmax := math.Inf(1), math.Inf(-1)
	ymax := 0.0
	for _, x := range xs {
		xmin, xmax = math.Min(xmin, x), math.Max(xmax, x)
	}
	for _, l := range lines {
		for _, y := range l.ys {
			if !math.IsNaN(y) && !math.IsInf(y, 0) {
				ymax = math.Max(ymax, y)
			}
		}
	}
	if len(xs) == 0 {
		return ""
	}
	if xmax <= xmin {
		xmax = xmin + 1
	}
	if ymax <= 0 {
		ymax = 1
	}
	ymax = niceCeil(ymax * 1.05)
	px := func(x float64) float64 { return L + (x-xmin)/(xmax-xmin)*(W-L-R) }
	py := func(y float64) float64 { return H - B - y/ymax*(H-T-B) }
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" font-size="10">`, W, H, W, H)
	fmt.Fprintf(&b, `<text x="%.0f" y="14" font-size="12" font-weight="bold">%s</text>`, L, html.EscapeString(title))
	for i := 0; i <= 4; i++ {
		y := ymax * float64(i) / 4
		fmt.Fprintf(&b, `<line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" stroke="#eee"/><text x="%.1f" y="%.1f" text-anchor="end">%s</text>`,
			L, W-R, py(y), py(y), L-4, py(y)+3, fmtNum(y))
	}
	fmt.Fprintf(&b, `<text x="4" y="%.0f">%s</text>`, T-4, html.EscapeString(yunit))
	if pctAxis {
		for _, t := range []struct {
			x float64
			l string
		}{{0, "0"}, {1, "90"}, {2, "99"}, {3, "99.9"}, {4, "max"}} {
			fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle">%s</text>`, px(t.x), H-B+14, t.l)
		}
	} else {
		for i := 0; i <= 5; i++ {
			x := xmin + (xmax-xmin)*float64(i)/5
			fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle">%s%s</text>`, px(x), H-B+14, fmtNum(x), xunit)
		}
	}
	lx := L + 4
	for _, l := range lines {
		var pts []string
		for i, y := range l.ys {
			if i < len(xs) && !math.IsNaN(y) {
				pts = append(pts, fmt.Sprintf("%.1f,%.1f", px(xs[i]), py(y)))
			}
		}
		fmt.Fprintf(&b, `<polyline fill="none" stroke="%s" stroke-width="1.6" points="%s"/>`, l.color, strings.Join(pts, " "))
		fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="10" height="3" fill="%s"/><text x="%.1f" y="%.1f">%s</text>`,
			lx, H-8, l.color, lx+13, H-4, html.EscapeString(l.name))
		lx += 20 + 6*float64(len(l.name))
	}
	b.WriteString("</svg>")
	return b.String()
}

func niceCeil(v float64) float64 {
	if v <= 0 {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 2, 4, 8, 10} { // quarter ticks stay round
		if m*p >= v {
			return m * p
		}
	}
	return 10 * p
}

func fmtNum(v float64) string {
	switch {
	case v == math.Trunc(v) && math.Abs(v) < 1e6:
		return fmt.Sprintf("%.0f", v)
	case math.Abs(v) >= 10:
		return fmt.Sprintf("%.0f", v)
	case math.Abs(v) >= 1:
		return fmt.Sprintf("%.1f", v)
	}
	return fmt.Sprintf("%.2f", v)
}
