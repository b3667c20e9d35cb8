package framework

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"regexp"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/types"

	"github.com/merchant-harness/mph/config"
	"github.com/merchant-harness/mph/exitcode"
	"github.com/merchant-harness/mph/report"
	"github.com/merchant-harness/mph/requirements"
	"github.com/merchant-harness/mph/result"
)

// SuiteName is the description of the conformance suite in every report.
const SuiteName = "Merchant Payments API v1 conformance"

// RunOptions configure Run (mph conform).
type RunOptions struct {
	LabelFilter    string
	Focus          []string
	Skip           []string
	JUnitReport    string
	JSONReport     string
	HTMLReport     string
	MarkdownReport string
	Verbose        bool
	NoColor        bool
	// Report completes the summaries: run facts, waivers, baseline.
	Report result.Options
	// OnInterrupt, when set, takes SIGINT and SIGTERM over from Ginkgo while
	// the specs run: the reports are written at once, marked interrupted
	// (finished specs with their outcome, the others interrupted), then
	// OnInterrupt is called with them; it is expected to end the process.
	OnInterrupt func(Result)
	// Deadline bounds the whole run (0: Ginkgo's default of one hour):
	// specs not started by then are skipped as "not run", and the spec
	// running at the deadline is interrupted a grace period later.
	Deadline time.Duration
}

// Result of Run.
type Result struct {
	Report  types.Report
	Summary result.Summary
	Passed  bool
	// NotRun counts the specs the deadline kept from running.
	NotRun int
	// ReportErrors are the reports that could not be written (one line
	// each): a harness error, as the run's artifacts are incomplete.
	ReportErrors []string
}

// runState is the state of the run (Run, Preview, the report nodes, the
// interrupt), a part of the harness.
type runState struct {
	mu        sync.Mutex
	last      *types.Report
	opts      RunOptions
	running   bool               // Run is inside RunSpecs
	collected []types.SpecReport // finished specs, for an interrupted run
	preview   *types.Report      // the selection, for an interrupted run
	start     time.Time          // start of RunSpecs
	stopped   chan struct{}      // closed once an interrupt was handled
	handled   chan struct{}      // closed once handleInterrupt handed the reports over
	stopOnce  sync.Once
	// interrupting is set at the first signal: the specs still running
	// finish unreported while the teardown sweeps the money back.
	interrupting atomic.Bool
	// writeErrs are the reports writeReports could not write.
	writeErrs  []string
	flagsOnce  sync.Once // Preview sets Ginkgo's selection flags once
	ginkgoInit sync.Once
}

// The reports are written from here so that they are complete under
// ginkgo -p too (ReportAfterSuite sees every process's specs).
var _ = ReportAfterSuite("mph reports", func(r Report) {
	if h.run.interrupting.Load() {
		<-h.run.stopped // the interrupt writes the reports (after the teardown) and ends the process
		return
	}
	h.run.mu.Lock()
	cp := r
	h.run.last = &cp
	opts := h.run.opts
	h.run.mu.Unlock()
	if r.SuiteConfig.DryRun {
		return
	}
	writeReports(r, opts)
})

// eachSpecNodes declares the top-level per-spec nodes. Ginkgo's
// PreviewSpecs restores a clone of the suite that keeps the containers and
// suite nodes but not top-level BeforeEach/AfterEach/ReportAfterEach, so
// Preview declares them again after every preview.
func eachSpecNodes() bool {
	BeforeEach(resetRecorder)
	AfterEach(attachExchanges)
	ReportAfterEach(collectSpec)
	return true
}

var _ = eachSpecNodes()

// collectSpec keeps every finished spec, for the report of an interrupted run.
func collectSpec(s SpecReport) {
	h.run.mu.Lock()
	if h.run.running {
		h.run.collected = append(h.run.collected, s)
	}
	h.run.mu.Unlock()
}

// ReportBeforeSuite runs inside RunSpecs, after Ginkgo registered its own
// signal handler: under mph conform the harness replaces it, so Ctrl-C ends
// the run at once with complete reports instead of a progress dump.
var _ = ReportBeforeSuite(func(Report) {
	h.run.mu.Lock()
	take := h.run.running && h.run.opts.OnInterrupt != nil
	h.run.start = time.Now()
	h.run.mu.Unlock()
	if take {
		takeOverSignals()
	}
})

