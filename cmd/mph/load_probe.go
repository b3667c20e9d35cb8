package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/merchant-harness/mph/loadtest"
	"github.com/merchant-harness/mph/report"
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
		Long: `probe-rate-limit steps the rate up on each path of --scenario (token, list,
secure; mixed probes all three in turn) until 429s appear, then measures the
burst allowance and the accepted ceiling under a saturating blast, samples and
schema-validates 429 bodies (error envelope), records Retry-After / RateLimit* /
X-RateLimit-* headers, checks that waiting out Retry-After is honoured and how
fast the path recovers, and finds the onset precisely with a fine ladder whose
steps each start from a drained limiter. The measuring generator never retries;
a separate polite client (exponential backoff with full jitter, honouring
Retry-After) shows a well-behaved client completes its work.

Then (--topology) it lays out the limiters: which paths share one (saturate
one path, watch another), what a limiter is keyed by (a second token of the
same merchant and, with MPH_MERCHANT2_ID/MPH_SECRET_KEY2, a second merchant
call the saturated path), and each limiter's burst and refill rate, with the
Retry-After, RateLimit, RateLimit-Policy and X-RateLimit-* headers seen. The
limiter groups go to the report and summary.json (probe.topology).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runProbeCmd(cmd, &tf, &rf, pf) },
	}
	tf.bind(cmd.Flags())
	rf.bind(cmd.Flags(), false)
	pf.bind(cmd)
	loadCmd.AddCommand(cmd)
}

func runProbeCmd(cmd *cobra.Command, tf *loadTargetFlags, rf *loadRunFlags, pf probeFlags) error {
	errw := cmd.ErrOrStderr()
	if pf == (probeFlags{}) { // via `mph load --probe-rate-limit`: defaults
		pf = probeFlags{startRate: 10, factor: 1.5, maxRate: 5000, stepDur: 2 * time.Second, quiet: 3 * time.Second, onset: 0.02, polite: 200, politeConc: 16, topology: true}
	}
	if pf.startRate <= 0 || pf.factor <= 1 || pf.maxRate < pf.startRate || pf.stepDur <= 0 || pf.onset <= 0 || pf.onset >= 1 {
		return usageErr("probe: need --start-rate > 0, --factor > 1, --max-rate >= --start-rate, --step-duration > 0, 0 < --onset-share < 1")
	}
	paths := []string{rf.scenario}
	if rf.scenario == "mixed" {
		paths = []string{loadtest.EPToken, loadtest.EPList, loadtest.EPSecure}
	}
	for _, p := range paths {
		if p != loadtest.EPToken && p != loadtest.EPList && p != loadtest.EPSecure {
			return usageErr("unknown --scenario %q (want token, list, secure or mixed)", p)
		}
	}
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	t, cleanup, err := tf.resolve(context.Background(), cmd)
	if err != nil {
		return setupErr(ctx, err)
	}
	defer cleanup()
	logf := logfTo(errw, rf.quiet)
	rep := &loadtest.Report{Tool: "mph load " + versionString(), Kind: "probe", Scenario: rf.scenario, Target: t.BaseURL, Embedded: t.Embedded,
		Start: time.Now(), Probe: &loadtest.ProbeReport{}}
	var runErr error
	for i, p := range paths {
		// Paths may share a limiter: let it refill before the next ladder.
		if i > 0 && sleepCtxCmd(ctx, pf.quiet) != nil {
			break
		}
		so, _ := (&loadRunFlags{scenario: p, poolSize: rf.poolSize, cardIDs: rf.cardIDs, listQuery: rf.listQuery, teardown: rf.teardown}).scenarioOptions(logf)
		scn, err := loadtest.Prepare(ctx, t, so)
		if errors.Is(err, loadtest.ErrLiveRefused) {
			return usageErr("probe %s: %v", p, err)
		}
		var se *loadtest.SetupError
		if errors.As(err, &se) {
			rep.Notes = append(rep.Notes, se.Notes...)
			rep.Interrupted = se.Interrupted
		}
		if err != nil {
			runErr = fmt.Errorf("probe %s: %w", p, err)
			break
		}
		pp, err := loadtest.Probe(ctx, scn, loadtest.ProbeOptions{
			StartRate: pf.startRate, Factor: pf.factor, MaxRate: pf.maxRate, StepDur: pf.stepDur, Quiet: pf.quiet,
			Onset429: pf.onset, Polite: pf.polite, PoliteConc: pf.politeConc, Attack: rf.attack(t.Timeout, t.InsecureTLS), Logf: logf,
		})
		scn.Close(context.Background())
		if pp != nil {
			rep.Probe.Paths = append(rep.Probe.Paths, *pp)
		}
		if err != nil {
			runErr = err
			rep.Interrupted = ctx.Err() != nil
			break
		}
	}
	if runErr == nil && pf.topology {
		topo, err := loadtest.ProbeTopology(ctx, t, rep.Probe.Paths, loadtest.TopologyOptions{
			Attack: rf.attack(t.Timeout, t.InsecureTLS), PoolSize: 2, Logf: logf,
		})
		rep.Probe.Topology = topo
		if err != nil {
			runErr = fmt.Errorf("topology: %w", err)
			rep.Interrupted = ctx.Err() != nil
		}
	}
	rep.End = time.Now()
	rep.WindowSeconds = rep.Probe.MeasuredSeconds()
	rep.Notes = append(rep.Notes, fmt.Sprintf("measured window: the sum of the probe's attack windows (ladder steps and blasts); the probe took %.1fs in all, quiet periods and recovery waits included",
		rep.End.Sub(rep.Start).Seconds()))
	out := rf.outDir
	if out == "" {
		out = defaultOutDir("probe-" + rf.scenario)
	}
	rep.Interrupted = rep.Interrupted || ctx.Err() != nil
	if err := report.WriteLoad(out, rep); err != nil {
		return fmt.Errorf("probe: writing reports: %w", err)
	}
	if err := rf.gate.write(rep); err != nil {
		return fmt.Errorf("probe: %w", err)
	}
	_ = report.ProbeMarkdown(rep.Probe)(cmd.OutOrStdout())
	fmt.Fprintf(cmd.OutOrStdout(), "\nreports: %s/{summary.json,summary.md,report.html}\n", out)
	if runErr != nil && !rep.Interrupted {
		return fmt.Errorf("probe: %w", runErr)
	}
	return loadVerdict(rep.Interrupted, false, "probe", "")
}

func sleepCtxCmd(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
