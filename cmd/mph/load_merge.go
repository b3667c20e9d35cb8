package main

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/merchant-harness/mph/loadtest"
	"github.com/merchant-harness/mph/loadtest/threshold"
	"github.com/merchant-harness/mph/report"
)

func init() {
	var out string
	var ths []string
	var noResults, force bool
	var gate loadGateFlags
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
		RunE: func(cmd *cobra.Command, args []string) error {
			ts, err := threshold.ParseAll(ths)
			if err != nil {
				return usageErr("%v", err)
			}
			ts = threshold.WithDefaults(ts)
			if out == "" {
				out = defaultOutDir("merge")
			}
			resDir := out
			if noResults {
				resDir = ""
			}
			// Expand globs ourselves (container images without a shell).
			var inputs []string
			for _, a := range args {
				if strings.ContainsAny(a, "*?[") {
					m, err := filepath.Glob(a)
					if err != nil || len(m) == 0 {
						return usageErr("merge: %q matches nothing", a)
					}
					inputs = append(inputs, m...)
					continue
				}
				inputs = append(inputs, a)
			}
			rep, err := loadtest.MergeInputs(inputs, loadtest.MergeOptions{OutDir: resDir, Thresholds: ts, Force: force})
			if err != nil {
				return usageErr("%v", err)
			}
			if err := report.WriteLoad(out, rep); err != nil {
				return fmt.Errorf("merge: %w", err)
			}
			if err := gate.write(rep); err != nil {
				return fmt.Errorf("merge: %w", err)
			}
			if len(rep.ForcedMerge) > 0 {
				fmt.Fprintf(cmd.ErrOrStderr(), "merge: FORCED despite: %s\n", strings.Join(rep.ForcedMerge, "; "))
			}
			printBrief(cmd.OutOrStdout(), rep)
			fmt.Fprintf(cmd.OutOrStdout(), "merged %d inputs: %s\n", len(inputs), filepath.Join(out, "summary.json"))
			if rep.Breached {
				return failuresErr("%s", breachReason(rep))
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&out, "out", "", "output directory (default mph-results/<time>-merge)")
	cmd.Flags().StringSliceVar(&ths, "threshold", nil, "release gate evaluated on the merged figures (repeatable)")
	cmd.Flags().BoolVar(&force, "force", false, "merge inputs that are not the shards of one run (the report is marked as forced)")
	cmd.Flags().BoolVar(&noResults, "no-results", false, "do not combine the raw results files")
	gate.bind(cmd.Flags())
	loadCmd.AddCommand(cmd)
}
