package main

import (
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/merchant-harness/mph/exitcode"
	"github.com/merchant-harness/mph/selftest"
)

type selftestFlags struct {
	parallel int
	jsonPath string
	outDir   string
	only     []string
	vonly    []string
	seeds    int
	seed     []uint
	full     bool
	bound    time.Duration
}

func init() {
	var f selftestFlags
	cmd := &cobra.Command{
		Use:   "selftest",
		Short: "Prove the suites: pass the clean sandbox, every allowed setting and seeds of them, fail every catalogued fault",
		Long: `selftest runs the conformance suites against the clean reference sandbox,
which must pass (no false positives) under the default profile and under
the sandbox's own profile (sandbox/profile.yaml, strict knobs included); then
once against the sandbox switched into each setting of each dimension alone
(a behaviour the document allows; see 'mph sandbox --list-variants') with
the profile overlay it needs, and once per seed against the sandbox with one
setting of every dimension drawn from the seed: each must pass; then once
against the sandbox with each fault of the catalogue injected (see 'mph
sandbox --list-faults'), under the default profile and the overlay of the
strict knob a fault needs, each of which must fail (the fault is killed): a
fault's run selects the specs citing the requirements the fault breaks
(--full: every spec). It prints the kill matrix, the specificity matrix
(each setting and seed and the specs, if any, that failed it, with the
command reproducing a failure), then where the time went.

Without --fault and --variant it runs every fault, every setting and
--seeds seeds (1 to N); naming faults or settings runs those and no seed
unless --seeds or --seed asks.

Exit 0 when the clean runs, every setting and every seed pass and every
fault is killed; 1 when a clean run fails, a fault survives, a setting or a
seed fails; 3 when only some runs broke (no verdict).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runSelftest(cmd, f) },
	}
	cmd.Flags().IntVar(&f.parallel, "parallel", 0, "suite runs at a time (default: two per CPU)")
	cmd.Flags().BoolVar(&f.full, "full", false, "run every spec against every fault (default: the specs citing the fault's requirements)")
	cmd.Flags().StringVar(&f.jsonPath, "json", "", "write the kill matrix as JSON to this file")
	cmd.Flags().StringVar(&f.outDir, "out", "", "keep every run's Ginkgo JSON report in this directory (default: a temp dir, removed)")
	cmd.Flags().StringSliceVar(&f.only, "fault", nil, "run only these faults (repeatable; \"none\" for none)")
	cmd.Flags().StringSliceVar(&f.vonly, "variant", nil, "run only these settings, or every setting of a named dimension (repeatable; \"none\" for none)")
	cmd.Flags().IntVar(&f.seeds, "seeds", -1, "run seeds 1 to N of combined settings (default: 20 when neither --fault nor --variant is given, else 0)")
	cmd.Flags().UintSliceVar(&f.seed, "seed", nil, "run these seeds of combined settings (repeatable)")
	cmd.Flags().DurationVar(&f.bound, "run-timeout", selftest.DefaultRunBound, "how long one suite run may take: its conform --deadline; a run still going 20s later is interrupted and reported broken, with the specs it was running")
	rootCmd.AddCommand(cmd)
}

func runSelftest(cmd *cobra.Command, f selftestFlags) error {
	faults, err := selftest.ChooseFaults(f.only)
	if err != nil {
		return usageErr("%v", err)
	}
	variants, err := selftest.ChooseVariants(f.vonly)
	if err != nil {
		return usageErr("%v", err)
	}
	seeds, err := selftest.ChooseSeeds(f.seed, f.seeds, len(f.only) > 0 || len(f.vonly) > 0)
	if err != nil {
		return usageErr("%v", err)
	}
	// SIGTERM (CI cancelling the job) is handled like Ctrl-C: the
	// children are killed and the temporary directory removed.
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	out := cmd.OutOrStdout()
	parallel := f.parallel
	if parallel < 1 {
		parallel = selftest.DefaultParallel()
	}
	fmt.Fprintf(out, "self-test: the clean sandbox (default and own profile), %d faults, %d settings and %d seeds, %d runs at a time\n", len(faults), len(variants), len(seeds), parallel)
	m, err := selftest.Execute(ctx, selftest.Options{
		Faults:   faults,
		Variants: variants,
		Seeds:    seeds,
		Full:     f.full,
		Parallel: parallel,
		Bound:    f.bound,
		WorkDir:  f.outDir,
		Version:  versionString(),
		Progress: selftest.Progress(out, len(faults)+len(variants)+len(seeds)+2),
	})
	if err != nil && m == nil {
		return harnessErr("self-test: %v", err)
	}
	fmt.Fprintln(out)
	m.WriteText(out)
	var werr error
	if f.jsonPath != "" {
		if werr = m.SaveJSON(f.jsonPath); werr != nil {
			werr = fmt.Errorf("self-test: %w", werr)
		} else {
			fmt.Fprintf(out, "kill matrix JSON: %s\n", f.jsonPath)
		}
	}
	return keepVerdict(cmd.ErrOrStderr(), selftestVerdict(m), werr)
}

// selftestVerdict is the matrix's verdict (selftest.Matrix.Verdict) as the
// command's exit.
func selftestVerdict(m *selftest.Matrix) error {
	code, why := m.Verdict()
	if code == exitcode.OK {
		return nil
	}
	return &exitError{code: code, err: errors.New(why)}
}
