// Package selftest proves the harness: it runs the conformance suites against
// the clean reference sandbox (which must pass: no false positives) and
// against the sandbox with each catalogued fault injected (each run must
// fail: the fault is "killed"), and builds the kill matrix.
//
// Ginkgo runs one suite per process, so every run is a child `mph conform`
// process pointed at its own in-process sandbox here; runs go in parallel.
package selftest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/merchant-harness/mph/config"
	"github.com/merchant-harness/mph/config/embedded"
	"github.com/merchant-harness/mph/result"
	"github.com/merchant-harness/mph/sandbox"
	"github.com/merchant-harness/mph/sandbox/fault"
	"github.com/merchant-harness/mph/sandbox/variant"
)

// Job is one suite run: the child `mph conform` a Runner starts.
type Job struct {
	// Label names the run: "" for the clean run, the fault's name, or
	// "variant:NAME". It is informational: the sandbox behind Config already
	// carries the fault or variant, and Config the variant's profile.
	Label      string
	Config     *config.Config
	ReportPath string // where the child writes Ginkgo's JSON report
	// LabelFilter selects the specs (a Ginkgo label expression); "" runs
	// every spec.
	LabelFilter string
	// Bound is how long the run may take (0: unbounded): no spec starts
	// after it, and the child is stopped shortly after.
	Bound time.Duration
}

// Outcome is what a Runner observed of a finished child: the conform exit
// code (0 pass, 1 failures, 2 configuration error such as a failed
// pre-flight, 3 harness errors only, 130 interrupted), its combined output
// and the CPU time it used.
type Outcome struct {
	ExitCode int
	Output   []byte
	CPU      time.Duration
	// TimedOut: the child still ran past its Bound and was stopped.
	TimedOut bool
}

// Runner runs the suites as j says. An error means the run itself could not
// be carried out (no verdict).
type Runner func(ctx context.Context, j Job) (Outcome, error)

// Options of a self-test.
type Options struct {
	Faults []fault.Fault // default: the whole catalogue
	// Variants are the document-allowed settings each run must pass, one
	// at a time (default: every setting that is not a reference; an empty
	// non-nil slice runs none).
	Variants []variant.Variant
	// Seeds each draw one setting of every dimension (variant.SeedSettings)
	// for a run that must pass (default: DefaultSeeds(DefaultSeedCount); an
	// empty non-nil slice runs none).
	Seeds []uint64
	// Full runs every spec against every fault. By default a fault's run
	// selects the specs citing the requirements the fault breaks
	// (FaultSelection); the clean and variant runs always run every spec.
	Full     bool
	Parallel int // concurrent runs; default DefaultParallel()
	// Bound is how long one run may take; default DefaultRunBound. A run
	// still going then is stopped and reported broken, with the specs it
	// was running.
	Bound   time.Duration
	WorkDir string // reports of every run; default a temp dir
	Run     Runner // default: ExecRunner of this executable
	Version string // harness version recorded in the matrix
	// Progress, when set, is told about every finished run.
	Progress func(r Run)
}

// Run is the outcome of one suite run.
type Run struct {
	Fault   string `json:"fault,omitempty"` // "" for the clean runs
	Variant string `json:"variant,omitempty"`
	// Seed and Settings: a seed's run and the settings it drew (besides
	// the references).
	Seed     uint64   `json:"seed,omitempty"`
	Settings []string `json:"settings,omitempty"`
	// Profile is the profile the run's suites read: "default", "sandbox"
	// (sandbox/profile.yaml) or "default+overlay".
	Profile string `json:"profile,omitempty"`
	// Selection is the label filter of the run's specs; "" is every spec.
	Selection string   `json:"selection,omitempty"`
	ExitCode  int      `json:"exitCode"`
	Passed    int      `json:"passed"`
	Failed    []string `json:"failed,omitempty"` // full texts of the failed specs
	Skipped   int      `json:"skipped"`
	// HarnessErrors are specs the harness could not run (fixture failures,
	// panics in harness code); they are neither kills nor passes.
	HarnessErrors []string `json:"harnessErrors,omitempty"`
	// NoVerdict are specs that ran but could not decide (rate limited, a
	// wait beyond its bound, ...): neither kills nor passes either.
	NoVerdict []string `json:"noVerdict,omitempty"`
	// Why holds, per failed spec or harness error, its text and the first
	// line of its failure message ("spec: message"), sorted.
	Why       []string `json:"why,omitempty"`
	Preflight bool     `json:"preflight,omitempty"` // stopped by pre-flight (exit 2)
	Error     string   `json:"error,omitempty"`     // the run itself broke
	Duration  Millis   `json:"durationMs"`
	CPU       Millis   `json:"cpuMs,omitempty"` // the child's user and system CPU time
}

