package loadreport

import (
	"fmt"
	"html/template"
	"io"
	"math"
	"sort"

	"github.com/merchant-harness/mph/loadtest/metrics"
	"github.com/merchant-harness/mph/loadtest/summary"
	"github.com/merchant-harness/mph/report"
)

var loadPage = template.Must(template.New("load.html.tmpl").ParseFS(loadTemplates, "templates/load.html.tmpl", "templates/load_chart.tmpl"))

// HTML renders a self-contained load report: inline CSS and SVG, no
// script, no CDN.
func HTML(r *summary.Report) report.Reporter {
	return func(w io.Writer) error { return loadPage.ExecuteTemplate(w, "page", loadView(r)) }
}

// loadPageView is what the page template shows.
type loadPageView struct {
	Title       string
	Headline    []headlineRow
	Facts       []fact
	LatencyNote string
	Endpoints   *table
	Thresholds  []string
	Breached    bool
	Probe       *probeView
	Capacity    *capacityView
	Charts      []chartGroup
	ProbeCharts []chartGroup
}

type chartGroup struct {
	Endpoint string
	Charts   []*chart
}

type share struct {
	Text string
	Fail bool
}

type headlineRow struct {
	Endpoint                                 string
	P50, P99, SvcP50, SvcP99, LagP50, LagP99 string
	Share50, Share99                         share
}

type probeView struct {
	Table    table
	Topology *topologyView
	Paths    []pathView
}

type topologyView struct {
	Note    string
	Tables  []table
	Headers []headerLine
	Notes   []string
}

type pathView struct {
	Endpoint string
	Steps    table
	Facts    []fact
}

type capacityView struct {
	SLO, Lead, Tail, Note string
	Table                 table
}

func loadView(r *summary.Report) loadPageView {
	v := loadPageView{Title: r.Scenario + " (" + r.Kind + ")", Headline: headline(r.Endpoints), Facts: runFacts(r),
		LatencyNote: latencyNote, Breached: r.Breached}
	if len(r.Endpoints) > 0 {
		t := endpointTable(r.Endpoints)
		v.Endpoints = &t
	}
	for _, t := range r.Thresholds {
		v.Thresholds = append(v.Thresholds, t.Format())
	}
	if r.Probe != nil {
		v.Probe = probeViewOf(r.Probe)
		v.ProbeCharts = probeCharts(r.Probe)
	}
	if c := r.Capacity; c != nil {
		lead, tail := capacityHeadline(c)
		v.Capacity = &capacityView{SLO: c.SLO, Lead: lead, Tail: tail, Table: capacityTable(c)}
		if c.Confirmed {
			v.Capacity.Note = c.Note
		}
	}
	v.Charts = endpointCharts(r.Endpoints)
	return v
}

func probeViewOf(p *summary.ProbeReport) *probeView {
	v := &probeView{Table: probeTable(p)}
	if t := p.Topology; t != nil {
		v.Topology = &topologyView{Note: topologyNote, Tables: topologyTables(t), Headers: topologyHeaders(t), Notes: t.Notes}
	}
	for _, pp := range p.Paths {
		v.Paths = append(v.Paths, pathView{Endpoint: pp.Endpoint, Steps: stepTable(pp), Facts: pathFacts(pp)})
	}
	return v
}

// headline sets the three latencies side by side per endpoint, with the
// lag's share of the open-model figure (failing from summary.LagShareLimit).
func headline(eps []metrics.Summary) []headlineRow {
	shareOf := func(lag, lat float64) share {
		if lat <= 0 {
			return share{Text: "–"}
		}
		return share{Text: fmt.Sprintf("%.0f%%", 100*lag/lat), Fail: lag/lat >= summary.LagShareLimit}
	}
	var out []headlineRow
	for _, s := range eps {
		out = append(out, headlineRow{Endpoint: s.Endpoint, P50: ms(s.Latency.P50), P99: ms(s.Latency.P99),
			SvcP50: ms(s.ServiceLatency.P50), SvcP99: ms(s.ServiceLatency.P99), LagP50: ms(s.SendLag.P50), LagP99: ms(s.SendLag.P99),
			Share50: shareOf(s.SendLag.P50, s.Latency.P50), Share99: shareOf(s.SendLag.P99, s.Latency.P99)})
	}
	return out
}

