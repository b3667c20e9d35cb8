package report

import (
	"fmt"
	"strings"

	"github.com/merchant-harness/mph/result"
)

// MarkdownRows is the most rows of one outcome in the Markdown summary (a
// step summary has a size limit).
const MarkdownRows = 50

// Markdown renders a short summary fit for $GITHUB_STEP_SUMMARY or a merge
// request comment: verdict, counts, run facts, failures with their headline.
func Markdown(s result.Summary) string {
	var b strings.Builder
	fmt.Fprintf(&b, "## %s: %s\n\n", mdEscape(s.Suite), verdict(s))
	fmt.Fprintf(&b, "| passed | failed | no verdict | harness errors | not applicable | waived | interrupted |\n|---:|---:|---:|---:|---:|---:|---:|\n")
	nv := fmt.Sprint(s.NoVerdict)
	if s.NoVerdictAccepted > 0 {
		nv += fmt.Sprintf(" (%d accepted)", s.NoVerdictAccepted)
	}
	fmt.Fprintf(&b, "| %d | %d | %s | %d | %d | %d | %d |\n\n", s.Passed, s.Failed, nv, s.HarnessErrors, s.Skipped, s.Waived, s.NotRun)
	fmt.Fprintf(&b, "Target `%s` · run id `%s` · harness `%s` · profile `%s`", mdCode(StripUserinfo(s.Target)), mdCode(s.RunID), mdCode(s.Version), mdCode(s.Profile))
	if s.ProfileDigest != "" {
		fmt.Fprintf(&b, " (`%s`)", mdCode(s.ProfileDigest))
	}
	fmt.Fprintf(&b, " · started %s · ran %s\n\n", s.Start.UTC().Format("2006-01-02 15:04:05 UTC"), roundDuration(s.Duration))
	for _, e := range s.SuiteErrors {
		fmt.Fprintf(&b, "- **suite error**: %s\n", mdEscape(e))
	}
	rows := func(title string, o result.Outcome) {
		first, n, more := true, 0, 0
		for _, sp := range s.Ordered() {
			if sp.Outcome != o {
				continue
			}
			if n++; n > MarkdownRows {
				more++
				continue
			}
			if first {
				fmt.Fprintf(&b, "### %s\n\n| spec | id | what broke |\n|---|---|---|\n", title)
				first = false
			}
			what := sp.Headline
			switch {
			case o == result.Waived:
				what = sp.Note
			case o == result.NoVerdict && sp.Accepted:
				what = "(accepted) " + sp.Message
			case o == result.NoVerdict:
				what = sp.Message
			}
			fmt.Fprintf(&b, "| %s | `%s` | %s |\n", mdEscape(sp.Text), mdCode(sp.ID), mdEscape(what))
		}
		if more > 0 {
			fmt.Fprintf(&b, "\n… and %d more (see the HTML or JUnit report)\n", more)
		}
		if !first {
			b.WriteString("\n")
		}
	}
	rows("Failed", result.Failed)
	rows("Harness errors", result.HarnessError)
	rows("No verdict", result.NoVerdict)
	rows("Waived", result.Waived)
	if len(s.FixedWaivers) > 0 {
		fmt.Fprintf(&b, "**Fixed: remove the waivers of** %s\n\n", mdCode(strings.Join(s.FixedWaivers, ", ")))
	}
	if bl := s.Baseline; bl != nil {
		fmt.Fprintf(&b, "Compared with baseline run `%s`: %d new failures, %d fixed, %d still failing.\n\n", mdCode(bl.From), len(bl.NewFailures), len(bl.Fixed), len(bl.StillFailing))
	}
	if g := GridOf(s.Cells); g != nil {
		b.WriteString(g.Markdown())
	}
	return b.String()
}

// mdEscape keeps target text from breaking the table or injecting markup.
func mdEscape(s string) string {
	r := strings.NewReplacer("|", "\\|", "\n", " ", "\r", " ", "<", "&lt;", ">", "&gt;", "`", "'", "*", "\\*", "_", "\\_", "[", "\\[", "]", "\\]")
	return r.Replace(s)
}

func mdCode(s string) string { return strings.NewReplacer("`", "'", "\n", " ", "|", "\\|").Replace(s) }