// Killed reports whether the suites noticed the fault.
func (r Run) Killed() bool { return r.Error == "" && (len(r.Failed) > 0 || r.Preflight) }

// Entry is one fault's row of the kill matrix.
type Entry struct {
	Fault  fault.Fault `json:"fault"`
	Run    Run         `json:"run"`
	Killed bool        `json:"killed"`
}

// Matrix is the self-test's result.
type Matrix struct {
	Clean   Run  `json:"clean"`
	CleanOK bool `json:"cleanPassed"`
	// CleanSandbox is the clean sandbox under its own profile
	// (sandbox/profile.yaml, strict knobs included); it must pass too.
	CleanSandbox   Run     `json:"cleanSandboxProfile"`
	CleanSandboxOK bool    `json:"cleanSandboxProfilePassed"`
	Entries        []Entry `json:"faults"`
	Killed         int     `json:"killed"`
	Total          int     `json:"total"`
	KillRate       float64 `json:"killRate"`
	Survivors      []Entry `json:"survivors"`
	Errors         []Entry `json:"errors"` // runs that broke (neither killed nor survived)
	Duration       Millis  `json:"durationMs"`
	Version        string  `json:"harnessVersion,omitempty"`
	// Interrupted: a signal stopped the self-test; the matrix holds the
	// runs that finished before it.
	Interrupted bool `json:"interrupted,omitempty"`
	// Specificity is the dual matrix: one row a document-allowed variant.
	Specificity
	// FullSelection: every fault's run ran every spec; otherwise each ran
	// the specs citing its requirements (Run.Selection).
	FullSelection bool `json:"fullSelection"`
	Timing
}

// OK is the self-test's verdict: the clean run passed, every fault was
// killed and every variant passed.
func (m *Matrix) OK() bool {
	return m.CleanOK && m.CleanSandboxOK && m.Killed == m.Total && len(m.Errors) == 0 && m.Specificity.OK()
}

// Execute runs the clean sandbox and every fault. When ctx ends first it
// returns the matrix of the finished runs, marked interrupted, and ctx's error.
func Execute(ctx context.Context, o Options) (*Matrix, error) {
	cleanup, err := o.defaults()
	if err != nil {
		return nil, err
	}
	defer cleanup()
	start := time.Now()
	rs := runAll(ctx, o)
	m := &Matrix{Clean: rs.clean, Total: len(o.Faults), Duration: Millis(time.Since(start)), Version: o.Version}
	m.CleanOK = rs.clean.Clean()
	m.CleanSandbox, m.CleanSandboxOK = rs.cleanSandbox, rs.cleanSandbox.Clean()
	if err := ctx.Err(); err != nil {
		// Interrupted: the matrix of the runs that finished, marked so.
		m.Interrupted, m.Total = true, 0
		for i := range rs.done {
			if rs.done[i] {
				m.Total++
			}
		}
	}
	for i, f := range o.Faults {
		if m.Interrupted && !rs.done[i] {
			continue
		}
		m.add(Entry{Fault: f, Run: rs.faults[i], Killed: rs.faults[i].Killed()})
	}
	if m.Total > 0 {
		m.KillRate = roundRate(m.Killed, m.Total)
	}
	m.Specificity = specificity(o.Variants, rs.variants, o.Seeds, rs.seeds)
	m.FullSelection = o.Full
	m.Timing = timing(m, o.Parallel)
	return m, ctx.Err()
}

// roundRate is n/total to four decimals: the redacting writer would mask
// the 16 digits of a rate such as 95/96 as a card number, breaking the JSON.
func roundRate(n, total int) float64 {
	return math.Round(1e4*float64(n)/float64(total)) / 1e4
}

// add counts one fault's entry: killed, broken or survived.
func (m *Matrix) add(e Entry) {
	m.Entries = append(m.Entries, e)
	switch {
	case e.Killed:
		m.Killed++
	case e.Run.Error != "":
		m.Errors = append(m.Errors, e)
	default:
		m.Survivors = append(m.Survivors, e)
	}
}

