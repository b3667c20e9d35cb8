package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/merchant-harness/mph/client"
	"github.com/merchant-harness/mph/config"
	"github.com/merchant-harness/mph/config/embedded"
	"github.com/merchant-harness/mph/exitcode"
	"github.com/merchant-harness/mph/report"
	"github.com/merchant-harness/mph/result"
	_ "github.com/merchant-harness/mph/suites" // the specs register themselves
	"github.com/merchant-harness/mph/suites/framework"
	"github.com/merchant-harness/mph/suites/listing"
)

type conformFlags struct {
	target        *config.Flags
	labelFilter   string
	focus         []string
	skip          []string
	reports       reportFlags
	coverage      bool
	list          bool
	listJSON      bool
	verbose       bool
	plan          bool
	allowEmpty    bool
	waivers       string
	strictWaivers bool
	baseline      string
	deadline      time.Duration
	// acceptNoVerdict names the specs (IDs, or all) whose no verdict does
	// not make the run exit 3.
	acceptNoVerdict []string
}

// reportFlags place the reports: every format is written (in --out unless
// its own path is given) unless turned off with --no-<format>.
type reportFlags struct {
	out                             string
	junit, json, html, markdown     string
	noJUnit, noJSON, noHTML, noMark bool
}

func (r *reportFlags) bind(cmd *cobra.Command, defaultOut string) {
	fs := cmd.Flags()
	fs.StringVar(&r.out, "out", defaultOut, "directory of the reports that have no path of their own")
	fs.StringVar(&r.junit, "junit-report", "", "JUnit XML report path (default <out>/junit.xml)")
	fs.StringVar(&r.json, "json-report", "", "JSON report path (default <out>/report.json; the summary goes next to it as report.summary.json)")
	fs.StringVar(&r.html, "html-report", "", "self-contained HTML report path (default <out>/report.html)")
	fs.StringVar(&r.markdown, "markdown-report", "", "Markdown summary path, e.g. $GITHUB_STEP_SUMMARY (default <out>/summary.md)")
	fs.BoolVar(&r.noJUnit, "no-junit", false, "do not write the JUnit report")
	fs.BoolVar(&r.noJSON, "no-json", false, "do not write the JSON report")
	fs.BoolVar(&r.noHTML, "no-html", false, "do not write the HTML report")
	fs.BoolVar(&r.noMark, "no-markdown", false, "do not write the Markdown summary")
}

// paths returns where each report goes ("" = turned off).
func (r *reportFlags) paths() (junit, jsonPath, html, markdown string) {
	pick := func(explicit, name string, off bool) string {
		switch {
		case off:
			return ""
		case explicit != "":
			return explicit
		}
		return filepath.Join(r.out, name)
	}
	return pick(r.junit, "junit.xml", r.noJUnit), pick(r.json, "report.json", r.noJSON),
		pick(r.html, "report.html", r.noHTML), pick(r.markdown, "summary.md", r.noMark)
}

var conformOpts conformFlags

var conformCmd = &cobra.Command{
	Use:   "conform",
	Short: "Run the conformance suites against a target (default: the embedded sandbox)",
	Long: `Run the conformance suites of the Merchant Payments API v1.

With no --base-url (or ` + config.EnvBaseURL + `) the embedded reference sandbox is started
and its demo credentials are used. Against another server, give the base URL,
` + config.EnvMerchantID + ` and the secret key in ` + config.EnvSecretKey + ` or ` + config.EnvSecretKey + config.FileSuffix + `
(secrets are never taken from the command line), and a --profile for what the
API document does not show.

Every spec has a stable short ID (area.hash, see --list) used by waivers,
baselines and the reports. --waivers FILE accepts known deviations until
their expiry date (see docs/waivers.example.yaml); --baseline compares with
an earlier report.summary.json. An unreachable target, a TLS error or
rejected credentials stop the run before any spec (exit 2).`,
	Args: cobra.NoArgs,
	RunE: runConform,
}

