package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/pprof"
	"slices"
	"strconv"
	"time"

	"github.com/spf13/cobra"

	"github.com/merchant-harness/mph/loadtest"
	"github.com/merchant-harness/mph/loadtest/gate"
	"github.com/merchant-harness/mph/loadtest/pacer"
	"github.com/merchant-harness/mph/loadtest/summary"
	"github.com/merchant-harness/mph/loadtest/threshold"
	"github.com/merchant-harness/mph/report"
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
	if err := checkThresholdEndpoints(plan.thresholds, so); err != nil {
		return err
	}
	if err := rf.live.check(); err != nil {
		return err
	}
	out := rf.outDir
	if out == "" {
		out = plan.outDir(rf.scenario)
	}
	ctx, t, scn, release, err := tf.prepare(cmd, so, "load", out)
	if err != nil {
		return err
	}
	defer release()
	if err := os.MkdirAll(out, 0o755); err != nil {
		return usageErr("--out: %v", err)
	}
	spec, resultsPath, err := rf.runSpec(scn, t, plan, out)
	if err != nil {
		return err
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
	liveNote := stopLive(pusher, labels, rf.live.url, errw)
	if err != nil {
		if ctx.Err() != nil {
			return interruptedErr("load: interrupted before the attack started")
		}
		return fmt.Errorf("load: %w", err)
	}
	rep := rf.report(o, t, scn, plan, resultsPath != "")
	if liveNote != "" {
		rep.Notes = append(rep.Notes, liveNote)
	}
	werr := rf.writeReports(cmd, rep, o, spec, out, resultsPath)
	return keepVerdict(errw, loadVerdict(o.Interrupted || ctx.Err() != nil, rep.Breached, "load", gate.BreachReason(rep)), werr)
}

// runSpec is the run the flags ask for, with its raw results file (none
// with --no-results).
func (f *loadRunFlags) runSpec(scn *loadtest.Scenario, t *loadtest.Target, plan loadPlan, out string) (loadtest.RunSpec, string, error) {
	spec := loadtest.RunSpec{
		Name: f.scenario, Scenario: scn, Schedule: plan.sched, Warmup: f.warmup,
		Attack: f.attack(t.Timeout, t.InsecureTLS), StartAt: plan.startAt,
		Thresholds: plan.thresholds, AbortOnBreach: f.abortOnBreach,
	}
	if f.noResults {
		return spec, "", nil
	}
	path := filepath.Join(out, "results.bin")
	file, err := os.Create(path)
	if err != nil {
		return spec, "", fmt.Errorf("load: %w", err)
	}
	spec.Results = file
	return spec, path, nil
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
	if err := report.WriteLoad(out, rep); err != nil {
		return fmt.Errorf("load: writing reports: %w", err)
	}
	if err := f.gate.write(rep); err != nil {
		return fmt.Errorf("load: %w", err)
	}
	if resultsPath != "" && o.ResultsErr == nil {
		f.plot(cmd.ErrOrStderr(), o, spec.Results.(*os.File), out)
	}
	_ = report.LoadConsole(rep)(cmd.OutOrStdout())
	printRunFiles(cmd.OutOrStdout(), out, resultsPath, f.gate.markdown, f.gate.junit, f.cpuProfile)
	if o.ResultsErr != nil {
		return fmt.Errorf("load: writing raw results: %w", o.ResultsErr)
	}
	return nil
}

// outDir is the default output directory of this run (or shard).
func (p loadPlan) outDir(scenario string) string {
	out := defaultOutDir(scenario)
	if p.shards > 1 {
		out += fmt.Sprintf("-shard%dof%d", p.shard, p.shards)
	}
	return out
}

// loadPlan is what the run flags ask for: thresholds, shard and schedule.
type loadPlan struct {
	thresholds    []threshold.Threshold
	shard, shards int
	startAt       time.Time
	sched         *pacer.Schedule
}

// plan validates the run flags and builds this shard's schedule.
func (f *loadRunFlags) plan() (loadPlan, error) {
	var p loadPlan
	ths, err := threshold.ParseAll(f.thresholds)
	if err != nil {
		return p, usageErr("%v", err)
	}
	p.thresholds = threshold.WithDefaults(ths)
	if p.shard, p.shards, err = parseShard(f.shard); err != nil {
		return p, usageErr("%v", err)
	}
	if p.startAt, err = parseStartAt(f.startAt); err != nil {
		return p, usageErr("%v", err)
	}
	switch {
	case p.shards > 1 && p.startAt.IsZero():
		return p, usageErr("--shard needs --start-at so that the shards' schedules line up")
	case f.warmup < 0:
		return p, usageErr("--warmup must be >= 0")
	case f.rate < 0:
		return p, usageErr("--rate must be >= 0")
	case f.rate == 0 && f.maxWorkers == 0:
		return p, usageErr("--rate 0 (as fast as possible, closed model) needs --max-workers, like vegeta's -rate=0")
	}
	sched, err := pacer.Parse(f.pace, f.rate, f.duration)
	if err != nil {
		return p, usageErr("%v", err)
	}
	p.sched = sched.WithWarmup(sched.GlobalRate(0), f.warmup)
	if p.shards > 1 {
		if p.sched, err = p.sched.Shard(p.shard, p.shards); err != nil {
			return p, usageErr("%v", err)
		}
	}
	return p, nil
}

