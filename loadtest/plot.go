package loadtest

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"sort"
	"time"

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
	// vegeta's plot orders each attack's points by Seq and wants their send
	// times increasing in that order; a hit's Seq here is its place in the
	// schedule, and two workers may start hits N and N+1 the other way
	// round. Renumbered in send order, each attack's Seq runs 0, 1, 2...
	next := make([]uint64, len(pts.attacks))
	for i := range pts.pts {
		a := pts.pts[i].attack
		r := pts.result(i, next[a])
		next[a]++
		if err := p.Add(&r); err != nil {
			return err
		}
	}
	p.Close()
	var page bytes.Buffer
	if _, err := p.WriteTo(&page); err != nil {
		return err
	}
	b, err := spanGaps(page.Bytes())
	if err != nil {
		return err
	}
	return os.WriteFile(outPath, b, 0o666)
}

// seriesOptions is where vegeta's page (lib/plot/assets/plot.html.tpl)
// sets the options of each series.
var seriesOptions = []byte("points: { show: false },")

// spanGaps lets every series of the page draw its line across the rows of
// the others. Vegeta's page holds one row per point, with every other
// series null in it, and uPlot breaks a line at a null: a series whose
// points are never adjacent in time (the token and secure parts of a
// mixed run, interleaved with list's; a status class among others) drew
// nothing at all.
func spanGaps(page []byte) ([]byte, error) {
	if bytes.Count(page, seriesOptions) != 1 {
		return nil, fmt.Errorf("vegeta's plot page no longer sets its series options as %q: the series of a composite scenario would not be drawn", seriesOptions)
	}
	return bytes.Replace(page, seriesOptions, append(append([]byte{}, seriesOptions...), []byte(" spanGaps: true,")...), 1), nil
}

// plotPoint is what the plot reads of one result, in 32 bytes: a run's
// results are held until they are sorted (vegeta.Result with its strings
// and slices is about 200).
type plotPoint struct {
	ts      int64 // send time, Unix ns
	latency time.Duration
	code    uint16
	failed  bool
	url     uint32 // index into the interned URLs
	attack  uint32 // index into the interned attack names
}

// plotPoints are a run's points and the strings they index.
type plotPoints struct {
	pts     []plotPoint
	urls    []string
	attacks []string
}

// result rebuilds the i-th point as a result the plot can add, numbered seq.
func (p *plotPoints) result(i int, seq uint64) vegeta.Result {
	pt := p.pts[i]
	r := vegeta.Result{Attack: p.attacks[pt.attack], Seq: seq, Code: pt.code, Latency: pt.latency,
		Timestamp: time.Unix(0, pt.ts), URL: p.urls[pt.url]}
	if pt.failed {
		r.Error = "error"
	}
	return r
}

// readPlotPoints decodes a results file into compact points sorted by send
// time.
func readPlotPoints(resultsPath string) (*plotPoints, error) {
	in, err := os.Open(resultsPath)
	if err != nil {
		return nil, err
	}
	defer in.Close()
	dec := vegeta.DecoderFor(bufio.NewReaderSize(in, 256<<10))
	if dec == nil {
		return nil, fmt.Errorf("%s: no results", resultsPath)
	}
	p := &plotPoints{}
	urls, attacks := map[string]uint32{}, map[string]uint32{}
	intern := func(m map[string]uint32, list *[]string, s string) uint32 {
		i, ok := m[s]
		if !ok {
			i = uint32(len(*list))
			m[s] = i
			*list = append(*list, s)
		}
		return i
	}
	for {
		var r vegeta.Result
		if err := dec.Decode(&r); err != nil {
			if err == io.EOF {
				break
			}
			return nil, err
		}
		p.pts = append(p.pts, plotPoint{ts: r.Timestamp.UnixNano(), latency: r.Latency, code: r.Code, failed: r.Error != "",
			url: intern(urls, &p.urls, r.URL), attack: intern(attacks, &p.attacks, r.Attack)})
	}
	sort.SliceStable(p.pts, func(i, j int) bool { return p.pts[i].ts < p.pts[j].ts })
	return p, nil
}
