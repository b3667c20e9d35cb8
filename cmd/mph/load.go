package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/merchant-harness/mph/config"
	"github.com/merchant-harness/mph/config/embedded"
	"github.com/merchant-harness/mph/loadtest"
	"github.com/merchant-harness/mph/loadtest/launch"
	"github.com/merchant-harness/mph/loadtest/summary"
	"github.com/merchant-harness/mph/report/loadreport"
	"github.com/merchant-harness/mph/sandbox/options"
)

// loadTargetFlags are shared by `mph load` and its subcommands.
type loadTargetFlags struct {
	target        *config.Flags
	noRateLimits  bool
	sandboxLimits []string
	sandboxShare  string // embedded sandbox: groups sharing one bucket
	sandboxKey    string // embedded sandbox: bucket key
}

func (f *loadTargetFlags) bind(fs *pflag.FlagSet) {
	f.target = config.Bind(fs, config.CmdLoad)
	fs.BoolVar(&f.noRateLimits, "no-rate-limits", false, "embedded sandbox: disable its rate limits (to measure the driver or the server, not the limiter)")
	fs.StringSliceVar(&f.sandboxLimits, "sandbox-rate-limit", nil, "embedded sandbox: set a rate-limit group, group=rate[:burst] (repeatable), e.g. secure=20:20")
	fs.StringVar(&f.sandboxShare, "sandbox-rate-limit-share", "", "embedded sandbox: groups drawing from one bucket, e.g. read+secure (sets separated by commas)")
	fs.StringVar(&f.sandboxKey, "sandbox-rate-limit-key", "", "embedded sandbox: bucket key of authenticated calls: merchant (default), token or client")
}

// prepare resolves the target and runs the scenario's setup, outside any
// timed path. ctx is cancelled by Ctrl-C or SIGTERM so the run still ends
// with valid reports; release tears down the scenario, the embedded sandbox
// and the signal handler, in that order. A setup that fails or is
// interrupted has swept what it funded; its report goes to out.
func (f *loadTargetFlags) prepare(cmd *cobra.Command, so loadtest.ScenarioOptions, what, out string) (context.Context, *loadtest.Target, *loadtest.Scenario, func(), error) {
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	t, cleanup, err := f.resolve(context.Background(), cmd)
	if err != nil {
		err = setupErr(ctx, err) // before stop, which cancels ctx
		stop()
		return nil, nil, nil, nil, err
	}
	start := time.Now()
	scn, err := loadtest.Prepare(ctx, t, so)
	if err != nil {
		err = setupErr(ctx, setupFailed(cmd, t, so.Name, what, out, start, err))
		cleanup()
		stop()
		return nil, nil, nil, nil, err
	}
	release := func() {
		scn.Close(context.Background())
		cleanup()
		stop()
	}
	return ctx, t, scn, release, nil
}

// setupFailed maps a setup error to its exit: a LIVE refusal is a pre-flight
// refusal (exit 2, nothing written); a setup that stopped after writing gets
// a report (marked interrupted when it was) stating what was swept.
func setupFailed(cmd *cobra.Command, t *loadtest.Target, scenario, what, out string, start time.Time, err error) error {
	if errors.Is(err, loadtest.ErrLiveRefused) {
		return usageErr("%s: %v", what, err)
	}
	var se *loadtest.SetupError
	if !errors.As(err, &se) {
		return fmt.Errorf("%s: %w", what, err)
	}
	kind := what
	if kind == "load" {
		kind = "run"
	}
	rep := &summary.Report{Tool: "mph load " + versionString(), Kind: kind, Scenario: scenario, Target: t.BaseURL, Embedded: t.Embedded,
		Start: start, End: time.Now(), Interrupted: se.Interrupted, Notes: se.Notes}
	if werr := loadreport.Write(out, rep); werr != nil {
		fmt.Fprintf(cmd.ErrOrStderr(), "%s: writing reports: %v\n", what, werr)
	} else {
		fmt.Fprintf(cmd.ErrOrStderr(), "%s: reports: %s/{summary.json,summary.md,report.html}\n", what, out)
	}
	for _, n := range se.Notes {
		fmt.Fprintf(cmd.ErrOrStderr(), "%s: %s\n", what, n)
	}
	if se.Interrupted {
		return interruptedErr("%s: interrupted during setup; the reports are marked interrupted", what)
	}
	return fmt.Errorf("%s: %w", what, err)
}