// defaults fills the options left empty; cleanup removes a temporary work
// directory.
func (o *Options) defaults() (cleanup func(), err error) {
	cleanup = func() {}
	if o.Faults == nil {
		o.Faults = fault.All()
	}
	if o.Variants == nil {
		o.Variants = variant.Variants()
	}
	if o.Seeds == nil {
		o.Seeds = DefaultSeeds(DefaultSeedCount)
	}
	if o.Parallel < 1 {
		o.Parallel = DefaultParallel()
	}
	if o.Bound <= 0 {
		o.Bound = DefaultRunBound
	}
	if o.Run == nil {
		exe, err := os.Executable()
		if err != nil {
			return cleanup, err
		}
		o.Run = ExecRunner(exe)
	}
	if o.WorkDir == "" {
		dir, err := os.MkdirTemp("", "mph-selftest-")
		if err != nil {
			return cleanup, err
		}
		cleanup = func() { os.RemoveAll(dir) }
		o.WorkDir = dir
	}
	return cleanup, os.MkdirAll(o.WorkDir, 0o755)
}

// runs are the outcomes of every run of a self-test.
type runs struct {
	clean, cleanSandbox Run
	faults              []Run
	done                []bool // the fault's run finished before any interrupt
	variants            []Run
	seeds               []Run
}

// jobKind is what a job runs.
type jobKind int

const (
	jobClean        jobKind = iota // the clean sandbox, default profile
	jobCleanSandbox                // the clean sandbox, its own profile
	jobVariant                     // one setting
	jobSeed                        // one seed's settings
	jobFault                       // one fault
)

// job is one run of runAll, idx its index in Options.Faults, .Variants or
// .Seeds.
type job struct {
	kind jobKind
	idx  int
}

// runAll runs the clean sandbox first (its verdict matters most), then
// under its own profile, then every seed, every setting and every fault,
// o.Parallel at a time: longest first. A seed combines the slow settings
// (delayed approvals, lagging listings, deliveries) and waits out each of
// them, the settings run every spec, and the short fault runs fill the
// end instead of one long run.
func runAll(ctx context.Context, o Options) runs {
	rs := runs{faults: make([]Run, len(o.Faults)), done: make([]bool, len(o.Faults)),
		variants: make([]Run, len(o.Variants)), seeds: make([]Run, len(o.Seeds))}
	jobs := make(chan job)
	var wg sync.WaitGroup
	var mu sync.Mutex
	for w := 0; w < o.Parallel; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				r := o.run(ctx, j)
				mu.Lock()
				rs.record(ctx, j, r)
				if o.Progress != nil {
					o.Progress(r)
				}
				mu.Unlock()
			}
		}()
	}
	send := func(j job) {
		select {
		case jobs <- j:
		case <-ctx.Done():
		}
	}
	send(job{kind: jobClean})
	send(job{kind: jobCleanSandbox})
	for i := range o.Seeds {
		send(job{jobSeed, i})
	}
	for i := range o.Variants {
		send(job{jobVariant, i})
	}
	for i := range o.Faults {
		send(job{jobFault, i})
	}
	close(jobs)
	wg.Wait()
	return rs
}

// runSpec is what one run starts: its name (of files), label (for the
// runner), the sandbox's options, the spec filter and the profile overlay
// ("" for the default profile).
type runSpec struct {
	name, label string
	opts        sandbox.Options
	filter      string
	overlay     []byte
	profile     string // how Run.Profile names it
}

// run carries out one job.
func (o Options) run(ctx context.Context, j job) Run {
	switch j.kind {
	case jobCleanSandbox:
		r := runOne(ctx, o, runSpec{name: "clean-sandbox-profile", label: "clean:sandbox-profile", overlay: sandbox.ProfileYAML(), profile: "sandbox"})
		return r
	case jobVariant:
		v := o.Variants[j.idx]
		r := runOne(ctx, o, runSpec{name: "variant-" + v.Name, label: "variant:" + v.Name,
			opts: sandbox.Options{Variants: []string{v.Name}}, overlay: []byte(v.Profile)})
		r.Variant = v.Name
		return r
	case jobSeed:
		seed := o.Seeds[j.idx]
		names := variant.SeedVariants(seed)
		overlay, err := SeedOverlay(seed)
		if err != nil {
			return Run{Seed: seed, Settings: names, Error: "the seed's profile: " + err.Error()}
		}
		r := runOne(ctx, o, runSpec{name: fmt.Sprintf("seed-%d", seed), label: fmt.Sprintf("seed:%d", seed),
			opts: sandbox.Options{Variants: names}, overlay: overlay})
		r.Seed, r.Settings = seed, names
		return r
	case jobFault:
		f := o.Faults[j.idx]
		r := runOne(ctx, o, runSpec{name: f.Name, label: f.Name, opts: sandbox.Options{Faults: []string{f.Name}},
			filter: o.faultSelection(f), overlay: []byte(f.Profile)})
		r.Fault = f.Name
		return r
	}
	return runOne(ctx, o, runSpec{name: "clean"})
}

