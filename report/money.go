package report

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/merchant-harness/mph/result"
)

// minor renders minor units as a decimal with two places.
func minor(n int64) string {
	sign := ""
	if n < 0 {
		sign, n = "-", -n
	}
	return fmt.Sprintf("%s%d.%02d", sign, n/100, n%100)
}

func perCurrency(m map[string]int64) string {
	if len(m) == 0 {
		return "nothing"
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = minor(m[k]) + " " + k
	}
	return strings.Join(parts, ", ")
}

// writeMoney prints the money lines of the summary.
func writeMoney(w io.Writer, m *result.Money) {
	if m == nil {
		return
	}
	fmt.Fprintf(w, "Test money: spent %s (fees included); swept back %s; created %d cards, %d customers, %d gift orders\n",
		perCurrency(m.Spent), perCurrency(m.SweptBack), m.CardsCreated, m.CustomersCreated, m.GiftOrders)
	switch m.Teardown {
	case "off":
		fmt.Fprintf(w, "Teardown: off (--no-teardown): the created cards keep %s\n", perCurrency(m.LeftOnCards))
	default:
		fmt.Fprintf(w, "Teardown: %s: %d cards swept, %d frozen, left on cards %s\n", m.Teardown, m.CardsSwept, m.CardsFrozen, perCurrency(m.LeftOnCards))
	}
	if m.VaultStart != nil && m.VaultEnd != nil {
		fmt.Fprintf(w, "Vault: %s USD before the run, %s USD after the teardown\n", minor(*m.VaultStart), minor(*m.VaultEnd))
	}
	for i, p := range m.TeardownProblems {
		if i == 5 {
			fmt.Fprintf(w, "  teardown: … %d more problems in report.summary.json\n", len(m.TeardownProblems)-i)
			break
		}
		fmt.Fprintf(w, "  teardown: %s\n", p)
	}
	if len(m.Unswept) > 0 {
		fmt.Fprintf(w, "  %d cards not swept (ids in report.summary.json, money.unswept)\n", len(m.Unswept))
	}
	if m.SkippedOverBudget > 0 {
		fmt.Fprintf(w, "Max spend: %d requests refused (their specs skipped)\n", m.SkippedOverBudget)
	}
	provoked := ""
	if m.Provoked429 > 0 {
		provoked = fmt.Sprintf(" (%d asked for by the rate-limit specs)", m.Provoked429)
	}
	fmt.Fprintf(w, "Rate limits: %d answers 429%s, %s waited out after 429s, %s paced under the learned limits, %s in the --max-rps limiter (summed over requests)\n",
		m.TooManyRequests, provoked, m.BackoffWait.Round(time.Millisecond), m.PacedWait.Round(time.Millisecond), m.LimiterWait.Round(time.Millisecond))
	if m.RateLimitRefused > 0 {
		fmt.Fprintf(w, "  %d waits refused as longer than the run allows (--deadline, --retry-after-max): their specs have no verdict\n", m.RateLimitRefused)
	}
	for _, l := range m.RateLimitsLearned {
		fmt.Fprintf(w, "  learned: %s\n", l)
	}
}

// writeBaseline prints the comparison with the baseline run.
func writeBaseline(w io.Writer, b *result.Baseline) {
	fmt.Fprintf(w, "Compared with baseline run %s: %d new failures, %d fixed, %d still failing\n", b.From, len(b.NewFailures), len(b.Fixed), len(b.StillFailing))
	for _, g := range []struct {
		title string
		ids   []string
	}{{"new failure", b.NewFailures}, {"fixed", b.Fixed}, {"still failing", b.StillFailing}} {
		for _, id := range g.ids {
			fmt.Fprintf(w, "  %-13s %s\n", g.title, id)
		}
	}
}