// resolve reads the environment then the flags (flags win) and returns the target.
func (f *loadTargetFlags) resolve(ctx context.Context, cmd *cobra.Command) (*loadtest.Target, func(), error) {
	s, err := f.target.Settings()
	if err != nil {
		return nil, nil, usageErr("%v", err)
	}
	sbx, err := options.EmbeddedLimits(f.noRateLimits, f.sandboxLimits, f.sandboxShare, f.sandboxKey)
	if err != nil {
		return nil, nil, usageErr("%v", err)
	}
	if s.BaseURL != "" && (f.noRateLimits || len(f.sandboxLimits) > 0 || f.sandboxShare != "" || f.sandboxKey != "") {
		return nil, nil, usageErr("--no-rate-limits and --sandbox-rate-limit* apply to the embedded sandbox only (no --base-url)")
	}
	cfg, cleanup, err := embedded.ResolveWith(ctx, s, sbx)
	if err != nil {
		var ue *config.UsageError
		if errors.As(err, &ue) {
			return nil, nil, usageErr("%v", err)
		}
		return nil, nil, err
	}
	return launch.Target(cfg), cleanup, nil
}

// loadRunFlags are the knobs of a timed run.
type loadRunFlags struct {
	scenario, pace, mix, listQuery, outDir, shard, startAt string
	rate                                                   float64
	duration, warmup                                       time.Duration
	workers, maxWorkers                                    uint64
	connections, maxConnections, poolSize                  int
	http2, h2c, noKeepAlive, quiet, noResults, teardown    bool
	noPlot                                                 bool
	cpuProfile                                             string
	plotMax                                                uint64
	abortOnBreach                                          bool
	thresholds, cardIDs                                    []string
	gate                                                   loadGateFlags
	live                                                   liveFlags
}

func (f *loadRunFlags) bind(fs *pflag.FlagSet, withRate bool) {
	fs.StringVar(&f.scenario, "scenario", "secure", "scenario: "+strings.Join(loadtest.ScenarioNames(), ", ")+" (see mph load --list-scenarios)")
	fs.StringVar(&f.mix, "mix", "", "weights of a composite scenario's parts, e.g. list=6,secure=3,token=1 (default: the scenario's own)")
	if withRate {
		fs.Float64Var(&f.rate, "rate", 100, "requests per second (whole run, all shards together)")
		fs.DurationVar(&f.duration, "duration", 30*time.Second, "measured duration (after --warmup)")
		fs.StringVar(&f.pace, "pace", "constant", "rate profile: constant, ramp:FROM-TO, steps:R1,R2,... (steps may carry @duration)")
		fs.DurationVar(&f.warmup, "warmup", 0, "warm-up at the schedule's starting rate before the measured part, excluded from the figures")
		fs.StringSliceVar(&f.thresholds, "threshold", nil, "release gate, repeatable: e.g. secure:p99<150ms, token:success>=99.9%, list:rate429<1%")
		fs.BoolVar(&f.abortOnBreach, "abort-on-breach", false, "stop the run as soon as a threshold is clearly breached")
		fs.StringVar(&f.shard, "shard", "", "run shard i of n (i/n, 0-based) of the rate; all shards need the same --start-at")
		fs.StringVar(&f.startAt, "start-at", "", "wall-clock start of the attack (RFC 3339 or unix seconds), common to all shards")
		f.live.bind(fs)
	}
	fs.Uint64Var(&f.workers, "workers", 10, "initial generator workers (more are spawned when needed, up to --max-workers)")
	fs.Uint64Var(&f.maxWorkers, "max-workers", 0, "maximum generator workers (0 = unbounded, the open model)")
	fs.IntVar(&f.connections, "connections", 10000, "maximum idle connections per host")
	fs.IntVar(&f.maxConnections, "max-connections", 0, "maximum connections per host (0 = unbounded)")
	fs.BoolVar(&f.http2, "http2", false, "allow HTTP/2 over TLS (default HTTP/1.1)")
	fs.BoolVar(&f.h2c, "h2c", false, "HTTP/2 cleartext (prior knowledge)")
	fs.BoolVar(&f.noKeepAlive, "no-keepalive", false, "disable connection reuse")
	fs.StringVar(&f.outDir, "out", "", "output directory (default mph-results/<time>-<scenario>)")
	fs.BoolVar(&f.noResults, "no-results", false, "do not write raw results (results.bin)")
	fs.BoolVar(&f.noPlot, "no-plot", false, "do not render vegeta's latency plot (plot.html) from the raw results")
	fs.Uint64Var(&f.plotMax, "plot-max-results", 250000, "skip plot.html above this many results (vegeta's plot holds every point while rendering: about 75 bytes each)")
	fs.BoolVar(&f.quiet, "quiet", false, "no progress output")
	fs.StringVar(&f.cpuProfile, "cpuprofile", "", "write a Go CPU profile of the attack to this file (go tool pprof)")
	fs.IntVar(&f.poolSize, "pool-size", 20, "cards created for the secure scenario")
	fs.StringSliceVar(&f.cardIDs, "card-ids", nil, "existing ACTIVE card ids for secure (nothing is created)")
	fs.StringVar(&f.listQuery, "list-query", "limit=20", "query string of GET /cards")
	fs.BoolVar(&f.teardown, "teardown", true, "after the run, sweep the balances of cards created by setup back to the vault")
	f.gate.bind(fs)
}