// record files a finished job's run; the caller holds the lock.
func (rs *runs) record(ctx context.Context, j job, r Run) {
	switch j.kind {
	case jobClean:
		rs.clean = r
	case jobCleanSandbox:
		rs.cleanSandbox = r
	case jobVariant:
		rs.variants[j.idx] = r
	case jobSeed:
		rs.seeds[j.idx] = r
	case jobFault:
		rs.faults[j.idx] = r
		rs.done[j.idx] = ctx.Err() == nil
	}
}

// runOne starts a sandbox as spec says and runs the specs it selects
// ("" every spec) against it, under its profile.
func runOne(ctx context.Context, o Options, spec runSpec) (r Run) {
	r.Selection, r.Profile = spec.filter, spec.profile
	start := time.Now()
	defer func() { r.Duration = Millis(time.Since(start)) }()
	profile, path, err := loadOverlay(o.WorkDir, spec.name, spec.overlay)
	if err != nil {
		r.Error = err.Error()
		return r
	}
	switch {
	case r.Profile != "":
	case path == "":
		r.Profile = "default"
	default:
		r.Profile = "default+overlay"
	}
	running, err := sandbox.Start(ctx, "127.0.0.1:0", spec.opts)
	if err != nil {
		r.Error = "starting the sandbox: " + err.Error()
		return r
	}
	defer func() { _ = running.CloseWithin(500 * time.Millisecond) }()

	cfg := embedded.FromSandbox(running, profile)
	cfg.ProfilePath = path
	j := Job{Label: spec.label, Config: cfg, ReportPath: filepath.Join(o.WorkDir, spec.name+".json"), LabelFilter: spec.filter, Bound: o.Bound}
	out, err := o.Run(ctx, j)
	r.ExitCode, r.CPU = out.ExitCode, Millis(out.CPU)
	if out.TimedOut {
		r.Error = fmt.Sprintf("the run did not end within its bound of %s and was stopped; %s", o.Bound, runningAtStop(j.ReportPath, out.Output))
		return r
	}
	if err != nil {
		r.Error = err.Error()
		return r
	}
	verdict(&r, out.ExitCode, out.Output, j.ReportPath)
	if n := deadlineCut(r.Why); n > 0 && r.Error == "" {
		r.Error = fmt.Sprintf("the run reached its bound of %s with %d specs not started (--run-timeout)", o.Bound, n)
	}
	return r
}

// deadlineCut counts the specs a run's deadline left unstarted.
func deadlineCut(why []string) int {
	n := 0
	for _, w := range why {
		if strings.Contains(w, "the run deadline (--deadline) passed before this spec started") {
			n++
		}
	}
	return n
}

// DefaultRunBound is how long one run may take by default: a run of every
// spec takes seconds against the sandbox, and the longest bounded waits of
// a spec are tens of seconds.
const DefaultRunBound = 3 * time.Minute

// runningAtStop says what a stopped run was doing: the specs its report
// shows interrupted or timed out, else the end of its output.
func runningAtStop(reportPath string, out []byte) string {
	rep, err := readReport(reportPath)
	if err == nil {
		var running []string
		for _, s := range rep.SpecReports {
			if s.State == types.SpecStateInterrupted || s.State == types.SpecStateTimedout || s.State == types.SpecStateAborted {
				running = append(running, s.FullText())
			}
		}
		if len(running) > 0 {
			return "it was running: " + strings.Join(running, "; ")
		}
	}
	return "its output ends: " + tail(out, 1000)
}

