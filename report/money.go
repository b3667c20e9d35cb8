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

// moneyView reads a run's money figures as the reports print them: per
// currency rows and the lines of the console, the Markdown and the HTML
// (result holds the figures, data only).
type moneyView struct{ *result.Money }

// viewMoney is the view of m (nil when the run recorded none).
func viewMoney(m *result.Money) *moneyView {
	if m == nil {
		return nil
	}
	return &moneyView{m}
}

// MoneyRow is one currency's line of the money table of the reports.
type MoneyRow struct {
	Currency                     string
	Spent, SweptBack, LeftOnCard string // decimals with two places
}

// Rows are the currencies the run spent, swept back or left on cards, in
// alphabetical order.
func (m *moneyView) Rows() []MoneyRow {
	seen := map[string]bool{}
	for _, mp := range []map[string]int64{m.Spent, m.SweptBack, m.LeftOnCards} {
		for k := range mp {
			seen[k] = true
		}
	}
	keys := make([]string, 0, len(seen))
	for k := range seen {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	rows := make([]MoneyRow, len(keys))
	for i, k := range keys {
		rows[i] = MoneyRow{Currency: k, Spent: minor(m.Spent[k]), SweptBack: minor(m.SweptBack[k]), LeftOnCard: minor(m.LeftOnCards[k])}
	}
	return rows
}

// SpentLine is the money line of the reports: what the run spent and swept
// back per currency, and what it created.
func (m *moneyView) SpentLine() string {
	return fmt.Sprintf("Test money: spent %s (fees included); swept back %s; created %d cards, %d customers, %d gift orders",
		perCurrency(m.Spent), perCurrency(m.SweptBack), m.CardsCreated, m.CustomersCreated, m.GiftOrders)
}

// TeardownLine says what the teardown did (the console puts "Teardown: "
// before it).
func (m *moneyView) TeardownLine() string {
	if m.Teardown == "off" {
		return fmt.Sprintf("off (--no-teardown): the created cards keep %s", perCurrency(m.LeftOnCards))
	}
	return fmt.Sprintf("%s: %d cards swept, %d frozen, left on cards %s", orUnknown(m.Teardown), m.CardsSwept, m.CardsFrozen, perCurrency(m.LeftOnCards))
}

// TeardownOK is true when the teardown swept and froze everything it could.
func (m *moneyView) TeardownOK() bool {
	return m.Teardown == "done" && len(m.Unswept) == 0 && len(m.TeardownProblems) == 0
}

// VaultLine states the vault before and after ("" when not known).
func (m *moneyView) VaultLine() string {
	if m.VaultStart == nil || m.VaultEnd == nil {
		return ""
	}
	return fmt.Sprintf("Vault: %s USD before the run, %s USD after the teardown", minor(*m.VaultStart), minor(*m.VaultEnd))
}

// RateLine is what the target's rate limits cost the run (the console puts
// "Rate limits: " before it).
func (m *moneyView) RateLine() string {
	provoked := ""
	if m.Provoked429 > 0 {
		provoked = fmt.Sprintf(" (%d asked for by the rate-limit specs)", m.Provoked429)
	}
	return fmt.Sprintf("%d answers 429%s, %s waited out after 429s, %s paced under the learned limits, %s in the --max-rps limiter (summed over requests)",
		m.TooManyRequests, provoked, m.BackoffWait.Round(time.Millisecond), m.PacedWait.Round(time.Millisecond), m.LimiterWait.Round(time.Millisecond))
}

// RefusedLine states the waits refused as too long ("" when none).
func (m *moneyView) RefusedLine() string {
	if m.RateLimitRefused == 0 {
		return ""
	}
	return fmt.Sprintf("%d waits refused as longer than the run allows (--deadline, --retry-after-max): their specs have no verdict", m.RateLimitRefused)
}

// writeMoney prints the money lines of the summary.
func writeMoney(w io.Writer, money *result.Money) {
	m := viewMoney(money)
	if m == nil {
		return
	}
	fmt.Fprintln(w, m.SpentLine())
	fmt.Fprintln(w, "Teardown: "+m.TeardownLine())
	if v := m.VaultLine(); v != "" {
		fmt.Fprintln(w, v)
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
	fmt.Fprintln(w, "Rate limits: "+m.RateLine())
	if r := m.RefusedLine(); r != "" {
		fmt.Fprintf(w, "  %s\n", r)
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
