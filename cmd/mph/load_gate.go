package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/pflag"

	"github.com/merchant-harness/mph/loadtest"
	"github.com/merchant-harness/mph/loadtest/summary"
	"github.com/merchant-harness/mph/loadtest/threshold"
	"github.com/merchant-harness/mph/report/loadreport"
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
		md, err := loadreport.Markdown(rep).Bytes()
		if err == nil {
			err = writeFile(g.markdown, md)
		}
		if err != nil {
			return fmt.Errorf("--markdown-report: %w", err)
		}
	}
	if g.junit != "" {
		out, err := loadreport.JUnit(rep, versionString()).Bytes()
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

// checkThresholdEndpoints refuses a threshold on an endpoint the scenario
// never hits: it could never be measured, and would pass or fail vacuously.
func checkThresholdEndpoints(ths []threshold.Threshold, so loadtest.ScenarioOptions) error {
	def, err := lookupScenario(so.Name)
	if err != nil {
		return err
	}
	eps := def.EndpointNames(so.Mix)
	for _, t := range ths {
		if t.Endpoint == "" || t.Endpoint == "all" {
			continue
		}
		hit := false
		for _, ep := range eps {
			hit = hit || ep == t.Endpoint
		}
		if !hit {
			return usageErr("--threshold %q: scenario %s never sends %s requests (it sends %s)", t.Raw, so.Name, t.Endpoint, strings.Join(eps, ", "))
		}
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
