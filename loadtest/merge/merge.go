// Package merge combines the reports of the shards of one distributed run
// (mph load merge) into one: the figures merged exactly, the thresholds
// evaluated on them, the raw results streamed into one file. It reads
// reports and results files and runs nothing; inputs that are not the
// shards of one run are refused (check.go) unless forced.
package merge

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/merchant-harness/mph/loadtest/metrics"
	"github.com/merchant-harness/mph/loadtest/resultsbin"
	"github.com/merchant-harness/mph/loadtest/summary"
	"github.com/merchant-harness/mph/loadtest/threshold"
)

// Options configure a merge.
type Options struct {
	OutDir     string // when set, raw results are combined into OutDir/results.bin
	Thresholds []threshold.Threshold
	Force      bool // merge inputs that are not the shards of one run (marked in the report)
}

// Inputs combines the reports (summary.json, or directories holding one)
// of the shards of one distributed run into one report: HDR histograms and
// counters are merged exactly, time series are aligned by wall-clock time,
// and the thresholds are evaluated on the merged figures. Inputs that are
// not the shards of one run (scenario, target, schedule or --start-at differ,
// shards overlap or are missing) are refused with a *Refusal unless
// o.Force is set; a forced merge lists the mismatches in the report. When
// o.OutDir is set and the inputs have raw results, those are re-encoded
// into one results.bin there (streaming).
func Inputs(inputs []string, o Options) (*summary.Report, error) {
	if len(inputs) == 0 {
		return nil, fmt.Errorf("merge: no inputs")
	}
	reps := make([]*summary.Report, 0, len(inputs))
	paths := make([]string, 0, len(inputs))
	for _, in := range inputs {
		path := in
		if fi, err := os.Stat(in); err == nil && fi.IsDir() {
			path = filepath.Join(in, "summary.json")
		}
		r, err := summary.ReadReport(path)
		if err != nil {
			return nil, fmt.Errorf("merge: %w", err)
		}
		if r.Kind != "run" {
			return nil, fmt.Errorf("merge: %s is a %s report, not a run", path, r.Kind)
		}
		reps, paths = append(reps, r), append(paths, path)
	}
	why := checkMergeable(reps, paths)
	if len(why) > 0 && !o.Force {
		return nil, &Refusal{Reasons: why}
	}
	rep, resultFiles, err := mergeReports(reps, paths, o.Thresholds)
	if err != nil {
		return nil, err
	}
	if len(why) > 0 {
		rep.ForcedMerge = why // the reports state it first, before the notes
	}
	if o.OutDir != "" && len(resultFiles) > 0 {
		if err := os.MkdirAll(o.OutDir, 0o755); err != nil {
			return nil, err
		}
		n, err := Results(filepath.Join(o.OutDir, "results.bin"), resultFiles)
		if err != nil {
			return nil, fmt.Errorf("merge: raw results: %w", err)
		}
		rep.ResultsFile = "results.bin"
		rep.Notes = append(rep.Notes, fmt.Sprintf("raw results: %d results from %d files", n, len(resultFiles)))
	}
	return rep, nil
}

// mergeReports merges the figures of reports already checked.
func mergeReports(reps []*summary.Report, paths []string, ths []threshold.Threshold) (*summary.Report, []string, error) {
	rep := &summary.Report{Tool: "mph load", Kind: "merge"}
	var runs [][]metrics.Summary
	var resultFiles []string
	var window float64
	scenarios := map[string]bool{}
	for i, r := range reps {
		path := paths[i]
		runs = append(runs, r.Endpoints)
		rep.Sources = append(rep.Sources, path)
		if !scenarios[r.Scenario] {
			if rep.Scenario != "" {
				rep.Scenario += "+"
			}
			rep.Scenario += r.Scenario
		}
		scenarios[r.Scenario] = true
		if rep.Start.IsZero() || r.Start.Before(rep.Start) {
			rep.Start = r.Start
		}
		if r.End.After(rep.End) {
			rep.End = r.End
		}
		if r.WindowSeconds > window {
			window = r.WindowSeconds
		}
		rep.WarmupN += r.WarmupN
		rep.Unsent += r.Unsent
		rep.Interrupted = rep.Interrupted || r.Interrupted
		if r.Aborted != "" {
			rep.Aborted = r.Aborted
		}
		if rep.Target == "" {
			rep.Target, rep.Embedded, rep.Schedule = r.Target, r.Embedded, baseSchedule(r.Schedule)
		}
		if r.Plan != nil && rep.Plan == nil {
			p := *r.Plan
			p.ShardIndex, p.ShardCount = 0, 1
			rep.Plan = &p
		}
		if r.ResultsFile != "" {
			resultFiles = append(resultFiles, filepath.Join(filepath.Dir(path), r.ResultsFile))
		}
	}
	rep.Notes = append(rep.Notes, fmt.Sprintf("merged %d runs; offered rates use the longest measured window (%.1fs)", len(reps), window))
	m, err := metrics.Merge(runs)
	if err != nil {
		return nil, nil, fmt.Errorf("merge: %w", err)
	}
	rep.WindowSeconds = window
	rep.Endpoints = m.Summaries(time.Duration(window * float64(time.Second)))
	rep.GeneratorBound = summary.GeneratorBound(rep.Endpoints)
	rep.Thresholds = threshold.Evaluate(ths, rep.Endpoints)
	rep.Breached = threshold.Breached(rep.Thresholds)
	return rep, resultFiles, nil
}

// Results streams several vegeta result files (any encoding vegeta
// reads) into one gob-encoded file, returning the number of results.
func Results(dst string, srcs []string) (uint64, error) {
	f, err := os.Create(dst)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	bw := bufio.NewWriterSize(f, 256<<10)
	enc := resultsbin.NewEncoder(bw)
	var n uint64
	for _, src := range srcs {
		in, err := os.Open(src)
		if err != nil {
			return n, err
		}
		dec := vegeta.DecoderFor(bufio.NewReaderSize(in, 256<<10))
		if dec == nil {
			in.Close()
			// An empty file (no results) is fine.
			if fi, err := os.Stat(src); err == nil && fi.Size() == 0 {
				continue
			}
			return n, fmt.Errorf("%s: not a vegeta results file", src)
		}
		for {
			var r vegeta.Result
			if err := dec.Decode(&r); err != nil {
				if err == io.EOF {
					break
				}
				in.Close()
				return n, fmt.Errorf("%s: %w", src, err)
			}
			if err := enc.Encode(&r); err != nil {
				in.Close()
				return n, err
			}
			n++
		}
		in.Close()
	}
	return n, bw.Flush()
}
