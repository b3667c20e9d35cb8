package loadtest

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"sort"

	vegeta "github.com/tsenart/vegeta/v12/lib"
	"github.com/tsenart/vegeta/v12/lib/plot"
)

// statusLabel partitions results by endpoint and status class.
func statusLabel(r *vegeta.Result) string {
	cls := "other"
	switch {
	case r.Code == 0:
		cls = "error"
	case r.Code == 429:
		cls = "429"
	case r.Code >= 200 && r.Code < 300:
		cls = "2xx"
	case r.Code >= 400 && r.Code < 500:
		cls = "4xx"
	case r.Code >= 500:
		cls = "5xx"
	}
	return Classify(r.URL) + " " + cls
}

// VegetaPlot renders vegeta's own interactive latency plot (self-contained
// HTML with inline uPlot) from a raw results file, one series per endpoint
// and status class, downsampled for display. The plot needs each attack's
// points in send order, numbered in that order; the file holds them in the
// order the workers handed them over, numbered by schedule, so it is read
// into a compact point per result (send time, latency, status, interned
// URL), sorted and renumbered first; callers bound the count
// (--plot-max-results).
func VegetaPlot(resultsPath, outPath, title string) error {
	pts, err := readPlotPoints(resultsPath)
	if err != nil {
		return err
	}
	// vegeta's plot shows each result's own latency: from the actual send
	// (service latency), not the open-model latency of report.html.
	title += " — service latency (from actual send, vegeta's definition; open-model latency and send lag in report.html)"
	p := plot.New(plot.Title(title), plot.Downsample(4000), plot.Label(statusLabel))
	for i := range pts {
		if err := p.Add(&pts[i]); err != nil {
			return err
		}
	}
	p.Close()
	f, err := os.Create(outPath)
	if err != nil {
		return err
	}
	if _, err := p.WriteTo(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// readPlotPoints decodes a results file into results holding only what the
// plot reads, sorted by send time.
func readPlotPoints(resultsPath string) ([]vegeta.Result, error) {
	in, err := os.Open(resultsPath)
	if err != nil {
		return nil, err
	}
	defer in.Close()
	dec := vegeta.DecoderFor(bufio.NewReaderSize(in, 256<<10))
	if dec == nil {
		return nil, fmt.Errorf("%s: no results", resultsPath)
	}
	urls := map[string]string{}
	var pts []vegeta.Result
	for {
		var r vegeta.Result
		if err := dec.Decode(&r); err != nil {
			if err == io.EOF {
				break
			}
			return nil, err
		}
		u, ok := urls[r.URL]
		if !ok {
			u = r.URL
			urls[u] = u
		}
		pts = append(pts, vegeta.Result{Attack: r.Attack, Seq: r.Seq, Code: r.Code, Timestamp: r.Timestamp, Latency: r.Latency, URL: u, Error: plotError(r.Error)})
	}
	sort.SliceStable(pts, func(i, j int) bool { return pts[i].Timestamp.Before(pts[j].Timestamp) })
	// vegeta's plot orders each attack's points by Seq and wants their send
	// times increasing in that order; a hit's Seq here is its place in the
	// schedule, and two workers may start hits N and N+1 the other way
	// round. Renumbered in send order, each attack's Seq runs 0, 1, 2...
	next := map[string]uint64{}
	for i := range pts {
		pts[i].Seq = next[pts[i].Attack]
		next[pts[i].Attack]++
	}
	return pts, nil
}

// plotError keeps whether a result failed, not its (large, varied) text.
func plotError(e string) string {
	if e == "" {
		return ""
	}
	return "error"
}
