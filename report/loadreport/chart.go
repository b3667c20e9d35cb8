package loadreport

import (
	"fmt"
	"math"
	"strings"
)

// Every chart is 520×240 with the plot area inside these margins; the
// chart template (templates/load_chart.tmpl) draws what chart holds.
const (
	chartW, chartH         = 520.0, 240.0
	chartLeft, chartRight  = 56.0, 12.0
	chartTop               = 28.0
	lineBottom, histBottom = 30.0, 34.0
)

// chart is an inline SVG chart: grid, ticks, bars, lines and legend, all
// placed in pixels.
type chart struct {
	Class  string
	Total  int64 // data-total of a histogram
	Title  string
	YUnit  string
	Grid   []gridLine
	XTicks []xTick
	Bars   []bar
	Lines  []polyline
	Legend []legendEntry
}

type gridLine struct {
	Y, TextY float64
	Label    string
}

type xTick struct {
	X, Bottom, TextY float64
	Label            string
	Line             bool
}

type bar struct {
	FromMs, ToMs float64
	Count        int64
	X, Y, W, H   float64
	Title        string
}

type polyline struct {
	Color, Width, Points string
}

type legendEntry struct {
	X, Y, TextX, TextY float64
	H                  int
	Color, Name        string
}

// yGrid draws five horizontal grid lines from 0 to top.
func yGrid(top float64, py func(float64) float64) []gridLine {
	out := make([]gridLine, 0, 5)
	for i := 0; i <= 4; i++ {
		v := top * float64(i) / 4
		out = append(out, gridLine{Y: py(v), TextY: py(v) + 3, Label: fmtNum(v)})
	}
	return out
}

type line struct {
	name, color string
	ys          []float64
}

// lineChart draws lines over a shared x axis; pctAxis labels the x axis by
// percentile (0, 90, 99, 99.9, max) for HDR-style plots.
func lineChart(title, xunit, yunit string, xs []float64, lines []line, pctAxis bool) *chart {
	if len(xs) == 0 {
		return nil
	}
	xmin, xmax := math.Inf(1), math.Inf(-1)
	for _, x := range xs {
		xmin, xmax = math.Min(xmin, x), math.Max(xmax, x)
	}
	ymax := 0.0
	for _, l := range lines {
		for _, y := range l.ys {
			if !math.IsNaN(y) && !math.IsInf(y, 0) {
				ymax = math.Max(ymax, y)
			}
		}
	}
	if xmax <= xmin {
		xmax = xmin + 1
	}
	if ymax <= 0 {
		ymax = 1
	}
	ymax = niceCeil(ymax * 1.05)
	px := func(x float64) float64 { return chartLeft + (x-xmin)/(xmax-xmin)*(chartW-chartLeft-chartRight) }
	py := func(y float64) float64 { return chartH - lineBottom - y/ymax*(chartH-chartTop-lineBottom) }
	c := &chart{Title: title, YUnit: yunit, Grid: yGrid(ymax, py), XTicks: lineTicks(xmin, xmax, xunit, pctAxis, px)}
	lx := chartLeft + 4
	for _, l := range lines {
		var pts []string
		for i, y := range l.ys {
			if i < len(xs) && !math.IsNaN(y) {
				pts = append(pts, fmt.Sprintf("%.1f,%.1f", px(xs[i]), py(y)))
			}
		}
		c.Lines = append(c.Lines, polyline{Color: l.color, Width: "1.6", Points: strings.Join(pts, " ")})
		c.Legend = append(c.Legend, legendEntry{X: lx, Y: chartH - 8, TextX: lx + 13, TextY: chartH - 4, H: 3, Color: l.color, Name: l.name})
		lx += 20 + 6*float64(len(l.name))
	}
	return c
}

func lineTicks(xmin, xmax float64, xunit string, pctAxis bool, px func(float64) float64) []xTick {
	y := chartH - lineBottom + 14
	var out []xTick
	if pctAxis {
		for i, l := range []string{"0", "90", "99", "99.9", "max"} {
			out = append(out, xTick{X: px(float64(i)), TextY: y, Label: l})
		}
		return out
	}
	for i := 0; i <= 5; i++ {
		x := xmin + (xmax-xmin)*float64(i)/5
		out = append(out, xTick{X: px(x), TextY: y, Label: fmtNum(x) + xunit})
	}
	return out
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
