package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/merchant-harness/mph/cli/loadfiles"
	"github.com/merchant-harness/mph/loadtest/compare"
	"github.com/merchant-harness/mph/loadtest/launch"
	"github.com/merchant-harness/mph/report/loadreport"
)

func init() {
	var out, maxReg string
	cmd := &cobra.Command{
		Use:   "compare BASELINE CURRENT",
		Short: "Compare a run with a baseline run: per-endpoint deltas with significance tests, gated by --max-regression",
		Long: `compare reads two run reports (summary.json, or the run directories holding
them; merged reports work too) and compares them endpoint by endpoint:
throughput, success, error and 429 ratios and p50/p90/p99/p99.9 latency (open
model), each with a significance test computed from the stored HDR histograms
and counts (the method is stated in the output). A metric regresses when its
change is significant, in the worse direction and beyond its limit:

  --max-regression p99=10%,success=-0.1pp,secure:p50=5%

Latency and throughput take relative limits (%), success/errors/rate429
percentage points (pp), rank (the whole distribution, Mann-Whitney)
percentage points of P(current slower) above one half; the magnitude is
the tolerated worsening. The default, printed with every comparison, is
` + compare.DefaultRegression + `. The
Markdown comparison is printed (fit for a CI step summary) and written with
compare.html and compare.json to --out.

Exit 0 without regression, 1 on a regression, 2 on usage errors.`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			limits, err := compare.ParseRegressionLimits(maxReg)
			if err != nil {
				return usageErr("%v", err)
			}
			base, bp, err := compare.ReadRunReport(args[0])
			if err != nil {
				return usageErr("compare: baseline: %v", err)
			}
			cur, cp, err := compare.ReadRunReport(args[1])
			if err != nil {
				return usageErr("compare: current: %v", err)
			}
			c, err := compare.Compare(base, cur, bp, cp, limits)
			if err != nil {
				return usageErr("%v", err)
			}
			c.Defaults = !cmd.Flags().Changed("max-regression")
			if out == "" {
				out = launch.OutDir("compare")
			}
			if err := loadfiles.Comparison(out, c); err != nil {
				return fmt.Errorf("compare: %w", err)
			}
			_ = loadreport.CompareMarkdown(c)(cmd.OutOrStdout())
			fmt.Fprintf(cmd.ErrOrStderr(), "compare: %s/{compare.md,compare.html,compare.json}\n", out)
			if c.Regressed {
				return failuresErr("compare: %s", c.Verdict())
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&out, "out", "", "output directory (default mph-results/<time>-compare)")
	cmd.Flags().StringVar(&maxReg, "max-regression", compare.DefaultRegression, `tolerated worsening per metric ([endpoint:]metric=limit, comma-separated; "none" reports only)`)
	loadCmd.AddCommand(cmd)
}
