package result

import (
	"fmt"
	"strings"

	"github.com/merchant-harness/mph/exitcode"
)

// Verdict says why the summary exits as ExitCode(strictWaivers) does (""
// for exit 0): interrupted; the failures, or the waived specs that now
// pass; the checks that could not run or reached no verdict.
func (s Summary) Verdict(strictWaivers bool) string {
	switch s.ExitCode(strictWaivers) {
	case exitcode.Interrupted:
		return "interrupted"
	case exitcode.Failed:
		if s.Failed == 0 {
			return fmt.Sprintf("%d waived specs now pass (--strict-waivers): remove their waivers", len(s.FixedWaivers))
		}
		return fmt.Sprintf("%d failed, %d harness errors", s.Failed, s.HarnessErrors)
	case exitcode.Harness:
		var parts []string
		if n := s.HarnessErrors + len(s.SuiteErrors); n > 0 {
			parts = append(parts, fmt.Sprintf("%d checks could not run (harness errors)", n))
		}
		if n := s.Undecided(); n > 0 {
			parts = append(parts, fmt.Sprintf("%d checks reached no verdict (never a pass; --accept-no-verdict ID,... or all accepts them by name)", n))
		}
		return "nothing failed, but " + strings.Join(parts, " and ")
	}
	return ""
}
