package loadreport

import (
	"fmt"
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

// histogramChart draws the open-model latency frequency histogram of one
// endpoint (bars, log-scaled x axis) with the service latency's histogram
// over it (outline), from the summary's stored HDR histograms.
func histogramChart(s metrics.Summary) *chart {
	e, err := metrics.FromSummary(s)
	if err != nil || e.Latency.TotalCount() == 0 {
		return nil
	}
	lat, svc := FrequencyBuckets(e.Latency), FrequencyBuckets(e.Service)
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
		return chartLeft + (math.Log10(v)-math.Log10(xmin))/(math.Log10(xmax)-math.Log10(xmin))*(chartW-chartLeft-chartRight)
	}
	py := func(c float64) float64 { return chartH - histBottom - c/top*(chartH-chartTop-histBottom) }
	c := &chart{Class: "histogram", Total: e.Latency.TotalCount(), Title: "Latency frequency (open model; log-scaled buckets, 10 per decade)",
		YUnit: "requests", Grid: yGrid(top, py), XTicks: logTicks(xmin, xmax, px)}
	for _, k := range lat {
		if k.Count == 0 {
			continue
		}
		c.Bars = append(c.Bars, bar{FromMs: k.FromMs, ToMs: k.ToMs, Count: k.Count, X: px(k.FromMs), Y: py(float64(k.Count)),
			W: math.Max(0.5, px(k.ToMs)-px(k.FromMs)-0.5), H: chartH - histBottom - py(float64(k.Count)),
			Title: fmt.Sprintf("%s–%s: %d", ms(k.FromMs), ms(k.ToMs), k.Count)})
	}
	var pts []string
	for _, k := range svc {
		pts = append(pts, fmt.Sprintf("%.1f,%.1f %.1f,%.1f", px(k.FromMs), py(float64(k.Count)), px(k.ToMs), py(float64(k.Count))))
	}
	if len(pts) > 0 {
		c.Lines = []polyline{{Color: "#8c564b", Width: "1.4", Points: strings.Join(pts, " ")}}
	}
	c.Legend = []legendEntry{
		{X: chartLeft, Y: chartH - 9, TextX: chartLeft + 13, TextY: chartH - 3, H: 6, Color: "#9467bd", Name: "open model (from intended send)"},
		{X: chartLeft + 200, Y: chartH - 7, TextX: chartLeft + 213, TextY: chartH - 3, H: 2, Color: "#8c564b", Name: "service (from actual send)"},
	}
	return c
}

// logTicks marks 1-2-5 steps of each decade on a log axis.
func logTicks(xmin, xmax float64, px func(float64) float64) []xTick {
	var out []xTick
	for d := math.Floor(math.Log10(xmin)); d <= math.Log10(xmax); d++ {
		for _, m := range []float64{1, 2, 5} {
			if v := m * math.Pow(10, d); v >= xmin && v <= xmax {
				out = append(out, xTick{X: px(v), Bottom: chartH - histBottom, TextY: chartH - histBottom + 13, Label: fmtNum(v) + "ms", Line: true})
			}
		}
	}
	return out
}
