package main

import (
	"fmt"
	"io"
)

// keepVerdict is the exit of a command that reached verdict but also met
// harness errors (nil ones are ignored), such as reports it could not
// write: a failure (1) or an interrupt (130) stands, as exit 3 means that
// nothing failed; the harness errors are printed. With no verdict the first
// harness error is the exit (3).
func keepVerdict(stderr io.Writer, verdict error, harness ...error) error {
	var errs []error
	for _, e := range harness {
		if e != nil {
			errs = append(errs, e)
		}
	}
	if len(errs) == 0 {
		return verdict
	}
	if verdict == nil {
		return harnessErr("%v", errs[0])
	}
	for _, e := range errs {
		fmt.Fprintln(stderr, "mph:", e)
	}
	return verdict
}
