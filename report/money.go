package report

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/onsi/ginkgo/v2/types"
)

// MoneyEntry names the report entry in which each suite process states the
// test money it spent and swept back (a JSON Money); Summarize adds them up.
const MoneyEntry = "mph-money"

// Money is the test money of a run, per currency in integer minor units.
type Money struct {
	// Spent is what the run took from the merchant's balances, fees included
	// (issuance: amount + creationFee; gift orders: their NGN cost).
	Spent map[string]int64 `json:"spentMinor"`
	// SweptBack is what withdrawals credited back to the vault (the specs'
	// and the teardown's), after the withdrawal fee.
	SweptBack map[string]int64 `json:"sweptBackMinor"`
	// Funded is the issuance funding within Spent (USD, without fees).
	Funded int64 `json:"fundedMinor"`
	// LeftOnCards is the balance the teardown could not sweep (below the
	// 0.10 USD minimum or not above the withdrawal fee, or kept by --no-teardown).
	LeftOnCards map[string]int64 `json:"leftOnCardsMinor,omitempty"`

	CardsCreated     int `json:"cardsCreated"`
	CustomersCreated int `json:"customersCreated"`
	GiftOrders       int `json:"giftOrders"`
	CardsSwept       int `json:"cardsSwept"`
	CardsFrozen      int `json:"cardsFrozen"`
	// Teardown is "done", "off" (--no-teardown) or "incomplete".
	Teardown         string   `json:"teardown"`
	TeardownProblems []string `json:"teardownProblems,omitempty"`
	// Unswept lists the cards the teardown could not sweep and freeze.
	Unswept []string `json:"unswept,omitempty"`
	// VaultStart and VaultEnd are the USD vault balance before the first
	// spec and after the teardown (single-process runs only).
	VaultStart *int64 `json:"vaultStartMinor,omitempty"`
	VaultEnd   *int64 `json:"vaultEndMinor,omitempty"`
	// SkippedOverBudget counts requests refused by --max-spend.
	SkippedOverBudget int `json:"skippedOverBudget,omitempty"`

	// ByArea is the spend per top-level container of specs.
	ByArea map[string]AreaSpend `json:"byArea,omitempty"`

	// What the target's rate limits cost the run (client.RateStats):
	// the 429 answers met (Provoked429 of them asked for by the rate-limit
	// specs), the time waited out after 429s (Retry-After, a stated reset,
	// backoff), paced under the learned limits and in the --max-rps
	// limiter (summed over requests), the waits refused as longer than the
	// run allows (each a spec without a verdict), and the limits learned.
	TooManyRequests   int           `json:"tooManyRequests"`
	Provoked429       int           `json:"provoked429"`
	BackoffWait       time.Duration `json:"backoffWaitNs"`
	PacedWait         time.Duration `json:"pacedWaitNs"`
	LimiterWait       time.Duration `json:"limiterWaitNs"`
	RateLimitRefused  int           `json:"rateLimitRefusedWaits"`
	RateLimitsLearned []string      `json:"rateLimitsLearned,omitempty"`
}

// AreaSpend is what the specs of one top-level container spent.
type AreaSpend struct {
	Cards      int              `json:"cards"`
	GiftOrders int              `json:"giftOrders,omitempty"`
	Spent      map[string]int64 `json:"spentMinor"`
}

// Add merges o (another process's figures) into m.
func (m *Money) Add(o Money) {
	m.Spent = addMap(m.Spent, o.Spent)
	m.SweptBack = addMap(m.SweptBack, o.SweptBack)
	m.LeftOnCards = addMap(m.LeftOnCards, o.LeftOnCards)
	m.Funded += o.Funded
	for name, a := range o.ByArea {
		if m.ByArea == nil {
			m.ByArea = map[string]AreaSpend{}
		}
		cur := m.ByArea[name]
		cur.Cards += a.Cards
		cur.GiftOrders += a.GiftOrders
		cur.Spent = addMap(cur.Spent, a.Spent)
		m.ByArea[name] = cur
	}
	m.CardsCreated += o.CardsCreated
	m.CustomersCreated += o.CustomersCreated
	m.GiftOrders += o.GiftOrders
	m.CardsSwept += o.CardsSwept
	m.CardsFrozen += o.CardsFrozen
	m.SkippedOverBudget += o.SkippedOverBudget
	m.TooManyRequests += o.TooManyRequests
	m.Provoked429 += o.Provoked429
	m.BackoffWait += o.BackoffWait
	m.PacedWait += o.PacedWait
	m.LimiterWait += o.LimiterWait
	m.RateLimitRefused += o.RateLimitRefused
	m.RateLimitsLearned = append(m.RateLimitsLearned, o.RateLimitsLearned...)
	m.TeardownProblems = append(m.TeardownProblems, o.TeardownProblems...)
	m.Unswept = append(m.Unswept, o.Unswept...)
	if m.VaultStart == nil {
		m.VaultStart, m.VaultEnd = o.VaultStart, o.VaultEnd
	}
	switch {
	case m.Teardown == "":
		m.Teardown = o.Teardown
	case o.Teardown != m.Teardown && o.Teardown != "":
		m.Teardown = "incomplete"
	}
}