// endpointCharts draws, per endpoint, the latency histogram and the
// latency, rate and status charts over time and by percentile.
func endpointCharts(eps []metrics.Summary) []chartGroup {
	var out []chartGroup
	for _, s := range eps {
		hist := histogramChart(s)
		if len(s.Series) == 0 && hist == nil {
			continue
		}
		g := chartGroup{Endpoint: s.Endpoint}
		if hist != nil {
			g.Charts = append(g.Charts, hist)
		}
		if len(s.Series) > 0 {
			g.Charts = append(g.Charts, seriesCharts(s)...)
		}
		out = append(out, g)
	}
	return out
}

func seriesCharts(s metrics.Summary) []*chart {
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
	return []*chart{
		lineChart("Latency over time (open model, by intended send second)", "s", "ms", xs, []line{
			{"p50", "#1f77b4", get(func(p metrics.Point) float64 { return p.P50Ms })},
			{"p99", "#d62728", get(func(p metrics.Point) float64 { return p.P99Ms })},
			{"max", "#999999", get(func(p metrics.Point) float64 { return p.MaxMs })},
		}, false),
		lineChart("Offered vs achieved rate", "s", "req/s", xs, []line{
			{"offered (scheduled)", "#7f7f7f", get(func(p metrics.Point) float64 { return p.Scheduled })},
			{"achieved (sent)", "#1f77b4", get(func(p metrics.Point) float64 { return p.Sent })},
			{"2xx", "#2ca02c", get(func(p metrics.Point) float64 { return p.OK })},
		}, false),
		lineChart("Status codes over time", "s", "req/s", xs, []line{
			{"2xx", "#2ca02c", get(func(p metrics.Point) float64 { return p.OK })},
			{"429", "#ff7f0e", get(func(p metrics.Point) float64 { return p.R429 })},
			{"other/errors", "#d62728", get(func(p metrics.Point) float64 { return p.Other })},
		}, false),
		percentileChart(s),
	}
}

// percentileChart plots latency by percentile on an HDR-style x axis:
// 1/(1-q) on a log scale.
func percentileChart(s metrics.Summary) *chart {
	l, v := s.Latency, s.ServiceLatency
	qx := []float64{0, 50, 90, 95, 99, 99.9, 100}
	px := make([]float64, len(qx))
	for i, q := range qx {
		if q >= 100 {
			px[i] = 4
		} else {
			px[i] = math.Min(4, -math.Log10(1-q/100))
		}
	}
	return lineChart("Latency by percentile (log scale)", "", "ms", px, []line{
		{"latency", "#9467bd", []float64{l.Min, l.P50, l.P90, l.P95, l.P99, l.P999, l.Max}},
		{"service", "#8c564b", []float64{v.Min, v.P50, v.P90, v.P95, v.P99, v.P999, v.Max}},
	}, true)
}

// probeCharts plots each probe: the ladder by offered rate and the blast's
// status codes over time.
func probeCharts(p *summary.ProbeReport) []chartGroup {
	var out []chartGroup
	for _, pp := range p.Paths {
		g := chartGroup{Endpoint: pp.Endpoint}
		if c := ladderChart(pp.Steps); c != nil {
			g.Charts = append(g.Charts, c)
		}
		if len(pp.Series) > 0 {
			var t, o2, o4 []float64
			for _, s := range pp.Series {
				t = append(t, s.T)
				o2 = append(o2, s.OK)
				o4 = append(o4, s.R429)
			}
			g.Charts = append(g.Charts, lineChart(fmt.Sprintf("Saturating blast at %.0f req/s: status codes over time (429 onset)", pp.BlastRate), "s", "req/s", t, []line{
				{"2xx", "#2ca02c", o2}, {"429", "#ff7f0e", o4},
			}, false))
		}
		out = append(out, g)
	}
	return out
}

// ladderChart plots every ladder step (coarse, fine, confirm) by its offered
// rate: accepted 2xx/s and refused 429/s against the offered req/s.
func ladderChart(steps []summary.ProbeStep) *chart {
	if len(steps) == 0 {
		return nil
	}
	st := append([]summary.ProbeStep(nil), steps...)
	sort.SliceStable(st, func(i, j int) bool { return st[i].Offered < st[j].Offered })
	var xs, off, ok, r429 []float64
	for _, s := range st {
		xs = append(xs, s.Offered)
		off = append(off, s.Offered)
		ok = append(ok, s.OKRate)
		r429 = append(r429, s.Offered*s.Share429)
	}
	return lineChart("Ladder by offered rate (x: offered req/s): 2xx/s and 429/s per step", "/s", "req/s", xs, []line{
		{"offered", "#7f7f7f", off}, {"2xx/s", "#2ca02c", ok}, {"429/s", "#ff7f0e", r429},
	}, false)
}
