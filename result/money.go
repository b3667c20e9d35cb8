package result

import (
	"encoding/json"
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
