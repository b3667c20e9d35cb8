package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/merchant-harness/mph/report"
	"github.com/merchant-harness/mph/sandbox"
	"github.com/merchant-harness/mph/suites"
	"github.com/merchant-harness/mph/target"
)

type conformFlags struct {
	settings    target.Settings
	labelFilter string
	focus       []string
	skip        []string
	junit       string
	jsonReport  string
	html        string
	out         string
	coverage    bool
	list        bool
	verbose     bool
	slow        bool
	noColor     bool
	deadline    time.Duration
}

var conformOpts conformFlags

var conformCmd = &cobra.Command{
	Use:   "conform",
	Short: "Run the conformance suites against a target (default: the embedded sandbox)",
	Long: `Run the conformance suites of the Merchant Payments API v1.

With no --base-url (or MPH_BASE_URL) the embedded reference sandbox is started
and its demo credentials are used. Against another server, give the base URL,
MPH_MERCHANT_ID and the secret key in MPH_SECRET_KEY or MPH_SECRET_KEY_FILE
(secrets are never taken from the command line), and a --profile for what the
API document does not show.

Exit codes: 0 all passed, 1 failures or harness errors, 2 configuration error
(including an unreachable target, a TLS error or rejected credentials).`,
	Args: cobra.NoArgs,
	RunE: runConform,
}

func init() {
	f := &conformOpts
	fs := conformCmd.Flags()
	f.settings.BindFlags(fs)
	fs.StringVar(&f.labelFilter, "label-filter", "", "run only specs matching this label expression, e.g. 'withdraw && !destructive'")
	fs.StringSliceVar(&f.focus, "focus", nil, "run only specs whose text matches this regular expression (repeatable)")
	fs.StringSliceVar(&f.skip, "skip", nil, "skip specs whose text matches this regular expression (repeatable)")
	fs.StringVar(&f.junit, "junit-report", "", "JUnit XML report path (default <out>/junit.xml)")
	fs.StringVar(&f.jsonReport, "json-report", "", "JSON report path (default <out>/report.json)")
	fs.StringVar(&f.html, "html-report", "", "self-contained HTML report path (default <out>/report.html)")
	fs.StringVar(&f.out, "out", "mph-results", "directory for the JUnit, JSON and HTML reports (when no specific report path is given)")
	fs.BoolVar(&f.coverage, "coverage", false, "print requirement → specs and the uncovered testable requirements (exit 1 if any), without running")
	fs.BoolVar(&f.list, "list", false, "list the specs with their labels and requirement IDs, without running")
	fs.BoolVar(&f.slow, "slow", false, "also run specs that wait out real time (token expiry without a sandbox clock: 15 minutes; env "+suites.EnvSlow+")")
	fs.BoolVarP(&f.verbose, "verbose", "v", false, "print every spec as it runs")
	fs.BoolVar(&f.noColor, "no-color", false, "no ANSI colours")
	fs.DurationVar(&f.deadline, "deadline", 0, "overall run deadline, e.g. 20m: specs not started by then are reported as not run (exit 1); 0 = one hour")
	rootCmd.AddCommand(conformCmd)
}

// conformSettings reads MPH_* and lets explicitly given flags win.
func conformSettings(cmd *cobra.Command) (target.Settings, error) {
	return target.SettingsFromEnvAndFlags(cmd.Flags(), conformOpts.settings)
}

func runConform(cmd *cobra.Command, _ []string) error {
	f := &conformOpts
	stdout := cmd.OutOrStdout()
	if f.list || f.coverage {
		res, err := suites.Run(context.Background(), nil, suites.RunOptions{DryRun: true, LabelFilter: f.labelFilter, Focus: f.focus, Skip: f.skip, NoColor: true})
		if err != nil {
			return usageErr("%v", err)
		}
		if f.list {
			printList(res)
		}
		if f.coverage {
			return printCoverage(res)
		}
		return nil
	}

	s, err := conformSettings(cmd)
	if err != nil {
		return usageErr("%v", err)
	}
	if f.slow {
		_ = os.Setenv(suites.EnvSlow, "1")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	cfg, cleanup, err := target.Resolve(ctx, s, sandbox.Options{})
	if err != nil {
		return usageErr("%v", err)
	}
	defer cleanup()

	junit, jsonPath, html := f.junit, f.jsonReport, f.html
	// Reports go to --out unless specific report paths were given (then only
	// those are written, so concurrent runs, e.g. the self-test's, never
	// share ./mph-results).
	explicit := junit != "" || jsonPath != "" || html != ""
	if f.out != "" && (!explicit || cmd.Flags().Changed("out")) {
		if junit == "" {
			junit = filepath.Join(f.out, "junit.xml")
		}
		if jsonPath == "" {
			jsonPath = filepath.Join(f.out, "report.json")
		}
		if html == "" {
			html = filepath.Join(f.out, "report.html")
		}
	}
	where := cfg.BaseURL
	if cfg.Embedded {
		where += " (embedded sandbox)"
	}
	fmt.Fprintf(stdout, "mph conform: target %s, run id %s\n", where, cfg.RunID)
	res, err := suites.Run(ctx, cfg, suites.RunOptions{
		LabelFilter: f.labelFilter, Focus: f.focus, Skip: f.skip,
		JUnitReport: junit, JSONReport: jsonPath, HTMLReport: html,
		Verbose: f.verbose, NoColor: f.noColor, Deadline: f.deadline,
	})
	var pe *target.PreflightError
	var de *suites.DeclarationError
	switch {
	case errors.As(err, &pe):
		fmt.Fprintf(cmd.ErrOrStderr(), "reproduce the pre-flight token exchange:\n  curl -sS -X POST '%s/auth/token' -H 'Content-Type: application/json' --data-raw '{\"merchantId\":\"%s\",\"secretKey\":\"'\"$SECRET_KEY\"'\"}'\n",
			cfg.BaseURL, cfg.Primary.MerchantID)
		return usageErr("pre-flight: %v", pe)
	case errors.As(err, &de):
		return usageErr("%v", de)
	case err != nil:
		return usageErr("%v", err)
	}
	res.Summary.WriteConsole(stdout, junit, jsonPath, html)
	if res.NotRun > 0 {
		return failuresErr("%d specs not run: the run deadline (--deadline %s) passed; %d failed, %d harness errors", res.NotRun, f.deadline, res.Summary.Failed, res.Summary.HarnessErrors)
	}
	if !res.Summary.OK() || !res.Passed {
		return failuresErr("%d failed, %d harness errors", res.Summary.Failed, res.Summary.HarnessErrors)
	}
	return nil
}

func printList(res suites.Result) {
	n := 0
	for _, sp := range res.Report.SpecReports {
		if sp.LeafNodeType.String() != "It" {
			continue
		}
		n++
		fmt.Printf("%s\n    labels: %s\n", report.FullText(sp), strings.Join(sp.Labels(), ", "))
	}
	fmt.Printf("%d specs\n", n)
}
