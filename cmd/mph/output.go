package main

import (
	"log"
	"os"

	"github.com/merchant-harness/mph/redact"
)

// installSafeOutput routes every subcommand's console output through the
// redacting writer: registered secrets, tokens, URL passwords and card data
// are masked, and control characters that are not the harness's own
// (target bytes) are escaped. `mph sandbox` is the exception: its banner
// prints the sandbox's own well-known demo credentials on purpose.
//
// The standard logger (and slog's default, which writes through it) goes
// through the redacting writer too: a library's line (an HTTP server's
// "http: ..." error quoting a request) never reaches stderr unredacted.
func installSafeOutput() {
	rootCmd.SetOut(redact.NewWriter(os.Stdout))
	rootCmd.SetErr(redact.NewWriter(os.Stderr))
	log.SetOutput(redact.NewWriter(os.Stderr))
	for _, c := range rootCmd.Commands() {
		if c.Name() == "sandbox" {
			c.SetOut(os.Stdout)
			c.SetErr(os.Stderr)
		}
	}
}
