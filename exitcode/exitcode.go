// Package exitcode is the harness's exit-code contract, the same on every
// command: what a CI gate reads of a run.
package exitcode

// The exit codes.
const (
	OK          = 0   // everything passed
	Failed      = 1   // the target broke a rule, a threshold was breached, a fault survived
	Usage       = 2   // usage, configuration, pre-flight refusal, empty selection
	Harness     = 3   // nothing failed, but some checks could not run (harness errors) or reached no verdict
	Interrupted = 130 // SIGINT or SIGTERM; the reports written are complete and marked interrupted
)

// Help is the contract as every command's --help states it (the README
// repeats it).
const Help = `Exit codes (every command):
  0    all passed
  1    a rule failed, a threshold was breached or a fault survived
  2    usage, configuration or pre-flight refusal, or an empty selection
       (no spec selected; --allow-empty accepts it)
  3    nothing failed, but some checks could not run (harness errors) or
       reached no verdict (rate limited, a wait beyond its bound, another
       refusal first, an undetermined profile key; conform
       --accept-no-verdict accepts named ones)
  130  interrupted (SIGINT/SIGTERM); reports are written and marked interrupted`