func init() {
	f := &conformOpts
	fs := conformCmd.Flags()
	f.target = config.Bind(fs, config.CmdConform)
	fs.StringVar(&f.labelFilter, "label-filter", "", "run only specs matching this label expression, e.g. 'withdraw && !destructive'")
	fs.StringSliceVar(&f.focus, "focus", nil, "run only specs whose text matches this regular expression (repeatable)")
	fs.StringSliceVar(&f.skip, "skip", nil, "skip specs whose text matches this regular expression (repeatable)")
	f.reports.bind(conformCmd, "mph-results")
	fs.BoolVar(&f.coverage, "coverage", false, "print requirement → specs, the uncovered testable requirements and the rule × endpoint grid of the cross-cutting rules (exit 1 if a requirement or an applicable cell has no spec), without running")
	fs.BoolVar(&f.list, "list", false, "list the selected specs (ID, text, labels), without running")
	fs.BoolVar(&f.listJSON, "json", false, "with --list: print the selected specs as JSON; with --coverage: the rule × endpoint grid as JSON")
	fs.BoolVar(&f.allowEmpty, "allow-empty", false, "accept a selection of 0 specs (exit 0 instead of 2)")
	fs.StringVar(&f.waivers, "waivers", "", "YAML file of waivers: known deviations reported as waived until they expire")
	fs.BoolVar(&f.strictWaivers, "strict-waivers", false, "exit 1 when a waived spec now passes (the waiver should be removed)")
	fs.StringVar(&f.baseline, "baseline", "", "report.summary.json of an earlier run: report new failures, fixed and still-failing specs")
	fs.BoolVarP(&f.verbose, "verbose", "v", false, "print every spec as it runs")
	fs.BoolVar(&f.plan, "plan", false, "print what the selected specs will create and the most they can spend, without sending a request to the target")
	fs.DurationVar(&f.deadline, "deadline", 0, "overall run deadline, e.g. 20m: specs not started by then are reported as not run, no verdict (exit 3 unless a rule failed); 0 = one hour")
	fs.StringSliceVar(&f.acceptNoVerdict, "accept-no-verdict", nil, "spec IDs (comma-separated, repeatable), or all, whose no verdict (rate limited, a wait beyond its bound, another refusal first, ...) does not make the run exit 3; they are still reported")
	rootCmd.AddCommand(conformCmd)
}

