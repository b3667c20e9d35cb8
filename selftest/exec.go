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
	return func(ctx context.Context, _ string, cfg *target.Config, reportPath string) (int, []byte, error) {
		// Every child writes its reports into a directory of its own.
		dir := strings.TrimSuffix(reportPath, filepath.Ext(reportPath)) + "-reports"
		// Each run's sandbox is discarded afterwards: sweeping its cards back
		// to the vault (the teardown) would only cost time.
		cmd := exec.CommandContext(ctx, exe, "conform", "--no-color", "--no-teardown", "--json-report", reportPath, "--out", dir)
		// The self-test needs a verdict, not a minimal failing case: cap the
		// model spec's shrinking (a user's own RAPID_SHRINKTIME still wins,
		// as later entries of the environment override earlier ones).
		env := append([]string{"RAPID_SHRINKTIME=1s"}, os.Environ()...)
		cmd.Env = append(env, Environ(cfg)...)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode(), out.Bytes(), nil
		}
		if err != nil {
			return -1, out.Bytes(), err
		}
		return 0, out.Bytes(), nil
	}
}

// Environ renders a Config as the MPH_* environment of a child run.
func Environ(cfg *target.Config) []string { return target.Environ(cfg) }
