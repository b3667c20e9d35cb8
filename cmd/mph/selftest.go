package main

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/merchant-harness/mph/redact"
	"github.com/merchant-harness/mph/sandbox"
	"github.com/merchant-harness/mph/selftest"
)

type selftestFlags struct {
	parallel int
	jsonPath string
	outDir   string
	only     []string
	vonly    []string
}

func init() {
	var f selftestFlags
	cmd := &cobra.Command{
		Use:   "selftest",
		Short: "Prove the suites: pass the clean sandbox and every document-allowed variant, fail every catalogued fault",
		Long: `selftest runs the conformance suites against the clean reference sandbox,
which must pass (no false positives), then once against the sandbox with each
fault of the catalogue injected (see 'mph sandbox --list-faults'), each of
which must fail (the fault is killed), and once against the sandbox switched
into each document-allowed variant with the profile it needs (see 'mph
sandbox --list-variants'), each of which must pass. It prints the kill matrix
(each fault, the requirement it breaks and the specs that caught it) and the
specificity matrix (each variant and the specs, if any, that failed it).

Exit 0 when the clean run and every variant pass and every fault is
killed; 1 when the clean run fails, a fault survives or a variant fails;
3 when only some runs broke (no verdict).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runSelftest(cmd, f) },
	}
	cmd.Flags().IntVar(&f.parallel, "parallel", max(2, runtime.NumCPU()), "suite runs at a time")
	cmd.Flags().StringVar(&f.jsonPath, "json", "", "write the kill matrix as JSON to this file")
	cmd.Flags().StringVar(&f.outDir, "out", "", "keep every run's Ginkgo JSON report in this directory (default: a temp dir, removed)")
	cmd.Flags().StringSliceVar(&f.only, "fault", nil, "run only these faults (repeatable; \"none\" for none)")
	cmd.Flags().StringSliceVar(&f.vonly, "variant", nil, "run only these document-allowed variants (repeatable; \"none\" for none)")
	rootCmd.AddCommand(cmd)
}

func runSelftest(cmd *cobra.Command, f selftestFlags) error {
	faults, err := selectFaults(f.only)
	if err != nil {
		return err
	}
	variants, err := selectVariants(f.vonly)
	if err != nil {
		return err
	}
	// SIGTERM (CI cancelling the job) is handled like Ctrl-C: the
	// children are killed and the temporary directory removed.
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	out := cmd.OutOrStdout()
	fmt.Fprintf(out, "self-test: the clean sandbox, %d faults and %d variants, %d runs at a time\n", len(faults), len(variants), f.parallel)
	m, err := selftest.Execute(ctx, selftest.Options{
		Faults:   faults,
		Variants: variants,
		Parallel: f.parallel,
		WorkDir:  f.outDir,
		Version:  versionString(),
		Progress: progressPrinter(out, len(faults)+len(variants)+1),
	})
	if err != nil && m == nil {
		return harnessErr("self-test: %v", err)
	}
	fmt.Fprintln(out)
	m.WriteText(out)
	var werr error
	if f.jsonPath != "" {
		if werr = writeMatrix(m, f.jsonPath); werr != nil {
			werr = fmt.Errorf("self-test: %w", werr)
		} else {
			fmt.Fprintf(out, "kill matrix JSON: %s\n", f.jsonPath)
		}
	}
	return keepVerdict(cmd.ErrOrStderr(), selftestVerdict(m), werr)
}

// selectFaults is the catalogue, or only the named faults ("none": none).
func selectFaults(only []string) ([]sandbox.Fault, error) {
	faults := sandbox.Faults()
	if len(only) == 1 && only[0] == "none" {
		return []sandbox.Fault{}, nil
	}
	if len(only) == 0 {
		return faults, nil
	}
	byName := map[string]sandbox.Fault{}
	for _, f := range faults {
		byName[f.Name] = f
	}
	var out []sandbox.Fault
	for _, n := range only {
		f, ok := byName[n]
		if !ok {
			return nil, usageErr("unknown fault %q (see mph sandbox --list-faults)", n)
		}
		out = append(out, f)
	}
	return out, nil
}

// progressPrinter prints one line per finished run.
func progressPrinter(out io.Writer, total int) func(selftest.Run) {
	done := 0
	return func(r selftest.Run) {
		done++
		name, verdict := r.Fault, "killed"
		switch {
		case r.Variant != "":
			name, verdict = "variant "+r.Variant, variantVerdict(r)
		case name == "":
			name, verdict = "(clean)", "passed"
			if len(r.Failed) > 0 || r.Error != "" || r.ExitCode != 0 {
				verdict = "FAILED"
			}
		case r.Error != "":
			verdict = "ERROR"
		case !r.Killed():
			verdict = "SURVIVED"
		}
		fmt.Fprintf(out, "  [%d/%d] %-40s %s (%s)\n", done, total, name, verdict, r.Duration.Round(1e8))
	}
}

// selftestVerdict maps the matrix to the exit-code contract: 1 when the
// suites are wrong (a spec failed the clean sandbox, a fault survived, a
// variant failed), 3 when only runs broke (no verdict: the clean run among
// them when it broke or had harness errors only), 130 when interrupted.
func selftestVerdict(m *selftest.Matrix) error {
	if m.Interrupted {
		return interruptedErr("self-test: interrupted; child runs stopped, the matrix covers the %d runs that finished", m.Total)
	}
	if m.OK() {
		return nil
	}
	cleanFailed := len(m.Clean.Failed) > 0
	code := failuresErr
	if !cleanFailed && len(m.Survivors) == 0 && len(m.FalsePositives) == 0 {
		code = harnessErr // only runs that broke: no verdict on the suites
	}
	var why []string
	switch {
	case cleanFailed:
		why = append(why, "the clean sandbox did not pass")
	case !m.CleanOK:
		why = append(why, "the clean run broke")
	}
	for _, c := range []struct {
		n    int
		what string
	}{
		{len(m.Survivors), "fault(s) survived"},
		{len(m.FalsePositives), "variant(s) failed (false positives)"},
		{len(m.VariantErrors), "variant run(s) broke"},
		{len(m.Errors), "run(s) broke"},
	} {
		if c.n > 0 {
			why = append(why, fmt.Sprintf("%d %s", c.n, c.what))
		}
	}
	return code("self-test failed: %s", strings.Join(why, ", "))
}

func writeMatrix(m *selftest.Matrix, path string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := m.WriteJSON(redact.NewWriter(f)); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
