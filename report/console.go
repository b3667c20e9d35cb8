package report

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/merchant-harness/mph/result"
)

// Console prints the end-of-run summary: one line per failure (its
// headline), harness errors, waivers, skip reasons, the baseline comparison
// and the report paths.
func Console(s result.Summary, reportPaths ...string) Reporter {
	return func(w io.Writer) error {
		writeConsole(w, s, reportPaths)
		return nil
	}
}

func writeConsole(w io.Writer, s result.Summary, reportPaths []string) {
	fmt.Fprintf(w, "\n== Conformance summary: %d passed, %d failed, %d no verdict", s.Passed, s.Failed, s.NoVerdict)
	if s.NoVerdictAccepted > 0 {
		fmt.Fprintf(w, " (%d accepted)", s.NoVerdictAccepted)
	}
	fmt.Fprintf(w, ", %d not applicable, %d harness errors", s.Skipped, s.HarnessErrors)
	if s.Waived > 0 {
		fmt.Fprintf(w, ", %d waived", s.Waived)
	}
	if s.Pending > 0 {
		fmt.Fprintf(w, ", %d pending", s.Pending)
	}
	if s.NotRun > 0 {
		fmt.Fprintf(w, ", %d not finished (interrupted)", s.NotRun)
	}
	if s.NotSelected > 0 {
		fmt.Fprintf(w, ", %d not selected", s.NotSelected)
	}
	fmt.Fprintf(w, " (%s)\n", s.Duration.Round(time.Millisecond))
	for _, e := range s.SuiteErrors {
		fmt.Fprintf(w, "  suite error: %s\n", e)
	}
	writeGroup(w, s, result.Failed, "Failed (the target broke a rule):", "✗")
	writeGroup(w, s, result.HarnessError, "Harness errors (the check could not run):", "!")
	writeGroup(w, s, result.Waived, "Waived (known deviations, not counted as failures):", "~")
	if len(s.FixedWaivers) > 0 {
		fmt.Fprintln(w, "Waived specs that now pass (fixed: remove the waiver):")
		for _, id := range s.FixedWaivers {
			fmt.Fprintf(w, "  + %s\n", id)
		}
	}
	writeNoVerdicts(w, s)
	if len(s.SkipReasons) > 0 {
		fmt.Fprintln(w, "Not applicable (skipped), by reason:")
		for _, r := range s.SkipReasons {
			fmt.Fprintf(w, "  %3d × %s\n", len(r.Specs), r.Reason)
		}
	}
	if s.Baseline != nil {
		writeBaseline(w, s.Baseline)
	}
	writeMoney(w, s.Money)
	for _, p := range reportPaths {
		if p != "" {
			fmt.Fprintf(w, "Report: %s\n", p)
		}
	}
}

func writeGroup(w io.Writer, s result.Summary, o result.Outcome, title, mark string) {
	n := 0
	for _, sp := range s.Ordered() {
		if sp.Outcome != o {
			continue
		}
		if n == 0 {
			fmt.Fprintln(w, title)
		}
		n++
		line := sp.Headline
		if o == result.Waived && sp.Waiver != nil {
			line = sp.Waiver.Describe()
		}
		if line == "" {
			line, _, _ = strings.Cut(sp.Message, "\n")
		}
		fmt.Fprintf(w, "  %s [%s] %s\n      %s\n", mark, sp.ID, sp.Text, strings.TrimPrefix(line, result.HarnessErrorPrefix))
	}
}

// writeNoVerdicts lists the specs that reached no verdict, by reason, and
// how many of them the run accepts by name.
func writeNoVerdicts(w io.Writer, s result.Summary) {
	if len(s.NoVerdictReasons) == 0 {
		return
	}
	fmt.Fprintln(w, "No verdict (the check could not decide; exit 3 unless accepted with --accept-no-verdict), by reason:")
	accepted := map[string]bool{}
	for _, sp := range s.Specs {
		if sp.Outcome == result.NoVerdict && sp.Accepted {
			accepted[sp.Text] = true
		}
	}
	for _, r := range s.NoVerdictReasons {
		n := 0
		for _, t := range r.Specs {
			if accepted[t] {
				n++
			}
		}
		note := ""
		if n > 0 {
			note = fmt.Sprintf(" (%d accepted)", n)
		}
		fmt.Fprintf(w, "  ? %3d × %s%s\n", len(r.Specs), r.Reason, note)
	}
}