func takeOverSignals() {
	signal.Reset(os.Interrupt, syscall.SIGTERM)
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	go func() {
		sig := <-ch
		h.run.interrupting.Store(true)
		go h.run.stopOnce.Do(func() { handleInterrupt(sig) })
		<-ch // a second signal cuts the teardown short; the reports are still written
		h.cutInterrupt()
		select {
		case <-h.run.handled:
		case <-time.After(secondSignalGrace):
			// The teardown does not stop: write what is known and go.
			h.run.mu.Lock()
			opts := h.run.opts
			r := partialReport(sig)
			h.run.mu.Unlock()
			sum := writeReports(r, opts)
			if opts.OnInterrupt != nil {
				opts.OnInterrupt(Result{Report: r, Summary: sum})
			}
			os.Exit(exitcode.Interrupted)
		}
		<-ch // the reports are being handed over: a third signal waits too
	}()
}

// secondSignalGrace bounds how long a second Ctrl-C waits for the cut
// teardown to give the reports their money entry.
const secondSignalGrace = 3 * time.Second

// handleInterrupt writes the reports of what ran and hands them over.
func handleInterrupt(sig os.Signal) {
	h.run.mu.Lock()
	opts := h.run.opts
	r := partialReport(sig)
	h.run.mu.Unlock()
	h.interrupted(&r)
	sum := writeReports(r, opts)
	close(h.run.stopped)
	close(h.run.handled)
	if opts.OnInterrupt != nil {
		opts.OnInterrupt(Result{Report: r, Summary: sum})
	}
}

// partialReport is the report of an interrupted run: finished specs as they
// ended, selected specs not finished as interrupted. Call with runMu held.
func partialReport(sig os.Signal) types.Report {
	now := time.Now()
	r := types.Report{SuiteDescription: SuiteName, StartTime: h.run.start, EndTime: now, RunTime: now.Sub(h.run.start),
		SpecialSuiteFailureReasons: []string{fmt.Sprintf("%s (%v)", result.InterruptedReason, sig)}}
	done := map[string]types.SpecReport{}
	for _, s := range h.run.collected {
		done[specKey(s)] = s
	}
	if h.run.preview == nil {
		r.SpecReports = append(r.SpecReports, h.run.collected...)
		return r
	}
	r.SuiteConfig = h.run.preview.SuiteConfig
	for _, s := range h.run.preview.SpecReports {
		if d, ok := done[specKey(s)]; ok {
			r.SpecReports = append(r.SpecReports, d)
			continue
		}
		if s.LeafNodeType == types.NodeTypeIt && s.State != types.SpecStateSkipped {
			s.State = types.SpecStateInterrupted
			s.Failure = types.Failure{Message: "interrupted before the spec finished"}
			s.RunTime = 0
		}
		r.SpecReports = append(r.SpecReports, s)
	}
	return r
}

func specKey(s types.SpecReport) string {
	return s.FullText() + "\x00" + s.LeafNodeLocation.String()
}

// writeReports writes every requested report of r, in parallel (an
// interrupted run has a second at most), and returns its summary.
func writeReports(r types.Report, opts RunOptions) result.Summary {
	sum := result.Build(r, opts.Report)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var failed []string
	env := goTestReports()
	for _, w := range []struct {
		path, env string
		fn        func(string) error
	}{
		{opts.JUnitReport, env.JUnit, func(p string) error { return report.WriteFile(p, report.ConformJUnit(sum)) }},
		{opts.JSONReport, env.JSON, func(p string) error { return report.WriteJSON(r, sum, p) }},
		{opts.HTMLReport, env.HTML, func(p string) error { return report.WriteFile(p, report.ConformHTML(sum)) }},
		{opts.MarkdownReport, env.Markdown, func(p string) error { return report.WriteFile(p, report.ConformMarkdown(sum)) }},
	} {
		path := w.path
		if path == "" {
			path = w.env
		}
		if path == "" {
			continue
		}
		wg.Add(1)
		go func(path string, fn func(string) error) {
			defer wg.Done()
			if err := fn(path); err != nil {
				fmt.Fprintf(os.Stderr, "mph: writing %s: %v\n", path, err)
				mu.Lock()
				failed = append(failed, fmt.Sprintf("%s: %v", path, err))
				mu.Unlock()
			}
		}(path, w.fn)
	}
	wg.Wait()
	sort.Strings(failed)
	h.run.mu.Lock()
	h.run.writeErrs = append(h.run.writeErrs, failed...)
	h.run.mu.Unlock()
	return sum
}

