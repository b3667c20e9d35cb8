package main

import (
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"time"

	"github.com/spf13/cobra"

	"github.com/merchant-harness/mph/cli/loadfiles"
	"github.com/merchant-harness/mph/loadtest"
	"github.com/merchant-harness/mph/loadtest/gate"
	"github.com/merchant-harness/mph/loadtest/launch"
	"github.com/merchant-harness/mph/loadtest/summary"
	"github.com/merchant-harness/mph/report/loadreport"
)

func runLoad(cmd *cobra.Command, tf *loadTargetFlags, rf *loadRunFlags) error {
	errw := cmd.ErrOrStderr()
	plan, err := rf.plan()
	if err != nil {
		return err
	}
	so, err := rf.scenarioOptions(logfTo(errw, rf.quiet))
	if err != nil {
		return err
	}
	if err := checkThresholdEndpoints(plan.Thresholds, so); err != nil {
		return err
	}
	if err := rf.live.check(); err != nil {
		return err
	}
	out := rf.outDir
	if out == "" {
		out = plan.OutDir(rf.scenario)
	}
	ctx, t, scn, release, err := tf.prepare(cmd, so, "load", out)
	if err != nil {
		return err
	}
	defer release()
	if err := os.MkdirAll(out, 0o755); err != nil {
		return usageErr("--out: %v", err)
	}
	spec, resultsPath, err := rf.ask().RunSpec(scn, t, plan, out)
	if err != nil {
		return fmt.Errorf("load: %w", err)
	}
	if f, ok := spec.Results.(*os.File); ok {
		defer f.Close()
	}
	if !rf.quiet {
		spec.Progress = loadtest.NewProgress(errw)
		announceLoad(errw, rf.scenario, t, plan)
	}
	pusher, labels := rf.live.start(errw, rf.quiet, rf.scenario, plan, t)
	if pusher != nil {
		spec.Live = pusher
	}
	stopProfile, err := startCPUProfile(rf.cpuProfile)
	if err != nil {
		return err
	}
	o, err := loadtest.Run(ctx, spec)
	stopProfile()
	liveNote := rf.live.stopLive(pusher, labels, errw)
	if err != nil {
		if ctx.Err() != nil {
			return interruptedErr("load: interrupted before the attack started")
		}
		return fmt.Errorf("load: %w", err)
	}
	rep := launch.Report(o, t, scn, rf.ask(), plan, "mph load "+versionString(), resultsPath != "")
	if liveNote != "" {
		rep.Notes = append(rep.Notes, liveNote)
	}
	werr := rf.writeReports(cmd, rep, o, spec, out, resultsPath)
	return keepVerdict(errw, loadVerdict(o.Interrupted || ctx.Err() != nil, rep.Breached, "load", gate.BreachReason(rep)), werr)
}

// startCPUProfile profiles the attack into path ("" = no profile) and
// returns the function that stops it.
func startCPUProfile(path string) (func(), error) {
	if path == "" {
		return func() {}, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, usageErr("--cpuprofile: %v", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		_ = f.Close()
		return nil, usageErr("--cpuprofile: %v", err)
	}
	return func() { pprof.StopCPUProfile(); _ = f.Close() }, nil
}

// writeReports writes the run's reports and plot and lists them.
func (f *loadRunFlags) writeReports(cmd *cobra.Command, rep *summary.Report, o *loadtest.Outcome, spec loadtest.RunSpec, out, resultsPath string) error {
	if err := loadreport.Write(out, rep); err != nil {
		return fmt.Errorf("load: writing reports: %w", err)
	}
	if err := f.gate.write(rep); err != nil {
		return fmt.Errorf("load: %w", err)
	}
	if resultsPath != "" && o.ResultsErr == nil {
		f.plot(cmd.ErrOrStderr(), o, spec.Results.(*os.File), out)
	}
	_ = loadreport.Console(rep)(cmd.OutOrStdout())
	loadfiles.Print(cmd.OutOrStdout(), loadfiles.OfRun(out, resultsPath, f.gate.markdown, f.gate.junit, f.cpuProfile))
	if o.ResultsErr != nil {
		return fmt.Errorf("load: writing raw results: %w", o.ResultsErr)
	}
	return nil
}

// ask is what the run flags ask for.
func (f *loadRunFlags) ask() launch.Ask {
	return launch.Ask{Scenario: f.scenario, Thresholds: f.thresholds, Shard: f.shard, StartAt: f.startAt, Pace: f.pace,
		Rate: f.rate, Duration: f.duration, Warmup: f.warmup, Workers: f.workers, MaxWorkers: f.maxWorkers,
		Connections: f.connections, MaxConnections: f.maxConnections, HTTP2: f.http2, H2C: f.h2c, NoKeepAlive: f.noKeepAlive,
		AbortOnBreach: f.abortOnBreach, NoResults: f.noResults}
}

// plan validates the run flags and builds this shard's schedule.
func (f *loadRunFlags) plan() (launch.Plan, error) {
	p, err := launch.PlanOf(f.ask())
	if err != nil {
		return p, usageErr("%v", err)
	}
	return p, nil
}

func announceLoad(errw io.Writer, scenario string, t *loadtest.Target, plan launch.Plan) {
	target := t.BaseURL
	if t.Embedded {
		target += " (embedded sandbox)"
	}
	fmt.Fprintf(errw, "load: %s against %s: %s\n", scenario, target, plan.Sched)
	if !plan.StartAt.IsZero() {
		fmt.Fprintf(errw, "load: waiting for --start-at %s\n", plan.StartAt.UTC().Format(time.RFC3339Nano))
	}
}

// plot writes vegeta's plot.html from the raw results, unless there are
// more than --plot-max-results of them.
func (f *loadRunFlags) plot(errw io.Writer, o *loadtest.Outcome, results *os.File, out string) {
	if f.noPlot {
		return
	}
	skipped, err := launch.Plot(o, results, out, "mph load "+f.scenario, f.plotMax)
	if skipped != "" {
		fmt.Fprintf(errw, "load: %s\n", skipped)
	}
	if err != nil {
		fmt.Fprintf(errw, "load: vegeta plot: %v\n", err)
	}
}
