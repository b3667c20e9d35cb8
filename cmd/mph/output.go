package main

import (
	"os"

	"github.com/merchant-harness/mph/redact"
)

// installSafeOutput routes every subcommand's console output through the
// redacting writer: registered secrets, tokens, URL passwords and card data
// are masked, and control characters that are not the harness's own
// (target bytes) are escaped. `mph sandbox` is the exception: its banner
// prints the sandbox's own well-known demo credentials on purpose.
func installSafeOutput() {
	rootCmd.SetOut(redact.NewWriter(os.Stdout))
	rootCmd.SetErr(redact.NewWriter(os.Stderr))
	for _, c := range rootCmd.Commands() {
		if c.Name() == "sandbox" {
			c.SetOut(os.Stdout)
			c.SetErr(os.Stderr)
		}
	}
}
