package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/pflag"

	"github.com/merchant-harness/mph/loadtest"
	"github.com/merchant-harness/mph/loadtest/gate"
	"github.com/merchant-harness/mph/loadtest/summary"
	"github.com/merchant-harness/mph/loadtest/threshold"
	"github.com/merchant-harness/mph/report"
)

// loadGateFlags are the CI outputs of the load commands: a Markdown summary
// at a path of its own (e.g. $GITHUB_STEP_SUMMARY) and a JUnit report with
// one test case per threshold.
type loadGateFlags struct {
	markdown, junit string
}

func (g *loadGateFlags) bind(fs *pflag.FlagSet) {
	fs.StringVar(&g.markdown, "markdown-report", "", "also write the Markdown summary here, e.g. $GITHUB_STEP_SUMMARY (summary.md is always in --out)")
	fs.StringVar(&g.junit, "junit-report", "", "write a JUnit report here: one test case per --threshold, passed or failed with the observed value")
}

// write writes the extra reports of a finished (or interrupted) run.
func (g *loadGateFlags) write(rep *summary.Report) error {
	if g.markdown != "" {
		md, err := report.LoadMarkdown(rep).Bytes()
		if err == nil {
			err = writeFile(g.markdown, md)
		}
		if err != nil {
			return fmt.Errorf("--markdown-report: %w", err)
		}
	}
	if g.junit != "" {
		out, err := report.LoadJUnit(rep, versionString()).Bytes()
		if err != nil {
			return err
		}
		if err := writeFile(g.junit, out); err != nil {
			return fmt.Errorf("--junit-report: %w", err)
		}
	}
	return nil
}

func writeFile(path string, b []byte) error {
	if d := filepath.Dir(path); d != "" {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	return os.WriteFile(path, b, 0o644)
}

// checkThresholdEndpoints refuses a threshold the scenario can never
// measure (gate.Unmeasurable).
func checkThresholdEndpoints(ths []threshold.Threshold, so loadtest.ScenarioOptions) error {
	def, err := lookupScenario(so.Name)
	if err != nil {
		return err
	}
	if err := gate.Unmeasurable(ths, so.Name, def.EndpointNames(so.Mix)); err != nil {
		return usageErr("%v", err)
	}
	return nil
}

// setupErr classifies an error of target resolution or scenario set-up:
// interrupted (130), a usage error as it is, else a pre-flight refusal (2).
func setupErr(ctx context.Context, err error) error {
	var ee *exitError
	switch {
	case ctx != nil && ctx.Err() != nil:
		return interruptedErr("%v", err)
	case errors.As(err, &ee):
		return err
	}
	return usageErr("%v", err)
}

// loadVerdict maps a finished run to the exit-code contract: interrupted
// (130), a breached gate (1, saying why), else 0.
func loadVerdict(interrupted, breached bool, what, why string) error {
	switch {
	case interrupted:
		return interruptedErr("%s: interrupted; the reports (marked interrupted) cover what was collected", what)
	case breached:
		return failuresErr("%s: %s", what, why)
	}
	return nil
}