func runConform(cmd *cobra.Command, _ []string) error {
	f := &conformOpts
	softMemoryLimit(conformMemoryLimit)
	stdout, stderr := cmd.OutOrStdout(), cmd.ErrOrStderr()
	if f.listJSON && !f.list && !f.coverage {
		return usageErr("--json goes with --list or --coverage")
	}
	opts := framework.RunOptions{LabelFilter: f.labelFilter, Focus: f.focus, Skip: f.skip, Verbose: f.verbose, NoColor: !useColor(os.Stdout), Deadline: f.deadline}
	pv, err := framework.Preview(opts)
	if err != nil {
		return usageErr("%v", err)
	}
	if f.coverage {
		return printCoverage(f.listJSON)
	}
	selected := framework.Selected(pv)
	if len(selected) == 0 && !f.allowEmpty {
		what := framework.DescribeSelection(opts)
		if what == "" {
			what = "the suite"
		}
		return usageErr("no spec selected by %s (see mph conform --list; --allow-empty accepts an empty selection)", what)
	}
	if f.list {
		return listing.Write(stdout, pv, f.listJSON)
	}
	ro, err := f.reportOptions()
	if err != nil {
		return usageErr("%v", err)
	}
	s, err := f.target.Settings()
	if err != nil {
		return usageErr("%v", err)
	}
	if f.plan {
		return runPlan(cmd, s)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// The embedded sandbox outlives an interrupt: the teardown still needs it.
	cfg, cleanup, err := embedded.Resolve(context.WithoutCancel(ctx), s)
	if err != nil {
		return usageErr("%v", err)
	}
	defer cleanup()

	opts.JUnitReport, opts.JSONReport, opts.HTMLReport, opts.MarkdownReport = f.reports.paths()
	ro.Meta = framework.Meta(cfg, framework.DescribeSelection(opts), versionString())
	opts.Report = ro
	where := cfg.BaseURL
	if cfg.Embedded {
		where += " (embedded sandbox)"
	}
	fmt.Fprintf(stdout, "mph conform %s: target %s, run id %s, %d specs selected\n", ro.Meta.Version, report.StripUserinfo(where), cfg.RunID, len(selected))
	opts.OnInterrupt = func(res framework.Result) {
		fmt.Fprintln(stdout) // ends Ginkgo's progress line
		fmt.Fprintln(stderr, opts.InterruptLine(res.Summary))
		os.Exit(exitcode.Interrupted)
	}
	res, err := framework.Run(ctx, cfg, opts)
	if ctx.Err() != nil && res.Report.SuiteDescription == "" {
		sum := framework.WriteInterrupted(pv, syscall.SIGINT, opts)
		return interruptedErr("%s", opts.InterruptLine(sum))
	}
	return f.outcome(stdout, stderr, cfg, opts, res, err)
}

// outcome prints the summary and maps the run to the exit-code contract.
func (f *conformFlags) outcome(stdout, stderr io.Writer, cfg *config.Config, opts framework.RunOptions, res framework.Result, err error) error {
	var pe *config.PreflightError
	switch {
	case errors.As(err, &pe):
		fmt.Fprintf(stderr, "reproduce the pre-flight token exchange (with %s, %s and %s set):\n  %s\n", config.EnvBaseURL, config.EnvMerchantID, config.EnvSecretKey,
			client.ReproduceTokenExchange(cfg.BaseURL, cfg.Primary.MerchantID, cfg.Primary.SecretKey))
		return usageErr("pre-flight: %v", pe)
	case err != nil:
		return usageErr("%v", err)
	}
	_ = report.Console(res.Summary, opts.ReportFiles()...)(stdout)
	err = conformVerdict(res.Summary, f.strictWaivers)
	var ee *exitError
	if res.NotRun > 0 && !res.Summary.Interrupted && errors.As(err, &ee) {
		// Specs the deadline cut reached no verdict: say why.
		return &exitError{code: ee.code, err: fmt.Errorf("%d specs not run: the run deadline (--deadline %s) passed; %v", res.NotRun, f.deadline, ee.err)}
	}
	if err != nil || len(res.ReportErrors) == 0 {
		return err
	}
	// Nothing failed, but the artifacts a CI gate reads are incomplete.
	return harnessErr("nothing failed, but %d report(s) could not be written: %s", len(res.ReportErrors), strings.Join(res.ReportErrors, "; "))
}

// conformVerdict maps a summary to the exit-code contract.
func conformVerdict(s result.Summary, strict bool) error {
	if code := s.ExitCode(strict); code != exitcode.OK {
		return &exitError{code: code, err: errors.New(s.Verdict(strict))}
	}
	return nil
}

// reportOptions loads the waivers and the baseline and checks the accepted
// no verdicts.
func (f *conformFlags) reportOptions() (result.Options, error) {
	var ro result.Options
	if f.strictWaivers && f.waivers == "" {
		return ro, errors.New("--strict-waivers needs --waivers")
	}
	accepted, err := listing.AcceptedNoVerdicts(f.acceptNoVerdict)
	if err != nil {
		return ro, err
	}
	ro.AcceptNoVerdict = accepted
	if f.waivers != "" {
		if ro.Waivers, err = result.LoadWaivers(f.waivers, listing.Known()); err != nil {
			return ro, err
		}
	}
	if f.baseline != "" {
		b, err := result.LoadSummary(f.baseline)
		if err != nil {
			return ro, err
		}
		if err := listing.Rebase(b); err != nil {
			return ro, fmt.Errorf("baseline %s: %w", f.baseline, err)
		}
		ro.Baseline = b
	}
	return ro, nil
}