// verdict reads a finished run's outcome from its exit code and report.
func verdict(r *Run, code int, out []byte, reportPath string) {
	switch code {
	case 0, 1, 3:
		rep, err := readReport(reportPath)
		if err != nil {
			r.Error = fmt.Sprintf("reading the report (exit %d): %v; output: %s", code, err, tail(out, 2000))
			return
		}
		tally(r, rep)
		if code == 3 && len(r.HarnessErrors) == 0 && len(r.NoVerdict) == 0 {
			r.Error = "conform exited 3 but the report shows no harness error and no verdict missing; output: " + tail(out, 2000)
		}
		if code == 1 && len(r.Failed) == 0 && len(r.HarnessErrors) == 0 {
			r.Error = "conform exited 1 but the report shows no failed spec; output: " + tail(out, 2000)
		}
	case 2:
		// Exit 2 is a detection only when pre-flight refused the target (the
		// fault broke the token exchange badly enough to stop the run). Any
		// other configuration error is the harness's own problem.
		if !bytes.Contains(out, []byte("mph: pre-flight:")) {
			r.Error = "conform exited 2 without a pre-flight verdict (configuration error); output: " + tail(out, 2000)
			return
		}
		r.Preflight = true
		r.Failed = []string{"pre-flight: " + preflightReason(out)}
	default:
		r.Error = fmt.Sprintf("conform exited %d; output: %s", code, tail(out, 2000))
	}
}

// tally counts the report's specs into r: passed, skipped, failed (by full
// text) and harness errors.
func tally(r *Run, rep types.Report) {
	for _, s := range rep.SpecReports {
		text := s.FullText()
		if s.LeafNodeType != types.NodeTypeIt {
			text = "[" + s.LeafNodeType.String() + "] " + firstLine(s.Failure.Message)
		}
		switch result.Classify(s) {
		case result.Passed:
			if s.LeafNodeType == types.NodeTypeIt {
				r.Passed++
			}
		case result.Skipped, result.Pending:
			if s.LeafNodeType == types.NodeTypeIt {
				r.Skipped++
			}
		case result.Failed:
			r.Failed = append(r.Failed, text)
			r.Why = append(r.Why, text+": "+firstLine(s.Failure.Message))
		case result.HarnessError:
			// The harness could not run the check: not a verdict on the
			// server, so it neither kills a fault nor passes a clean run.
			r.HarnessErrors = append(r.HarnessErrors, text)
			r.Why = append(r.Why, text+": "+firstLine(s.Failure.Message))
		case result.NoVerdict:
			r.NoVerdict = append(r.NoVerdict, text)
			r.Why = append(r.Why, text+": "+firstLine(s.Failure.Message))
		}
	}
	sort.Strings(r.Failed)
	sort.Strings(r.Why)
}

// maskedTimestamp is an RFC 3339 timestamp some of whose digits were masked.
var maskedTimestamp = regexp.MustCompile(`"[0-9*]{4}-[0-9*]{2}-[0-9*]{2}T[0-9*]{2}:[0-9*]{2}:[0-9*]{2}(\.[0-9*]+)?(Z|[+-][0-9*]{2}:[0-9*]{2})"`)

// readReport reads the JSON report of a conform run: Ginkgo's own format (an
// array of reports), or an object holding it under "ginkgo".
func readReport(path string) (types.Report, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return types.Report{}, err
	}
	var reps []types.Report
	if json.Unmarshal(b, &reps) != nil {
		// Redaction by value may mask digits a secret shares with a
		// timestamp; the verdict does not depend on times.
		b = maskedTimestamp.ReplaceAllFunc(b, func(m []byte) []byte { return bytes.ReplaceAll(m, []byte("*"), []byte("0")) })
	}
	if err := json.Unmarshal(b, &reps); err != nil {
		var wrapped struct {
			Ginkgo []types.Report `json:"ginkgo"`
		}
		if err2 := json.Unmarshal(b, &wrapped); err2 != nil {
			return types.Report{}, err
		}
		reps = wrapped.Ginkgo
	}
	if len(reps) == 0 {
		return types.Report{}, errors.New("empty report")
	}
	return reps[0], nil
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return line
}

func tail(b []byte, n int) string {
	if len(b) > n {
		b = b[len(b)-n:]
	}
	return string(b)
}

// preflightReason is the one line conform printed for the pre-flight refusal.
func preflightReason(out []byte) string {
	for _, line := range bytes.Split(out, []byte("\n")) {
		if i := bytes.Index(line, []byte("mph: pre-flight:")); i >= 0 {
			return trunc(string(line[i+len("mph: pre-flight:"):]), 300)
		}
	}
	return ""
}