// goTestReports are the report paths the environment gives the suites run
// by go test or ginkgo (none under mph conform, whose flags place them).
func goTestReports() config.Reports {
	if h.given != nil {
		return config.Reports{}
	}
	s, _ := config.SettingsFromEnv(config.CmdSuites) // its errors stopped the set-up already
	return s.Reports
}

// SelectionError says the flags select no spec, or are malformed.
type SelectionError struct{ Msg string }

func (e *SelectionError) Error() string { return e.Msg }

// Preview builds the spec tree without running anything and returns the
// report of the selection: selected specs are passed, the others skipped
// without a message. It validates the label filter and the regular
// expressions first (a malformed one is a SelectionError).
func Preview(opts RunOptions) (types.Report, error) {
	if _, err := types.ParseLabelFilter(opts.LabelFilter); err != nil {
		return types.Report{}, &SelectionError{Msg: fmt.Sprintf("--label-filter %q: %s", opts.LabelFilter, plain(err.Error()))}
	}
	for _, re := range append(append([]string{}, opts.Focus...), opts.Skip...) {
		if _, err := regexp.Compile(re); err != nil {
			return types.Report{}, &SelectionError{Msg: fmt.Sprintf("--focus/--skip %q: %v", re, err)}
		}
	}
	initGinkgo()
	var setErr error
	h.run.flagsOnce.Do(func() {
		set := func(name, v string) {
			if err := flag.Set(name, v); err != nil && setErr == nil {
				setErr = err
			}
		}
		set("ginkgo.label-filter", opts.LabelFilter)
		for _, f := range opts.Focus {
			set("ginkgo.focus", f)
		}
		for _, s := range opts.Skip {
			set("ginkgo.skip", s)
		}
	})
	if setErr != nil {
		return types.Report{}, &SelectionError{Msg: setErr.Error()}
	}
	r := PreviewSpecs(SuiteName)
	eachSpecNodes()
	if errs := DeclarationErrors(); len(errs) > 0 {
		return r, &DeclarationError{Problems: errs}
	}
	return r, nil
}

// Selected returns the specs a preview selected.
func Selected(r types.Report) []types.SpecReport {
	var out []types.SpecReport
	for _, s := range r.SpecReports {
		if s.LeafNodeType == types.NodeTypeIt && s.State != types.SpecStateSkipped && s.State != types.SpecStatePending {
			out = append(out, s)
		}
	}
	return out
}

// DescribeSelection names the selection flags, for messages and reports.
func DescribeSelection(opts RunOptions) string {
	var parts []string
	if opts.LabelFilter != "" {
		parts = append(parts, fmt.Sprintf("--label-filter %q", opts.LabelFilter))
	}
	for _, f := range opts.Focus {
		parts = append(parts, fmt.Sprintf("--focus %q", f))
	}
	for _, s := range opts.Skip {
		parts = append(parts, fmt.Sprintf("--skip %q", s))
	}
	return strings.Join(parts, " ")
}

var ansi = regexp.MustCompile("\x1b\\[[0-9;]*m")

// plain is a Ginkgo error message on one line without colour codes.
func plain(s string) string {
	return strings.Join(strings.Fields(ansi.ReplaceAllString(s, "")), " ")
}

func initGinkgo() {
	h.run.ginkgoInit.Do(func() {
		InstallFailHandler()
		// Specs may use libraries that read the testing flags (rapid calls
		// testing.Short): outside `go test`, register and "parse" them.
		if !flag.Parsed() {
			testing.Init()
			_ = flag.CommandLine.Parse(nil)
		}
		_ = os.Setenv("GINKGO_EDITOR_INTEGRATION", "1") // never os.Exit on programmatic focus
	})
}

