package selftest

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/merchant-harness/mph/config"
)

// ExecRunner runs `<exe> conform` as a child process configured only through
// the environment, exactly as a user would point it at any server. A child
// with a Bound gets it as its --deadline (no spec starts after it) and is
// interrupted (SIGINT: it stops its running spec and writes its report) when
// it still runs stopGrace later, killed when it ignores that; the Outcome
// then says it ran out of time.
func ExecRunner(exe string) Runner {
	return func(ctx context.Context, j Job) (Outcome, error) {
		cmd := exec.Command(exe, conformArgs(j)...)
		// The self-test needs a verdict, not a minimal failing case: cap the
		// model spec's shrinking (a user's own RAPID_SHRINKTIME still wins,
		// as later entries of the environment override earlier ones).
		env := append([]string{"RAPID_SHRINKTIME=" + modelShrinkTime}, inherited()...)
		cmd.Env = append(env, Environ(j.Config)...)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			return Outcome{ExitCode: -1}, err
		}
		timedOut, err := waitBounded(ctx, cmd, j.Bound)
		o := Outcome{Output: out.Bytes(), TimedOut: timedOut}
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

// Grace periods of a bounded child: after its bound it may finish its
// running spec (its --deadline stops it starting others) for stopGrace;
// after the interrupt, it may write its reports for killGrace.
var (
	stopGrace = 20 * time.Second
	killGrace = 10 * time.Second
)

// waitBounded waits for cmd: when ctx ends, or bound (0: none) and
// stopGrace pass, it interrupts cmd, and kills it killGrace later. It
// reports whether the bound stopped it.
func waitBounded(ctx context.Context, cmd *exec.Cmd, bound time.Duration) (timedOut bool, err error) {
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var expire <-chan time.Time
	if bound > 0 {
		t := time.NewTimer(bound + stopGrace)
		defer t.Stop()
		expire = t.C
	}
	select {
	case err = <-done:
		return false, err
	case <-ctx.Done():
	case <-expire:
		timedOut = true
	}
	_ = cmd.Process.Signal(os.Interrupt)
	select {
	case err = <-done:
	case <-time.After(killGrace):
		_ = cmd.Process.Kill()
		err = <-done
	}
	return timedOut, err
}

// inherited is this process's environment without its MPH_* variables: a
// child is configured by its Job alone, so a user's own settings (a
// provider's MPH_PROFILE, MPH_TIMEOUT, LIVE keys) never change the verdict.
func inherited() []string {
	var out []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, config.EnvPrefix) {
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
	if j.Bound > 0 {
		args = append(args, "--deadline", j.Bound.String())
	}
	if j.LabelFilter != "" {
		// An empty selection is a verdict (nothing cites the fault's
		// requirements: it survives), not a usage error.
		args = append(args, "--label-filter", j.LabelFilter, "--allow-empty")
	}
	return args
}

// Environ renders a Config as the MPH_* environment of a child run.
func Environ(cfg *config.Config) []string { return config.Environ(cfg) }
