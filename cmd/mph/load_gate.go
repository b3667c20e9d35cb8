package main

import (
	"context"
	"errors"

	"github.com/spf13/pflag"

	"github.com/merchant-harness/mph/cli/loadfiles"
	"github.com/merchant-harness/mph/loadtest"
	"github.com/merchant-harness/mph/loadtest/gate"
	"github.com/merchant-harness/mph/loadtest/summary"
	"github.com/merchant-harness/mph/loadtest/threshold"
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
	return loadfiles.Extra{Markdown: g.markdown, JUnit: g.junit}.Write(rep, versionString())
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
