package main

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/merchant-harness/mph/cli/loadfiles"
	"github.com/merchant-harness/mph/loadtest/launch"
	"github.com/merchant-harness/mph/loadtest/probe"
	"github.com/merchant-harness/mph/loadtest/summary"
	"github.com/merchant-harness/mph/report/loadreport"
)

func init() {
	var tf loadTargetFlags
	var rf loadRunFlags
	var cf capacityFlags
	cmd := &cobra.Command{
		Use:   "capacity",
		Short: "Find the highest rate meeting an SLO (step up, binary search, confirm)",
		Long: `capacity searches the highest request rate of --scenario that meets the SLO
(achieved >= --min-achieved of offered, open-model p99 <= --p99, non-2xx or invalid ratio <= --max-errors):
it steps the rate up by --factor until a step fails, binary-searches between
the last pass and the first failure, then confirms the result with a longer
run. Against the embedded sandbox, add --no-rate-limits to measure the server
rather than its limiter. Exit 1 when no rate meets the SLO.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runCapacity(cmd, &tf, &rf, &cf) },
	}
	tf.bind(cmd.Flags())
	rf.bind(cmd.Flags(), false)
	fs := cmd.Flags()
	fs.DurationVar(&cf.p99, "p99", 100*time.Millisecond, "SLO: open-model p99 latency bound")
	fs.Float64Var(&cf.maxErr, "max-errors", 0.01, "SLO: highest ratio of non-2xx and invalid answers (429 included)")
	fs.Float64Var(&cf.minAch, "min-achieved", 0.99, "SLO: lowest achieved/offered rate ratio")
	fs.Float64Var(&cf.o.StartRate, "start-rate", 50, "first step (req/s)")
	fs.Float64Var(&cf.o.Factor, "factor", 2, "step-up growth")
	fs.Float64Var(&cf.o.MaxRate, "max-rate", 100000, "stop stepping up above this rate")
	fs.DurationVar(&cf.o.StepDur, "step-duration", 5*time.Second, "duration of each trial")
	fs.DurationVar(&cf.o.ConfirmDur, "confirm-duration", 10*time.Second, "duration of the confirming run")
	fs.Float64Var(&cf.o.Precision, "precision", 0.05, "binary search stops when (hi-lo)/lo is below this")
	loadCmd.AddCommand(cmd)
}

// capacityFlags are the SLO and search knobs of `mph load capacity`.
type capacityFlags struct {
	o              probe.CapacityOptions
	p99            time.Duration
	maxErr, minAch float64
}

func runCapacity(cmd *cobra.Command, tf *loadTargetFlags, rf *loadRunFlags, cf *capacityFlags) error {
	if cf.p99 <= 0 || cf.maxErr < 0 || cf.maxErr > 1 || cf.minAch <= 0 || cf.minAch > 1 {
		return usageErr("capacity: need --p99 > 0, 0 <= --max-errors <= 1, 0 < --min-achieved <= 1")
	}
	o := cf.o
	o.SLO = probe.SLO{MinAchieved: cf.minAch, MaxP99: cf.p99, MaxErrors: cf.maxErr}
	so, err := rf.scenarioOptions(logfTo(cmd.ErrOrStderr(), rf.quiet))
	if err != nil {
		return err
	}
	out := rf.outDir
	if out == "" {
		out = launch.OutDir("capacity-" + rf.scenario)
	}
	ctx, t, scn, release, err := tf.prepare(cmd, so, "capacity", out)
	if err != nil {
		return err
	}
	defer release()
	o.Attack = rf.attack(t.Timeout, t.InsecureTLS)
	o.Logf = logfTo(cmd.ErrOrStderr(), rf.quiet)
	start := time.Now()
	cr, err := probe.Capacity(ctx, scn, o)
	rep := &summary.Report{Tool: "mph load " + versionString(), Kind: "capacity", Scenario: rf.scenario, Target: t.BaseURL, Embedded: t.Embedded,
		Start: start, End: time.Now(), Capacity: cr, Interrupted: ctx.Err() != nil, Notes: scn.Notes}
	werr := loadreport.Write(out, rep)
	if werr == nil {
		werr = rf.gate.write(rep)
	}
	if werr != nil {
		werr = fmt.Errorf("capacity: writing reports: %w", werr)
	}
	if cr != nil {
		_ = loadreport.CapacityMarkdown(cr)(cmd.OutOrStdout())
	}
	fmt.Fprintln(cmd.OutOrStdout())
	if werr == nil {
		loadfiles.Print(cmd.OutOrStdout(), loadfiles.Reports(out, rf.gate.markdown, rf.gate.junit))
	}
	if err != nil && ctx.Err() == nil {
		// The search did not finish: no verdict.
		return keepVerdict(cmd.ErrOrStderr(), nil, fmt.Errorf("capacity: %w", err), werr)
	}
	return keepVerdict(cmd.ErrOrStderr(), loadVerdict(ctx.Err() != nil, cr != nil && !cr.Confirmed, "capacity", "no rate meets the SLO"), werr)
}
