package report

import (
	"fmt"
	"strings"

	"github.com/merchant-harness/mph/result"
)

// MarkdownRows is the most rows of one outcome in the Markdown summary (a
// step summary has a size limit).
const MarkdownRows = 50

// Markdown renders the summary fit for $GITHUB_STEP_SUMMARY or a merge
// request comment, readable alone: verdict and exit code, counts, run facts,
// test money per currency, teardown and rate limits, the baseline
// comparison, failures with their headline and reproduce line, no verdicts
// and not-applicable specs grouped by reason, waivers and the rule ×
// endpoint grid.
func Markdown(s result.Summary) string {
	var b strings.Builder
	exit := s.ExitCode(false)
	fmt.Fprintf(&b, "## %s: %s\n\nExit code **%d**: %s.\n\n", mdEscape(s.Suite), verdict(s), exit, exitMeaning(exit))
	fmt.Fprintf(&b, "| passed | failed | harness errors | no verdict | not applicable | waived | interrupted |\n|---:|---:|---:|---:|---:|---:|---:|\n")
	nv := fmt.Sprint(s.NoVerdict)
	if s.NoVerdictAccepted > 0 {
		nv += fmt.Sprintf(" (%d accepted)", s.NoVerdictAccepted)
	}
	fmt.Fprintf(&b, "| %d | %d | %d | %s | %d | %d | %d |\n\n", s.Passed, s.Failed, s.HarnessErrors, nv, s.Skipped, s.Waived, s.NotRun)
	fmt.Fprintf(&b, "Target `%s` · run id `%s` · harness `%s` · profile `%s`", mdCode(StripUserinfo(s.Target)), mdCode(s.RunID), mdCode(s.Version), mdCode(s.Profile))
	if s.ProfileDigest != "" {
		fmt.Fprintf(&b, " (`%s`)", mdCode(s.ProfileDigest))
	}
	fmt.Fprintf(&b, " · started %s · ran %s\n\n", s.Start.UTC().Format("2006-01-02 15:04:05 UTC"), roundDuration(s.Duration))
	for _, e := range s.SuiteErrors {
		fmt.Fprintf(&b, "- **suite error**: %s\n", mdEscape(e))
	}
	mdMoney(&b, s)
	mdFailures(&b, s)
	mdBaseline(&b, s.Baseline)
	mdReasons(&b, "No verdict, by reason (the check could not decide; never a pass)", groupsOf(s, s.NoVerdictReasons, result.NoVerdict))
	mdReasons(&b, "Not applicable, by reason", groupsOf(s, s.SkipReasons, result.Skipped))
	mdRows(&b, s, "Waived", result.Waived)
	if len(s.FixedWaivers) > 0 {
		fmt.Fprintf(&b, "**Fixed: remove the waivers of** %s\n\n", mdCode(strings.Join(s.FixedWaivers, ", ")))
	}
	if g := GridOf(s.Cells); g != nil {
		b.WriteString(g.Markdown())
	}
	return b.String()
}

// mdMoney writes the test money per currency, the teardown and what the
// rate limits cost.
func mdMoney(b *strings.Builder, s result.Summary) {
	m := viewMoney(s.Money)
	if m == nil {
		return
	}
	b.WriteString("### Test money, teardown and rate limits\n\n| currency | spent (fees included) | swept back | left on cards |\n|---|---:|---:|---:|\n")
	for _, r := range m.Rows() {
		fmt.Fprintf(b, "| %s | %s | %s | %s |\n", mdEscape(r.Currency), r.Spent, r.SweptBack, r.LeftOnCard)
	}
	fmt.Fprintf(b, "\nCreated %d cards, %d customers, %d gift orders.", m.CardsCreated, m.CustomersCreated, m.GiftOrders)
	if m.SkippedOverBudget > 0 {
		fmt.Fprintf(b, " %d requests refused by --max-spend (their specs skipped).", m.SkippedOverBudget)
	}
	b.WriteString("\n\n")
	lines := []string{"Teardown: " + m.TeardownLine(), m.VaultLine(), "Rate limits: " + m.RateLine(), m.RefusedLine()}
	lines = append(lines, m.TeardownProblems...)
	if len(m.Unswept) > 0 {
		lines = append(lines, fmt.Sprintf("%d cards not swept: mph sweep --run-id %s returns their money", len(m.Unswept), s.RunID))
	}
	for _, l := range lines {
		if l != "" {
			fmt.Fprintf(b, "- %s\n", mdEscape(l))
		}
	}
	b.WriteString("\n")
}

