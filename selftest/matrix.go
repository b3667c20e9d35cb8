package selftest

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// WriteText prints the kill matrix for people: the clean run, one row a fault
// with the specs that caught it, then the verdict and the survivors with the
// requirement each one breaks.
func (m *Matrix) WriteText(w io.Writer) {
	if m.Interrupted {
		fmt.Fprintf(w, "self-test INTERRUPTED: the matrix shows the %d fault runs that finished\n", m.Total)
	}
	cleanVerdict := "PASS"
	if !m.CleanOK {
		cleanVerdict = "FAIL (false positives: the suites fail a conformant server)"
	}
	fmt.Fprintf(w, "clean sandbox: %s  (%d passed, %d skipped, %d failed, %d harness errors, %s)\n",
		cleanVerdict, m.Clean.Passed, m.Clean.Skipped, len(m.Clean.Failed), len(m.Clean.HarnessErrors), m.Clean.Duration.Round(100e6))
	for _, f := range m.Clean.Failed {
		fmt.Fprintf(w, "  false positive: %s\n", f)
	}
	for _, f := range m.Clean.HarnessErrors {
		fmt.Fprintf(w, "  harness error: %s\n", f)
	}
	if m.Clean.Error != "" {
		fmt.Fprintf(w, "  error: %s\n", m.Clean.Error)
	}
	m.writeCleanSandbox(w)
	fmt.Fprintln(w)

	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "FAULT\tREQUIREMENTS\tVERDICT\tCAUGHT BY")
	for _, e := range m.Entries {
		verdict, by := "killed", caughtBy(e.Run.Failed)
		switch {
		case e.Run.Error != "":
			verdict, by = "ERROR", e.Run.Error
		case !e.Killed:
			verdict, by = "SURVIVED", "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", e.Fault.Name, strings.Join(e.Fault.Requirements, ","), verdict, trunc(by, 110))
	}
	tw.Flush()
	fmt.Fprintf(w, "\nkill rate: %d/%d (%.1f%%) in %s; %s\n", m.Killed, m.Total, 100*m.KillRate, m.Duration.Round(1e9), m.selectionNote())
	for _, s := range m.Survivors {
		fmt.Fprintf(w, "SURVIVOR %s breaks %s: %s%s\n", s.Fault.Name, strings.Join(s.Fault.Requirements, ","), s.Fault.Description, survivorNote(s))
	}
	for _, e := range m.Errors {
		fmt.Fprintf(w, "ERROR %s: %s\n", e.Fault.Name, trunc(e.Run.Error, 400))
	}
	m.writeSpecificity(w)
	m.writeTiming(w)
}

// selectionNote says which specs the fault runs ran.
func (m *Matrix) selectionNote() string {
	if m.FullSelection {
		return "every fault against every spec"
	}
	return "every fault against the specs citing its requirements (--full: every spec)"
}

// survivorNote says which specs a survivor's focused run ran: none cites
// its requirements, or those that do passed (the fault may name the wrong
// requirement, or the spec catching it may cite another one).
func survivorNote(e Entry) string {
	r := e.Run
	switch {
	case r.Selection == "":
		return ""
	case r.Passed+r.Skipped+len(r.Failed)+len(r.HarnessErrors) == 0:
		return " (no spec cites " + r.Selection + ")"
	}
	return fmt.Sprintf(" (the specs citing %s passed; 'mph selftest --full --fault %s --variant none' runs every spec against it)", r.Selection, e.Fault.Name)
}

func caughtBy(failed []string) string {
	switch len(failed) {
	case 0:
		return "-"
	case 1:
		return failed[0]
	}
	return fmt.Sprintf("%s (+%d more)", failed[0], len(failed)-1)
}

func trunc(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > n {
		return s[:n-1] + "…"
	}
	return s
}

// WriteJSON writes the matrix for machines.
func (m *Matrix) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(m)
}

// writeCleanSandbox prints the clean run under the sandbox's own profile.
func (m *Matrix) writeCleanSandbox(w io.Writer) {
	r := m.CleanSandbox
	verdict := "PASS"
	if !m.CleanSandboxOK {
		verdict = "FAIL (the suites fail the sandbox under its own profile, sandbox/profile.yaml)"
	}
	fmt.Fprintf(w, "clean sandbox, its own profile: %s  (%d passed, %d skipped, %d failed, %d harness errors, %s)\n",
		verdict, r.Passed, r.Skipped, len(r.Failed), len(r.HarnessErrors), r.Duration.Round(100e6))
	for _, f := range append(append([]string{}, r.Failed...), r.HarnessErrors...) {
		fmt.Fprintf(w, "  failed: %s\n", f)
	}
	if r.Error != "" {
		fmt.Fprintf(w, "  error: %s\n", r.Error)
	}
}