func (f *loadRunFlags) attack(timeout time.Duration, insecure bool) loadtest.AttackOptions {
	return f.ask().Attack(timeout, insecure)
}

func (f *loadRunFlags) scenarioOptions(logf func(string, ...any)) (loadtest.ScenarioOptions, error) {
	o := loadtest.ScenarioOptions{Name: f.scenario, PoolSize: f.poolSize, CardIDs: f.cardIDs, ListQuery: f.listQuery, Teardown: f.teardown, Logf: logf}
	def, err := lookupScenario(f.scenario)
	if err != nil || f.mix == "" {
		return o, err
	}
	if !def.Composite() {
		return o, usageErr("--mix: scenario %s is not a composite of other scenarios (see mph load --list-scenarios)", f.scenario)
	}
	if o.Mix, err = def.ParseMix(f.mix); err != nil {
		return o, usageErr("%v", err)
	}
	return o, nil
}

func logfTo(w io.Writer, quiet bool) func(string, ...any) {
	return func(format string, a ...any) {
		if !quiet {
			fmt.Fprintf(w, format+"\n", a...)
		}
	}
}

func init() {
	var tf loadTargetFlags
	var rf loadRunFlags
	var probe, listScenarios bool
	var listFormat string
	cmd := &cobra.Command{
		Use:   "load",
		Short: "Load-test the hot paths (" + strings.Join(loadtest.ScenarioNames(), ", ") + ") with vegeta: honest latency, thresholds, 429 analysis",
		Long: `load drives the Merchant Payments API v1 with vegeta's attacker and our own
pacers, against the embedded sandbox unless --base-url (or ` + config.EnvBaseURL + `) names a
target. Latency is measured from each request's intended send time (open model)
into HDR histograms; send lag is reported separately. Raw results (vegeta's gob
encoding, scrubbed, readable by 'vegeta report') and summary.json, summary.md
and report.html go to --out.

Every answer's status and Content-Type are checked, and the JSON schema of
1 in 100 answers and of every non-2xx: invalid answers are not successes.
Unless a --threshold bounds success, all:success>=99% applies; a run at 0%
success never passes. Writes (the secure scenario's setup issues and funds
cards) need --allow-live when the token states LIVE; the token and list
scenarios and secure with --card-ids only read.
A threshold on an endpoint the scenario never sends to is refused at start.
--junit-report writes one JUnit test case per threshold; --markdown-report a
copy of summary.md (e.g. to $GITHUB_STEP_SUMMARY). A refused LIVE write is a
usage error (exit 2). --list-scenarios lists the scenarios. See docs/load.md.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if listScenarios {
				return printScenarios(cmd.OutOrStdout(), listFormat)
			}
			if probe {
				return runProbeCmd(cmd, &tf, &rf, probeFlags{})
			}
			return runLoad(cmd, &tf, &rf)
		},
	}
	tf.bind(cmd.Flags())
	rf.bind(cmd.Flags(), true)
	cmd.Flags().BoolVar(&listScenarios, "list-scenarios", false, "list the scenarios (name, endpoints, summary) and exit")
	cmd.Flags().StringVar(&listFormat, "format", "text", "format of --list-scenarios: text, or markdown (the README's scenario list)")
	cmd.Flags().BoolVar(&probe, "probe-rate-limit", false, "characterise the rate limit of the scenario's endpoint instead of a timed run (see 'mph load probe-rate-limit')")
	rootCmd.AddCommand(cmd)
	loadCmd = cmd
}

var loadCmd *cobra.Command