// mdBaseline lists the specs that changed since the baseline run.
func mdBaseline(b *strings.Builder, bl *result.Baseline) {
	if bl == nil {
		return
	}
	fmt.Fprintf(b, "### Compared with baseline run `%s`\n\n%d new failures, %d fixed, %d still failing.\n\n", mdCode(bl.From), len(bl.NewFailures), len(bl.Fixed), len(bl.StillFailing))
	for _, g := range []struct {
		what string
		ids  []string
	}{{"new failure", bl.NewFailures}, {"fixed", bl.Fixed}, {"still failing", bl.StillFailing}} {
		for _, id := range g.ids {
			fmt.Fprintf(b, "- %s `%s`\n", g.what, mdCode(id))
		}
	}
	if len(bl.NewFailures)+len(bl.Fixed)+len(bl.StillFailing) > 0 {
		b.WriteString("\n")
	}
}

// mdFailures lists the failures and harness errors, each with its headline
// and the line reproducing its last request.
func mdFailures(b *strings.Builder, s result.Summary) {
	mdRows(b, s, "Failed", result.Failed)
	mdRows(b, s, "Harness errors", result.HarnessError)
	n := 0
	for _, sp := range s.Ordered() {
		if sp.Reproduce == "" || (sp.Outcome != result.Failed && sp.Outcome != result.HarnessError) {
			continue
		}
		if n++; n > MarkdownRows {
			break
		}
		if n == 1 {
			b.WriteString("Reproduce the request each verdict rests on (with the variables each line names set, as docs/configuration.md says):\n\n")
		}
		fence := mdFence(sp.Reproduce)
		fmt.Fprintf(b, "`%s`\n\n%ssh\n%s\n%s\n\n", mdCode(sp.ID), fence, sp.Reproduce, fence)
	}
}

// mdFence is a code fence longer than any run of backticks in s.
func mdFence(s string) string {
	longest, run := 0, 0
	for _, r := range s {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	return strings.Repeat("`", max(3, longest+1))
}

// mdRows writes the table of the specs of one outcome.
func mdRows(b *strings.Builder, s result.Summary, title string, o result.Outcome) {
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
			fmt.Fprintf(b, "### %s\n\n| spec | id | what broke |\n|---|---|---|\n", title)
			first = false
		}
		what := sp.Headline
		if o == result.Waived {
			what = sp.Note
		}
		fmt.Fprintf(b, "| %s | `%s` | %s |\n", mdEscape(sp.Text), mdCode(sp.ID), mdEscape(what))
	}
	if more > 0 {
		fmt.Fprintf(b, "\n… and %d more (see the HTML or JUnit report)\n", more)
	}
	if !first {
		b.WriteString("\n")
	}
}

// mdReasonIDs is the most spec IDs named per reason.
const mdReasonIDs = 5

// mdReasons writes one outcome's reasons with their number of specs.
func mdReasons(b *strings.Builder, title string, groups []reasonGroup) {
	if len(groups) == 0 {
		return
	}
	fmt.Fprintf(b, "### %s\n\n| specs | reason | spec IDs |\n|---:|---|---|\n", title)
	for _, g := range groups {
		reason := mdEscape(g.Reason)
		if g.Accepted > 0 {
			reason += fmt.Sprintf(" (%d accepted)", g.Accepted)
		}
		var ids []string
		for i, id := range g.IDs {
			if i == mdReasonIDs {
				ids = append(ids, fmt.Sprintf("and %d more", len(g.IDs)-i))
				break
			}
			ids = append(ids, "`"+mdCode(id)+"`")
		}
		fmt.Fprintf(b, "| %d | %s | %s |\n", len(g.Specs), reason, strings.Join(ids, ", "))
	}
	b.WriteString("\n")
}

// mdEscape keeps target text from breaking the table or injecting markup.
func mdEscape(s string) string {
	r := strings.NewReplacer("|", "\\|", "\n", " ", "\r", " ", "<", "&lt;", ">", "&gt;", "`", "'", "*", "\\*", "_", "\\_", "[", "\\[", "]", "\\]")
	return r.Replace(s)
}

func mdCode(s string) string { return strings.NewReplacer("`", "'", "\n", " ", "|", "\\|").Replace(s) }

// WriteMarkdown writes the Markdown summary.
func WriteMarkdown(s result.Summary, path string) error {
	return writeAtomic(path, []byte(Markdown(s)))
}