func addMap(a, b map[string]int64) map[string]int64 {
	if len(b) == 0 {
		return a
	}
	if a == nil {
		a = map[string]int64{}
	}
	for k, v := range b {
		a[k] += v
	}
	return a
}

// moneyOf adds up the MoneyEntry entries of the suite-level nodes.
func moneyOf(r types.Report) *Money {
	var out *Money
	for _, s := range r.SpecReports {
		for _, e := range s.ReportEntries {
			if e.Name != MoneyEntry {
				continue
			}
			var m Money
			if json.Unmarshal([]byte(e.StringRepresentation()), &m) != nil {
				continue
			}
			if out == nil {
				out = &Money{}
			}
			out.Add(m)
		}
	}
	return out
}

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

// MoneyRow is one currency's line of the money table of the reports.
type MoneyRow struct {
	Currency                     string
	Spent, SweptBack, LeftOnCard string // decimals with two places
}

// Rows are the currencies the run spent, swept back or left on cards, in
// alphabetical order.
func (m *Money) Rows() []MoneyRow {
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
func (m *Money) SpentLine() string {
	return fmt.Sprintf("Test money: spent %s (fees included); swept back %s; created %d cards, %d customers, %d gift orders",
		perCurrency(m.Spent), perCurrency(m.SweptBack), m.CardsCreated, m.CustomersCreated, m.GiftOrders)
}

// TeardownLine says what the teardown did (the console puts "Teardown: "
// before it).
func (m *Money) TeardownLine() string {
	if m.Teardown == "off" {
		return fmt.Sprintf("off (--no-teardown): the created cards keep %s", perCurrency(m.LeftOnCards))
	}
	return fmt.Sprintf("%s: %d cards swept, %d frozen, left on cards %s", orUnknown(m.Teardown), m.CardsSwept, m.CardsFrozen, perCurrency(m.LeftOnCards))
}

// TeardownOK is true when the teardown swept and froze everything it could.
func (m *Money) TeardownOK() bool {
	return m.Teardown == "done" && len(m.Unswept) == 0 && len(m.TeardownProblems) == 0
}

// VaultLine states the vault before and after ("" when not known).
func (m *Money) VaultLine() string {
	if m.VaultStart == nil || m.VaultEnd == nil {
		return ""
	}
	return fmt.Sprintf("Vault: %s USD before the run, %s USD after the teardown", minor(*m.VaultStart), minor(*m.VaultEnd))
}

// RateLine is what the target's rate limits cost the run (the console puts
// "Rate limits: " before it).
func (m *Money) RateLine() string {
	provoked := ""
	if m.Provoked429 > 0 {
		provoked = fmt.Sprintf(" (%d asked for by the rate-limit specs)", m.Provoked429)
	}
	return fmt.Sprintf("%d answers 429%s, %s waited out after 429s, %s paced under the learned limits, %s in the --max-rps limiter (summed over requests)",
		m.TooManyRequests, provoked, m.BackoffWait.Round(time.Millisecond), m.PacedWait.Round(time.Millisecond), m.LimiterWait.Round(time.Millisecond))
}

// RefusedLine states the waits refused as too long ("" when none).
func (m *Money) RefusedLine() string {
	if m.RateLimitRefused == 0 {
		return ""
	}
	return fmt.Sprintf("%d waits refused as longer than the run allows (--deadline, --retry-after-max): their specs have no verdict", m.RateLimitRefused)
}

// WriteConsole prints the money lines of the summary.
func (m *Money) WriteConsole(w io.Writer) {
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
