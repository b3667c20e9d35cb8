package suites

import (
	"context"
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/types"

	"github.com/merchant-harness/mph/report"
	"github.com/merchant-harness/mph/requirements"
	"github.com/merchant-harness/mph/target"
)

// RunOptions configure Run (mph conform).
type RunOptions struct {
	LabelFilter string
	Focus       []string
	Skip        []string
	JUnitReport string
	JSONReport  string
	HTMLReport  string
	DryRun      bool // build the tree and report the specs without running them (--list, --coverage)
	Verbose     bool
	NoColor     bool
	// Facts from a pre-flight already done by the caller (nil: Run does it).
	Facts *target.Facts
	// Deadline bounds the whole run (0: Ginkgo's default of one hour):
	// specs not started by then are skipped as "not run", and the spec
	// running at the deadline is interrupted a grace period later.
	Deadline time.Duration
}

// Result of Run.
type Result struct {
	Report  types.Report
	Summary report.Summary
	Passed  bool
	// NotRun counts the specs the deadline kept from running.
	NotRun int
}

var (
	lastMu     sync.Mutex
	lastReport *types.Report
	reportOpts RunOptions
)

// The reports are written from here so that they are complete under
// ginkgo -p too (ReportAfterSuite sees every process's specs).
var _ = ReportAfterSuite("mph reports", func(r Report) {
	lastMu.Lock()
	cp := r
	lastReport = &cp
	opts := reportOpts
	lastMu.Unlock()
	if opts.JUnitReport == "" {
		opts.JUnitReport = os.Getenv("MPH_JUNIT_REPORT")
	}
	if opts.JSONReport == "" {
		opts.JSONReport = os.Getenv("MPH_JSON_REPORT")
	}
	if opts.HTMLReport == "" {
		opts.HTMLReport = os.Getenv("MPH_HTML_REPORT")
	}
	if r.SuiteConfig.DryRun {
		return
	}
	for _, w := range []struct {
		path string
		fn   func(types.Report, string) error
	}{{opts.JUnitReport, report.WriteJUnit}, {opts.JSONReport, report.WriteJSON}, {opts.HTMLReport, report.WriteHTML}} {
		if w.path == "" {
			continue
		}
		if err := w.fn(r, w.path); err != nil {
			fmt.Fprintf(os.Stderr, "mph: writing %s: %v\n", w.path, err)
		}
	}
})

// Run runs the suites in this process against cfg (already resolved: the
// caller starts the embedded sandbox if there is no base URL). A pre-flight
// failure is returned as *target.PreflightError before any spec runs;
// malformed spec declarations as a DeclarationError. Run can be called once
// per process (a Ginkgo restriction).
func Run(ctx context.Context, cfg *target.Config, opts RunOptions) (Result, error) {
	if !opts.DryRun {
		facts := opts.Facts
		if facts == nil {
			f, err := target.Preflight(ctx, cfg)
			if err != nil {
				return Result{}, err
			}
			facts = &f
		}
		preset, presetFacts = cfg, facts
	}
	lastMu.Lock()
	reportOpts = opts
	lastMu.Unlock()
	InstallFailHandler()
	// Specs may use libraries that read the testing flags (rapid calls
	// testing.Short): outside `go test`, register and "parse" them.
	if !flag.Parsed() {
		testing.Init()
		_ = flag.CommandLine.Parse(nil)
	}
	_ = os.Setenv("GINKGO_EDITOR_INTEGRATION", "1") // never os.Exit on programmatic focus

	sc, rc := GinkgoConfiguration()
	sc.LabelFilter = opts.LabelFilter
	sc.FocusStrings = opts.Focus
	sc.SkipStrings = opts.Skip
	sc.DryRun = opts.DryRun
	sc.ParallelProcess, sc.ParallelTotal = 1, 1
	sc.RandomSeed = 1
	if opts.Deadline > 0 && !opts.DryRun {
		d := time.Now().Add(opts.Deadline)
		runDeadline.Store(&d)
		sc.Timeout = opts.Deadline + deadlineGrace
	}
	rc.NoColor = opts.NoColor
	rc.Succinct = !opts.Verbose
	rc.Verbose = opts.Verbose
	rc.JUnitReport, rc.JSONReport, rc.TeamcityReport, rc.GoJSONReport = "", "", "", ""
	if opts.DryRun {
		rc.Succinct, rc.Verbose, rc.VeryVerbose = true, false, false
		rc.SilenceSkips = true
	}
	t := &failT{}
	passed := RunSpecs(t, "Merchant Payments API v1 conformance", sc, rc)
	lastMu.Lock()
	defer lastMu.Unlock()
	res := Result{Passed: passed && !t.failed}
	if lastReport != nil {
		res.Report = *lastReport
		res.Summary = report.Summarize(*lastReport)
		res.NotRun = countNotRun(*lastReport)
	}
	if errs := DeclarationErrors(); len(errs) > 0 {
		return res, &DeclarationError{Problems: errs}
	}
	return res, nil
}

// deadlineGrace lets the spec running at the deadline finish its current
// request (every request has its own timeout) before Ginkgo interrupts it.
const deadlineGrace = 15 * time.Second

func countNotRun(r types.Report) int {
	n := 0
	for _, s := range r.SpecReports {
		if s.State == types.SpecStateSkipped && strings.HasPrefix(s.Failure.Message, DeadlineSkipPrefix+"the run deadline") {
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
			out[id] = append(out[id], report.FullText(s))
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