func announceLoad(errw io.Writer, scenario string, t *loadtest.Target, plan loadPlan) {
	target := t.BaseURL
	if t.Embedded {
		target += " (embedded sandbox)"
	}
	fmt.Fprintf(errw, "load: %s against %s: %s\n", scenario, target, plan.sched)
	if !plan.startAt.IsZero() {
		fmt.Fprintf(errw, "load: waiting for --start-at %s\n", plan.startAt.UTC().Format(time.RFC3339Nano))
	}
}

// report states the run's outcome with what was asked of it.
func (f *loadRunFlags) report(o *loadtest.Outcome, t *loadtest.Target, scn *loadtest.Scenario, plan loadPlan, results bool) *summary.Report {
	rep := loadtest.FromOutcome(o)
	rep.Tool = "mph load " + versionString()
	rep.Scenario = f.scenario
	rep.Target = t.BaseURL
	rep.Embedded = t.Embedded
	rep.Notes = slices.Clone(scn.Notes)
	if n := loadtest.Gateway429Note(o.Summaries); n != "" {
		rep.Notes = append(rep.Notes, n)
	}
	if f.warmup > 0 {
		rep.Warmup = f.warmup.String()
	}
	if plan.shards > 1 {
		rep.Shard = fmt.Sprintf("%d/%d", plan.shard, plan.shards)
	}
	rep.Plan = &summary.RunPlan{Rate: f.rate, Pace: f.pace, Duration: f.duration.String(), Warmup: rep.Warmup,
		StartAt: plan.startAt, ShardIndex: plan.shard, ShardCount: plan.shards}
	if results {
		rep.ResultsFile = "results.bin"
	}
	rep.Attack = map[string]string{
		"workers": strconv.FormatUint(f.workers, 10), "maxWorkers": strconv.FormatUint(f.maxWorkers, 10),
		"connections": strconv.Itoa(f.connections), "http2": strconv.FormatBool(f.http2), "h2c": strconv.FormatBool(f.h2c),
		"timeout": t.Timeout.String(),
	}
	return rep
}

// plot writes vegeta's plot.html from the raw results, unless there are
// more than --plot-max-results of them.
func (f *loadRunFlags) plot(errw io.Writer, o *loadtest.Outcome, results *os.File, out string) {
	if f.noPlot {
		return
	}
	var measured uint64
	if s, ok := o.Summary("all"); ok {
		measured = s.Requests
	}
	if measured > f.plotMax {
		fmt.Fprintf(errw, "load: plot.html skipped: %d results > --plot-max-results %d (use 'vegeta plot' on results.bin, or raise the limit)\n", measured, f.plotMax)
		return
	}
	_ = results.Sync()
	if err := loadtest.VegetaPlot(results.Name(), filepath.Join(out, "plot.html"), "mph load "+f.scenario); err != nil {
		fmt.Fprintf(errw, "load: vegeta plot: %v\n", err)
	}
}

// printRunFiles prints every file the run wrote.
func printRunFiles(w io.Writer, out, resultsPath string, extra ...string) {
	files := loadFiles(out, extra...)
	if _, err := os.Stat(filepath.Join(out, "plot.html")); err == nil {
		files = append(files[:3], append([]string{filepath.Join(out, "plot.html")}, files[3:]...)...)
	}
	if resultsPath != "" {
		files = append(files, resultsPath+" (raw results: vegeta report "+resultsPath+")")
	}
	printFiles(w, files)
}

// loadFiles are the reports a load command writes in out, then the
// files of --markdown-report, --junit-report and --cpuprofile ("" skipped).
func loadFiles(out string, extra ...string) []string {
	files := []string{filepath.Join(out, "summary.json"), filepath.Join(out, "summary.md"), filepath.Join(out, "report.html")}
	for _, f := range extra {
		if f != "" {
			files = append(files, f)
		}
	}
	return files
}

// printFiles lists every file a command wrote, one a line.
func printFiles(w io.Writer, files []string) {
	fmt.Fprintln(w, "files written:")
	for _, f := range files {
		fmt.Fprintf(w, "  %s\n", f)
	}
}
