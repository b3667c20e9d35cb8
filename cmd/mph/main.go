// Command mph is the merchant-harness CLI: a reference sandbox, conformance
// suites, a self-test and a load driver for the Merchant Payments API v1.
//
// Each subcommand lives in its own file and registers itself on rootCmd from
// an init function, so the subcommands can grow independently.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/merchant-harness/mph/exitcode"
)

// exitError carries an exit code out of a subcommand. Commands return
// usageErr(...) for configuration mistakes, failuresErr(...) when the run
// completed but found failures, harnessErr(...) when only harness errors
// occurred and interruptedErr(...) after a signal.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

func usageErr(format string, a ...any) error {
	return &exitError{code: exitcode.Usage, err: fmt.Errorf(format, a...)}
}

func failuresErr(format string, a ...any) error {
	return &exitError{code: exitcode.Failed, err: fmt.Errorf(format, a...)}
}

func harnessErr(format string, a ...any) error {
	return &exitError{code: exitcode.Harness, err: fmt.Errorf(format, a...)}
}

func interruptedErr(format string, a ...any) error {
	return &exitError{code: exitcode.Interrupted, err: fmt.Errorf(format, a...)}
}

// started is set once a command's RunE begins: an error without an exit code
// before that is cobra's (unknown command, bad arguments: usage), after it
// the harness's own (exit 3).
var started bool

var rootCmd = &cobra.Command{
	Use:   "mph",
	Short: "Conformance and load-testing harness for the Merchant Payments API v1",
	Long: `mph is the conformance and load-testing harness for the Merchant Payments API v1.

` + exitcode.Help,
	SilenceUsage:     true,
	SilenceErrors:    true,
	PersistentPreRun: func(*cobra.Command, []string) { started = true },
}

func main() {
	rootCmd.CompletionOptions.DisableDefaultCmd = true
	installSafeOutput()
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	rootCmd.SetArgs(args)
	// Flag parsing errors are usage errors.
	rootCmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error {
		return &exitError{code: exitcode.Usage, err: err}
	})
	addExitCodesToHelp(rootCmd)
	err := rootCmd.Execute()
	if err == nil {
		return exitcode.OK
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err != nil && ee.err.Error() != "" {
			fmt.Fprintln(rootCmd.ErrOrStderr(), "mph:", ee.err)
		}
		return ee.code
	}
	fmt.Fprintln(rootCmd.ErrOrStderr(), "mph:", err)
	if errors.Is(err, context.Canceled) {
		return exitcode.Interrupted
	}
	if started {
		return exitcode.Harness
	}
	// Unknown subcommands and argument errors from cobra are usage errors.
	return exitcode.Usage
}

// addExitCodesToHelp appends the exit-code contract to the long help of every
// command that does not state it yet.
func addExitCodesToHelp(c *cobra.Command) {
	if c != rootCmd && !strings.Contains(c.Long, "Exit codes (every command)") {
		long := c.Long
		if long == "" {
			long = c.Short
		}
		c.Long = long + "\n\n" + exitcode.Help
	}
	for _, sub := range c.Commands() {
		addExitCodesToHelp(sub)
	}
}
