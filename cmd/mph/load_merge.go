package main

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/merchant-harness/mph/loadtest/gate"
	"github.com/merchant-harness/mph/loadtest/launch"
	"github.com/merchant-harness/mph/loadtest/merge"
	"github.com/merchant-harness/mph/loadtest/threshold"
	"github.com/merchant-harness/mph/report/loadreport"
)

func init() {
	var f mergeFlags
	cmd := &cobra.Command{
		Use:   "merge RUN_DIR|summary.json...",
		Short: "Merge the results and HDR histograms of several runs (shards) into one report with global thresholds",
		Long: `merge combines the summary.json files (or the run directories holding them)
of several runs, typically the shards of one distributed run started with
--shard i/n and a common --start-at: HDR histograms and counts merge exactly,
time series align by wall-clock time, the raw results.bin files are combined
into one (readable by 'vegeta report'), and --threshold gates are evaluated on
the merged figures.

Inputs are merged only when they are the shards of one run: the same
scenario, target, schedule (rate, pace, duration, warm-up) and --start-at,
shard indices disjoint and complete. Otherwise merge exits 2 naming each
mismatch; --force merges anyway and marks the report as forced.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return runMerge(cmd, args, &f) },
	}
	cmd.Flags().StringVar(&f.out, "out", "", "output directory (default mph-results/<time>-merge)")
	cmd.Flags().StringSliceVar(&f.thresholds, "threshold", nil, "release gate evaluated on the merged figures (repeatable)")
	cmd.Flags().BoolVar(&f.force, "force", false, "merge inputs that are not the shards of one run (the report is marked as forced)")
	cmd.Flags().BoolVar(&f.noResults, "no-results", false, "do not combine the raw results files")
	f.gate.bind(cmd.Flags())
	loadCmd.AddCommand(cmd)
}

// mergeFlags are the knobs of `mph load merge`.
type mergeFlags struct {
	out              string
	thresholds       []string
	noResults, force bool
	gate             loadGateFlags
}

func runMerge(cmd *cobra.Command, args []string, f *mergeFlags) error {
	ts, err := threshold.ParseAll(f.thresholds)
	if err != nil {
		return usageErr("%v", err)
	}
	ts = threshold.WithDefaults(ts)
	out := f.out
	if out == "" {
		out = launch.OutDir("merge")
	}
	resDir := out
	if f.noResults {
		resDir = ""
	}
	inputs, err := expandGlobs(args)
	if err != nil {
		return err
	}
	rep, err := merge.Inputs(inputs, merge.Options{OutDir: resDir, Thresholds: ts, Force: f.force})
	if err != nil {
		return usageErr("%v", err)
	}
	werr := loadreport.Write(out, rep)
	if werr == nil {
		werr = f.gate.write(rep)
	}
	if werr != nil {
		werr = fmt.Errorf("merge: writing reports: %w", werr)
	}
	if len(rep.ForcedMerge) > 0 {
		fmt.Fprintf(cmd.ErrOrStderr(), "merge: FORCED despite: %s\n", strings.Join(rep.ForcedMerge, "; "))
	}
	_ = loadreport.Console(rep)(cmd.OutOrStdout())
	fmt.Fprintf(cmd.OutOrStdout(), "merged %d inputs: %s\n", len(inputs), filepath.Join(out, "summary.json"))
	var verdict error
	if rep.Breached {
		verdict = failuresErr("%s", gate.BreachReason(rep))
	}
	return keepVerdict(cmd.ErrOrStderr(), verdict, werr)
}

// expandGlobs expands glob arguments itself (container images have no
// shell to do it).
func expandGlobs(args []string) ([]string, error) {
	var inputs []string
	for _, a := range args {
		if !strings.ContainsAny(a, "*?[") {
			inputs = append(inputs, a)
			continue
		}
		m, err := filepath.Glob(a)
		if err != nil || len(m) == 0 {
			return nil, usageErr("merge: %q matches nothing", a)
		}
		inputs = append(inputs, m...)
	}
	return inputs, nil
}
