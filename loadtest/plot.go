package loadtest

import (
	"bufio"
	"fmt"
	"io"
	"os"

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
// and status class, downsampled for display. It streams the file; the plot
// keeps one compressed point per result until rendering.
func VegetaPlot(resultsPath, outPath, title string) error {
	in, err := os.Open(resultsPath)
	if err != nil {
		return err
	}
	defer in.Close()
	dec := vegeta.DecoderFor(bufio.NewReaderSize(in, 256<<10))
	if dec == nil {
		return fmt.Errorf("%s: no results", resultsPath)
	}
	// vegeta's plot shows each result's own latency: from the actual send
	// (service latency), not the open-model latency of report.html.
	title += " — service latency (from actual send, vegeta's definition; open-model latency and send lag in report.html)"
	p := plot.New(plot.Title(title), plot.Downsample(4000), plot.Label(statusLabel))
	for {
		var r vegeta.Result
		if err := dec.Decode(&r); err != nil {
			if err == io.EOF {
				break
			}
			return err
		}
		if err := p.Add(&r); err != nil {
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
