package selftest

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/merchant-harness/mph/target"
)

// ExecRunner runs `<exe> conform` as a child process configured only through
// the environment, exactly as a user would point it at any server.
func ExecRunner(exe string) Runner {
	return func(ctx context.Context, j Job) (Outcome, error) {
		cmd := exec.CommandContext(ctx, exe, conformArgs(j)...)
		// The self-test needs a verdict, not a minimal failing case: cap the
		// model spec's shrinking (a user's own RAPID_SHRINKTIME still wins,
		// as later entries of the environment override earlier ones).
		env := append([]string{"RAPID_SHRINKTIME=" + modelShrinkTime}, inherited()...)
		cmd.Env = append(env, Environ(j.Config)...)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		o := Outcome{Output: out.Bytes()}
		if cmd.ProcessState != nil {
			o.CPU = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
		}
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			o.ExitCode = ee.ExitCode()
			return o, nil
		}
		if err != nil {
			o.ExitCode = -1
			return o, err
		}
		return o, nil
	}
}

// inherited is this process's environment without its MPH_* variables: a
// child is configured by its Job alone, so a user's own settings (a
// provider's MPH_PROFILE, MPH_TIMEOUT, LIVE keys) never change the verdict.
func inherited() []string {
	var out []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, target.EnvPrefix) {
			out = append(out, kv)
		}
	}
	return out
}

// modelShrinkTime bounds the model spec's shrinking in a child run. Each
// shrink step replays a sequence of requests, and rapid checks its deadline
// only between steps (one step may try dozens of values), so a budget of one
// second ran to several seconds per fault the model catches; 100 ms still
// shortens the case the report (kept with --out) prints.
const modelShrinkTime = "100ms"

// conformArgs are the arguments of a child run. The self-test reads only the
// JSON report, so the child writes no other report. Each run's sandbox is
// discarded afterwards: sweeping its cards back to the vault (the teardown)
// would only cost time.
func conformArgs(j Job) []string {
	// Every child writes its reports into a directory of its own.
	dir := strings.TrimSuffix(j.ReportPath, filepath.Ext(j.ReportPath)) + "-reports"
	args := []string{"conform", "--no-color", "--no-teardown", "--no-html", "--no-junit", "--no-markdown",
		"--json-report", j.ReportPath, "--out", dir}
	if j.LabelFilter != "" {
		// An empty selection is a verdict (nothing cites the fault's
		// requirements: it survives), not a usage error.
		args = append(args, "--label-filter", j.LabelFilter, "--allow-empty")
	}
	return args
}

// Environ renders a Config as the MPH_* environment of a child run.
func Environ(cfg *target.Config) []string { return target.Environ(cfg) }
