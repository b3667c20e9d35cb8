package main

import (
	"fmt"
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

func init() {
	var (
		parallel int
		jsonPath string
		outDir   string
		only     []string
		vonly    []string
	)
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
		RunE: func(cmd *cobra.Command, _ []string) error {
			faults := sandbox.Faults()
			if len(only) == 1 && only[0] == "none" {
				faults = []sandbox.Fault{}
			} else if len(only) > 0 {
				byName := map[string]sandbox.Fault{}
				for _, f := range faults {
					byName[f.Name] = f
				}
				faults = faults[:0:0]
				for _, n := range only {
					f, ok := byName[n]
					if !ok {
						return usageErr("unknown fault %q (see mph sandbox --list-faults)", n)
					}
					faults = append(faults, f)
				}
			}
			variants, err := selectVariants(vonly)
			if err != nil {
				return err
			}
			// SIGTERM (CI cancelling the job) is handled like Ctrl-C: the
			// children are killed and the temporary directory removed.
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			out := cmd.OutOrStdout()
			fmt.Fprintf(out, "self-test: the clean sandbox, %d faults and %d variants, %d runs at a time\n", len(faults), len(variants), parallel)
			done := 0
			m, err := selftest.Execute(ctx, selftest.Options{
				Faults:   faults,
				Variants: variants,
				Parallel: parallel,
				WorkDir:  outDir,
				Version:  versionString(),
				Progress: func(r selftest.Run) {
					done++
					name, verdict := r.Fault, "killed"
					if r.Variant != "" {
						name, verdict = "variant "+r.Variant, variantVerdict(r)
					} else if name == "" {
						name, verdict = "(clean)", "passed"
						if len(r.Failed) > 0 || r.Error != "" || r.ExitCode != 0 {
							verdict = "FAILED"
						}
					} else if r.Error != "" {
						verdict = "ERROR"
					} else if !r.Killed() {
						verdict = "SURVIVED"
					}
					fmt.Fprintf(out, "  [%d/%d] %-40s %s (%s)\n", done, len(faults)+len(variants)+1, name, verdict, r.Duration.Round(1e8))
				},
			})
			if err != nil && m == nil {
				return harnessErr("self-test: %v", err)
			}
			fmt.Fprintln(out)
			m.WriteText(out)
			if jsonPath != "" {
				if err := writeMatrix(m, jsonPath); err != nil {
					return harnessErr("self-test: %v", err)
				}
				fmt.Fprintf(out, "kill matrix JSON: %s\n", jsonPath)
			}
			if m.Interrupted {
				return interruptedErr("self-test: interrupted; child runs stopped, the matrix covers the %d runs that finished", m.Total)
			}
			if !m.OK() {
				code := failuresErr
				if m.CleanOK && len(m.Survivors) == 0 {
					code = harnessErr // only runs that broke: no verdict on the suites
				}
				var why []string
				if !m.CleanOK {
					why = append(why, "the clean sandbox did not pass")
				}
				if n := len(m.Survivors); n > 0 {
					why = append(why, fmt.Sprintf("%d fault(s) survived", n))
				}
				if n := len(m.FalsePositives); n > 0 {
					why = append(why, fmt.Sprintf("%d variant(s) failed (false positives)", n))
				}
				if n := len(m.VariantErrors); n > 0 {
					why = append(why, fmt.Sprintf("%d variant run(s) broke", n))
				}
				if n := len(m.Errors); n > 0 {
					why = append(why, fmt.Sprintf("%d run(s) broke", n))
				}
				return code("self-test failed: %s", strings.Join(why, ", "))
			}
			return nil
		},
	}
	cmd.Flags().IntVar(&parallel, "parallel", max(2, runtime.NumCPU()), "suite runs at a time")
	cmd.Flags().StringVar(&jsonPath, "json", "", "write the kill matrix as JSON to this file")
	cmd.Flags().StringVar(&outDir, "out", "", "keep every run's Ginkgo JSON report in this directory (default: a temp dir, removed)")
	cmd.Flags().StringSliceVar(&only, "fault", nil, "run only these faults (repeatable; \"none\" for none)")
	cmd.Flags().StringSliceVar(&vonly, "variant", nil, "run only these document-allowed variants (repeatable; \"none\" for none)")
	rootCmd.AddCommand(cmd)
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
