package suites

// The teardown: after the last spec (also after failures and after Ctrl-C,
// Ginkgo runs the suite's cleanup nodes then), every card the run created is
// swept back to the vault and frozen, and the run's test money is stated in
// the report (report.MoneyEntry).

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"time"

	. "github.com/onsi/ginkgo/v2"

	"github.com/merchant-harness/mph/client"
	"github.com/merchant-harness/mph/report"
	"github.com/merchant-harness/mph/sweep"
)

// teardownBudget bounds the whole teardown.
const teardownBudget = 5 * time.Minute

// politeLimiter caps this process's request rate (--max-rps).
var politeLimiter *client.Limiter

// startMoney configures the budget and the limiter from the environment,
// reads the target's fees and registers the teardown. Every process runs it.
func startMoney() error {
	max, err := maxSpendFromEnv()
	if err != nil {
		return err
	}
	books.mu.Lock()
	books.max = max
	books.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), fixtureTimeout)
	defer cancel()
	books.loadFees(ctx, h.primary)
	RegisterCleanup(teardown)
	return nil
}

func teardownOff() bool {
	v, _ := strconv.ParseBool(os.Getenv(EnvNoTeardown))
	return v
}

// teardown sweeps and freezes the created cards and reports the money.
func teardown() {
	ctx, cancel := context.WithTimeout(context.Background(), teardownBudget)
	defer cancel()
	m := report.Money{Teardown: "done"}
	keep := teardownOff()
	if keep {
		m.Teardown = "off"
	}
	books.mu.Lock()
	cards := append([]createdCard(nil), books.cards...)
	books.mu.Unlock()
	netErrs := 0
	for i, c := range cards {
		if c.ID == "" {
			m.TeardownProblems = append(m.TeardownProblems, "an issued card had no id in the issuance answer: it cannot be swept")
			continue
		}
		api := h.as(c.Who).WithRecorder(client.NewRecorder())
		err := sweepCard(ctx, api, c.ID, keep, &m)
		if err == nil {
			netErrs = 0
			continue
		}
		m.Unswept = append(m.Unswept, c.ID)
		if client.IsNetError(err) {
			netErrs++
		} else {
			netErrs = 0
		}
		if netErrs >= 3 || ctx.Err() != nil {
			for _, rest := range cards[i+1:] {
				m.Unswept = append(m.Unswept, rest.ID)
			}
			m.TeardownProblems = append(m.TeardownProblems, fmt.Sprintf("stopped: the target does not answer (%v)", err))
			break
		}
		m.TeardownProblems = append(m.TeardownProblems, fmt.Sprintf("card %s: %v", c.ID, err))
	}
	if len(m.TeardownProblems) > 0 && !keep {
		m.Teardown = "incomplete"
	}
	fillMoney(ctx, &m)
	b, _ := json.Marshal(m)
	AddReportEntry(report.MoneyEntry, string(b), ReportEntryVisibilityNever)
}

// fillMoney adds the ledger's figures, the 429 counters and the vault.
func fillMoney(ctx context.Context, m *report.Money) {
	books.mu.Lock()
	m.Spent, m.SweptBack, m.Funded = books.spentLocked(), books.sweptLocked(), books.issued
	m.ByArea = books.areasLocked()
	m.CardsCreated, m.CustomersCreated, m.GiftOrders = len(books.cards), books.customers, books.gifts
	m.SkippedOverBudget = books.refused
	start, startSet := books.fees.vaultStart, books.fees.vaultStartSet
	books.mu.Unlock()
	st := client.Stats()
	m.TooManyRequests, m.BackoffWait, m.LimiterWait = st.TooManyRequests, st.BackoffWait, st.LimiterWait
	if startSet && GinkgoParallelProcess() == 1 && !parallelRun() {
		if end, ok := readFees(ctx, h.primary); ok {
			m.VaultStart, m.VaultEnd = &start, &end.vaultStart
		}
	}
}

func parallelRun() bool {
	sc, _ := GinkgoConfiguration()
	return sc.ParallelTotal > 1
}

// sweepCard sweeps and freezes one card (package sweep) and counts it.
func sweepCard(ctx context.Context, api *client.Client, id string, keep bool, m *report.Money) error {
	out, err := sweep.Card(ctx, api, id, keep, sweep.Rules{Fee: withdrawalCost()})
	if out.Swept > 0 {
		m.CardsSwept++
	}
	if out.Frozen {
		m.CardsFrozen++
	}
	if out.Left != 0 {
		m.LeftOnCards = addMinor(m.LeftOnCards, "USD", out.Left)
	}
	return err
}

// withdrawalCost is what one withdrawal costs the vault per the profile.
func withdrawalCost() int64 {
	if Profile().Cards.WithdrawVaultCredit == "amount" {
		return 0
	}
	books.mu.Lock()
	defer books.mu.Unlock()
	return books.fees.withdrawal
}

func addMinor(m map[string]int64, cur string, n int64) map[string]int64 {
	if m == nil {
		m = map[string]int64{}
	}
	m[cur] += n
	return m
}
