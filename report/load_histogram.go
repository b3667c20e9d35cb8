package report

import (
	"fmt"
	"html"
	"math"
	"strings"

	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/merchant-harness/mph/loadtest/metrics"
)

// histPerDecade is the number of log-scaled frequency buckets per decade of
// latency: each bucket is 10^(1/10) ≈ 1.26 times as wide as the previous.
const histPerDecade = 10

// FreqBucket is one bar of a frequency histogram: the count of latencies
// in [FromMs, ToMs).
type FreqBucket struct {
	FromMs, ToMs float64
	Count        int64
}

// FrequencyBuckets regroups an HDR histogram (µs) into log-scaled buckets
// covering its min..max, each HDR bucket counted in the log bucket holding
// its lowest value. The counts sum to the histogram's total count.
func FrequencyBuckets(h *hdr.Histogram) []FreqBucket {
	if h == nil || h.TotalCount() == 0 {
		return nil
	}
	lo := math.Floor(math.Log10(float64(max(1, h.Min()))) * histPerDecade)
	hi := math.Floor(math.Log10(float64(max(1, h.Max())))*histPerDecade) + 1
	out := make([]FreqBucket, int(hi-lo))
	for i := range out {
		out[i].FromMs = math.Pow(10, (lo+float64(i))/histPerDecade) / 1000
		out[i].ToMs = math.Pow(10, (lo+float64(i)+1)/histPerDecade) / 1000
	}
	for _, bar := range h.Distribution() {
		if bar.Count == 0 {
			continue
		}
		i := int(math.Floor(math.Log10(float64(max(1, bar.From)))*histPerDecade) - lo)
		i = min(max(i, 0), len(out)-1)
		out[i].Count += bar.Count
	}
	return out
}

// histogramSVG draws the open-model latency frequency histogram of one
// endpoint (bars, log-scaled x axis) with the service latency's histogram
// over it (outline), from the summary's stored HDR histograms.
func histogramSVG(s metrics.Summary) string {
	e, err := metrics.FromSummary(s)
	if err != nil || e.Latency.TotalCount() == 0 {
		return ""
	}
	lat, svc := FrequencyBuckets(e.Latency), FrequencyBuckets(e.Service)
	const W, H, L, R, T, B = 520.0, 240.0, 56.0, 12.0, 28.0, 34.0
	xmin, xmax := lat[0].FromMs, lat[len(lat)-1].ToMs
	if len(svc) > 0 {
		xmin, xmax = math.Min(xmin, svc[0].FromMs), math.Max(xmax, svc[len(svc)-1].ToMs)
	}
	var ymax int64 = 1
	for _, b := range append(append([]FreqBucket{}, lat...), svc...) {
		ymax = max(ymax, b.Count)
	}
	top := niceCeil(float64(ymax) * 1.05)
	px := func(v float64) float64 {
		return L + (math.Log10(v)-math.Log10(xmin))/(math.Log10(xmax)-math.Log10(xmin))*(W-L-R)
	}
	py := func(c float64) float64 { return H - B - c/top*(H-T-B) }
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="histogram" xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" font-size="10" data-total="%d">`,
		W, H, W, H, e.Latency.TotalCount())
	fmt.Fprintf(&b, `<text x="%.0f" y="14" font-size="12" font-weight="bold">%s</text>`, L,
		html.EscapeString("Latency frequency (open model; log-scaled buckets, 10 per decade)"))
	for i := 0; i <= 4; i++ {
		c := top * float64(i) / 4
		fmt.Fprintf(&b, `<line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" stroke="#eee"/><text x="%.1f" y="%.1f" text-anchor="end">%s</text>`,
			L, W-R, py(c), py(c), L-4, py(c)+3, fmtNum(c))
	}
	fmt.Fprintf(&b, `<text x="4" y="%.0f">requests</text>`, T-4)
	for d := math.Floor(math.Log10(xmin)); d <= math.Log10(xmax); d++ {
		for _, m := range []float64{1, 2, 5} { // 1-2-5 ticks on the log axis
			v := m * math.Pow(10, d)
			if v < xmin || v > xmax {
				continue
			}
			x := px(v)
			fmt.Fprintf(&b, `<line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" stroke="#ddd"/><text x="%.1f" y="%.1f" text-anchor="middle">%sms</text>`,
				x, x, float64(T), H-B, x, H-B+13, fmtNum(v))
		}
	}
	for _, k := range lat {
		if k.Count == 0 {
			continue
		}
		fmt.Fprintf(&b, `<rect class="bucket" data-from-ms="%g" data-to-ms="%g" data-count="%d" x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="#9467bd" fill-opacity="0.75"><title>%s–%s: %d</title></rect>`,
			k.FromMs, k.ToMs, k.Count, px(k.FromMs), py(float64(k.Count)), math.Max(0.5, px(k.ToMs)-px(k.FromMs)-0.5), H-B-py(float64(k.Count)),
			ms(k.FromMs), ms(k.ToMs), k.Count)
	}
	var pts []string
	for _, k := range svc {
		pts = append(pts, fmt.Sprintf("%.1f,%.1f %.1f,%.1f", px(k.FromMs), py(float64(k.Count)), px(k.ToMs), py(float64(k.Count))))
	}
	if len(pts) > 0 {
		fmt.Fprintf(&b, `<polyline fill="none" stroke="#8c564b" stroke-width="1.4" points="%s"/>`, strings.Join(pts, " "))
	}
	b.WriteString(histogramLegend(L, H))
	b.WriteString("</svg>")
	return b.String()
}

func histogramLegend(left, height float64) string {
	return fmt.Sprintf(`<rect x="%.1f" y="%.1f" width="10" height="6" fill="#9467bd"/><text x="%.1f" y="%.1f">open model (from intended send)</text>`+
		`<rect x="%.1f" y="%.1f" width="10" height="2" fill="#8c564b"/><text x="%.1f" y="%.1f">service (from actual send)</text>`,
		left, height-9, left+13, height-3, left+200, height-7, left+213, height-3)
}