// Run runs the suites in this process against cfg (already resolved: the
// caller starts the embedded sandbox if there is no base URL). A pre-flight
// failure is returned as *config.PreflightError before any spec runs;
// malformed spec declarations as a DeclarationError. Run can be called once
// per process (a Ginkgo restriction); Preview may be called before it.
func Run(ctx context.Context, cfg *config.Config, opts RunOptions) (Result, error) {
	facts, err := config.Preflight(ctx, cfg)
	if err != nil {
		return Result{}, err
	}
	h.configure(cfg, facts)
	pv, err := Preview(opts)
	if err != nil {
		return Result{}, err
	}
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	h.run.mu.Lock()
	h.run.opts = opts
	h.run.preview = &pv
	h.run.running = true
	h.run.mu.Unlock()

	sc, rc := GinkgoConfiguration()
	sc.LabelFilter = opts.LabelFilter
	sc.FocusStrings = opts.Focus
	sc.SkipStrings = opts.Skip
	sc.DryRun = false
	sc.ParallelProcess, sc.ParallelTotal = 1, 1
	sc.RandomSeed = 1
	if opts.Deadline > 0 {
		d := time.Now().Add(opts.Deadline)
		h.deadline.Store(&d)
		sc.Timeout = opts.Deadline + DefaultTimeoutConfig().DeadlineGrace
	}
	rc.NoColor = opts.NoColor
	rc.Succinct = !opts.Verbose
	rc.Verbose = opts.Verbose
	rc.JUnitReport, rc.JSONReport, rc.TeamcityReport, rc.GoJSONReport = "", "", "", ""
	t := &failT{}
	passed := RunSpecs(t, SuiteName, sc, rc)
	h.run.mu.Lock()
	h.run.running = false
	res := Result{Passed: passed && !t.failed, ReportErrors: h.run.writeErrs}
	if h.run.last != nil {
		res.Report = *h.run.last
		res.Summary = result.Build(*h.run.last, opts.Report)
		res.NotRun = countNotRun(*h.run.last)
	}
	h.run.mu.Unlock()
	if errs := DeclarationErrors(); len(errs) > 0 {
		return res, &DeclarationError{Problems: errs}
	}
	return res, nil
}

// WriteInterrupted writes the reports of a run interrupted before its first
// spec (during pre-flight): every selected spec of the preview interrupted.
func WriteInterrupted(pv types.Report, sig os.Signal, opts RunOptions) result.Summary {
	h.run.mu.Lock()
	h.run.preview = &pv
	if h.run.start.IsZero() {
		h.run.start = time.Now()
	}
	r := partialReport(sig)
	h.run.mu.Unlock()
	return writeReports(r, opts)
}

func countNotRun(r types.Report) int {
	n := 0
	for _, s := range r.SpecReports {
		if s.State == types.SpecStateSkipped && strings.HasPrefix(strings.TrimPrefix(s.Failure.Message, NoVerdictPrefix), DeadlineSkipPrefix+"the run deadline") {
			n++
		}
	}
	return n
}

// DeclarationError lists malformed ConformanceIt declarations.
type DeclarationError struct{ Problems []string }

func (e *DeclarationError) Error() string {
	s := "malformed spec declarations:"
	for _, p := range e.Problems {
		s += "\n  " + p
	}
	return s
}

type failT struct{ failed bool }

func (t *failT) Fail() { t.failed = true }

// Coverage maps each requirement ID to the specs (full texts) verifying it.
func Coverage(r types.Report) map[string][]string {
	out := map[string][]string{}
	for _, s := range r.SpecReports {
		if s.LeafNodeType != types.NodeTypeIt {
			continue
		}
		for _, id := range reqLabelsOf(s.Labels()) {
			out[id] = append(out[id], result.FullText(s))
		}
	}
	for id := range out {
		sort.Strings(out[id])
	}
	return out
}

// Uncovered lists testable requirements no spec verifies.
func Uncovered(cov map[string][]string) []requirements.Requirement {
	var out []requirements.Requirement
	for _, r := range requirements.Testable() {
		if len(cov[r.ID]) == 0 {
			out = append(out, r)
		}
	}
	return out
}
