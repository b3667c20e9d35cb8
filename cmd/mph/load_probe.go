package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/merchant-harness/mph/cli/loadfiles"
	"github.com/merchant-harness/mph/config"
	"github.com/merchant-harness/mph/loadtest"
	"github.com/merchant-harness/mph/loadtest/gate"
	"github.com/merchant-harness/mph/loadtest/launch"
	"github.com/merchant-harness/mph/loadtest/probe"
	"github.com/merchant-harness/mph/report/loadreport"
)

type probeFlags struct {
	startRate, factor, maxRate float64
	stepDur, quiet             time.Duration
	polite, politeConc         int
	onset                      float64
	topology                   bool
}

func (p *probeFlags) bind(cmd *cobra.Command) {
	fs := cmd.Flags()
	fs.Float64Var(&p.startRate, "start-rate", 10, "first step of the coarse ladder (req/s)")
	fs.Float64Var(&p.factor, "factor", 1.5, "coarse ladder growth per step")
	fs.Float64Var(&p.maxRate, "max-rate", 5000, "give up above this rate (req/s)")
	fs.DurationVar(&p.stepDur, "step-duration", 2*time.Second, "duration of each ladder step")
	fs.DurationVar(&p.quiet, "quiet-period", 3*time.Second, "pause before the burst measurement so the limiter refills")
	fs.Float64Var(&p.onset, "onset-share", 0.02, "429 share that marks the onset")
	fs.IntVar(&p.polite, "polite", 200, "requests completed by the polite client (backoff + full jitter, honouring Retry-After); 0 skips it")
	fs.IntVar(&p.politeConc, "polite-concurrency", 16, "polite client concurrency")
	fs.BoolVar(&p.topology, "topology", true, "after the per-path probes, find which paths share a limiter, its key (merchant, token or client), burst and refill")
}

func init() {
	var tf loadTargetFlags
	var rf loadRunFlags
	var pf probeFlags
	cmd := &cobra.Command{
		Use:   "probe-rate-limit",
		Short: "Characterise 429 behaviour per path: onset rate, accepted ceiling, burst, envelope, headers, Retry-After, recovery",
		Long: `probe-rate-limit steps the rate up on the path of --scenario (a composite
such as mixed probes each of its parts in turn) until 429s appear, then
measures the burst allowance and the accepted ceiling under a saturating
blast, records Retry-After / RateLimit* / X-RateLimit-* headers, checks that waiting out
Retry-After is honoured and how fast the path recovers, and finds the onset
precisely with a fine ladder whose steps each start from a drained limiter. The measuring generator never retries;
a separate polite client (exponential backoff with full jitter, honouring
Retry-After) shows a well-behaved client completes its work.

Then (--topology) it lays out the limiters: which paths share one (saturate
one path, watch another), what a limiter is keyed by (a second token of the
same merchant and, with ` + config.EnvMerchant2ID + `/` + config.EnvSecretKey2 + `, a second merchant
call the saturated path), and each limiter's burst and refill rate, with the
Retry-After, RateLimit, RateLimit-Policy and X-RateLimit-* headers seen. The
limiter groups go to the report and summary.json (probe.topology).

Every 429 of every phase is judged by RATE-02 (the error envelope,
statusCode 429, the reason phrase Too Many Requests) as the profile's
rateLimits.envelope reads it: optional (default) takes a 429 that is not
JSON carrying statusCode as a gateway's, required wants the envelope on
every 429.
Exit 1 when one breaks it; the rest is measured and reported, not judged.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runProbeCmd(cmd, &tf, &rf, pf) },
	}
	tf.bind(cmd.Flags())
	rf.bind(cmd.Flags(), false)
	pf.bind(cmd)
	loadCmd.AddCommand(cmd)
}

func runProbeCmd(cmd *cobra.Command, tf *loadTargetFlags, rf *loadRunFlags, pf probeFlags) error {
	if pf == (probeFlags{}) { // via `mph load --probe-rate-limit`: defaults
		pf = probeFlags{startRate: 10, factor: 1.5, maxRate: 5000, stepDur: 2 * time.Second, quiet: 3 * time.Second, onset: 0.02, polite: 200, politeConc: 16, topology: true}
	}
	paths, err := pf.paths(rf.scenario)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	t, cleanup, err := tf.resolve(context.Background(), cmd)
	if err != nil {
		return setupErr(ctx, err)
	}
	defer cleanup()
	logf := logfTo(cmd.ErrOrStderr(), rf.quiet)
	rep, runErr, refused := launch.Probe(ctx, t, launch.ProbeAsk{Tool: "mph load " + versionString(), Scenario: rf.scenario, Paths: paths,
		Setup: loadtest.ScenarioOptions{PoolSize: rf.poolSize, CardIDs: rf.cardIDs, ListQuery: rf.listQuery, Teardown: rf.teardown, Logf: logf},
		Probe: probe.PathOptions{StartRate: pf.startRate, Factor: pf.factor, MaxRate: pf.maxRate, StepDur: pf.stepDur, Quiet: pf.quiet,
			Onset429: pf.onset, Polite: pf.polite, PoliteConc: pf.politeConc, Attack: rf.attack(t.Timeout, t.InsecureTLS), Logf: logf},
		Topology: pf.topology})
	if refused != nil {
		return usageErr("%v", refused)
	}
	out := rf.outDir
	if out == "" {
		out = launch.OutDir("probe-" + rf.scenario)
	}
	werr := loadreport.Write(out, rep)
	if werr == nil {
		werr = rf.gate.write(rep)
	}
	if werr != nil {
		werr = fmt.Errorf("probe: writing reports: %w", werr)
	}
	_ = loadreport.ProbeMarkdown(rep.Probe)(cmd.OutOrStdout())
	fmt.Fprintln(cmd.OutOrStdout())
	if werr == nil {
		loadfiles.Print(cmd.OutOrStdout(), loadfiles.Reports(out, rf.gate.markdown, rf.gate.junit))
	}
	if runErr != nil && !rep.Interrupted {
		runErr = fmt.Errorf("probe: %w", runErr)
	} else {
		runErr = nil
	}
	// A broken rule seen before the probe stopped stands (exit 1).
	why := gate.ProbeBreaches(rep.Probe)
	return keepVerdict(cmd.ErrOrStderr(), loadVerdict(rep.Interrupted, why != "", "probe", why), runErr, werr)
}

// paths checks the probe flags and names the scenarios to probe, one path
// each: a composite's parts, else the scenario itself.
func (pf probeFlags) paths(scenario string) ([]string, error) {
	if pf.startRate <= 0 || pf.factor <= 1 || pf.maxRate < pf.startRate || pf.stepDur <= 0 || pf.onset <= 0 || pf.onset >= 1 {
		return nil, usageErr("probe: need --start-rate > 0, --factor > 1, --max-rate >= --start-rate, --step-duration > 0, 0 < --onset-share < 1")
	}
	def, err := lookupScenario(scenario)
	if err != nil {
		return nil, err
	}
	return def.ProbeParts(), nil
}
