// Command mph is the merchant-harness CLI: a reference sandbox, conformance
// suites, a self-test and a load driver for the Merchant Payments API v1.
//
// Each subcommand lives in its own file and registers itself on rootCmd from
// an init function, so the subcommands can grow independently.
package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"
)

// Exit codes shared by every subcommand.
const (
	exitOK       = 0 // everything passed
	exitFailures = 1 // the target broke a rule, a threshold was breached, a fault survived
	exitUsage    = 2 // usage or configuration error
)

// exitError carries an exit code out of a subcommand. Commands return
// usageErr(...) for configuration mistakes and failuresErr(...) when the run
// itself completed but found failures.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

func usageErr(format string, a ...any) error {
	return &exitError{code: exitUsage, err: fmt.Errorf(format, a...)}
}

func failuresErr(format string, a ...any) error {
	return &exitError{code: exitFailures, err: fmt.Errorf(format, a...)}
}

var rootCmd = &cobra.Command{
	Use:           "mph",
	Short:         "Conformance and load-testing harness for the Merchant Payments API v1",
	SilenceUsage:  true,
	SilenceErrors: true,
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
		return &exitError{code: exitUsage, err: err}
	})
	err := rootCmd.Execute()
	if err == nil {
		return exitOK
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err != nil && ee.err.Error() != "" {
			fmt.Fprintln(rootCmd.ErrOrStderr(), "mph:", ee.err)
		}
		return ee.code
	}
	// Unknown subcommands and argument errors from cobra are usage errors.
	fmt.Fprintln(rootCmd.ErrOrStderr(), "mph:", err)
	return exitUsage
}
