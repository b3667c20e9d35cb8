package framework

// The teardown: after the last spec (also after failures and after Ctrl-C,
// Ginkgo runs the suite's cleanup nodes then), every card the run created is
// swept back to the vault and frozen, and the run's test money is stated in
// the report (result.MoneyEntry).

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"time"

	. "github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/types"

	"github.com/merchant-harness/mph/client"
	"github.com/merchant-harness/mph/result"
	"github.com/merchant-harness/mph/sweep"
)

var (
	moneyStarted atomic.Bool // startMoney ran: there may be cards to sweep
	sweptOnce    atomic.Bool // the teardown ran (after the specs or on interrupt)
	sweepDone    = make(chan struct{})
	finalMoney   result.Money // what the teardown found; read after sweepDone
)

// politeLimiter caps this process's request rate (--max-rps).
var politeLimiter *client.Limiter

// startMoney configures the budget from the resolved configuration,
// reads the target's fees and registers the teardown. Every process runs it.
func startMoney() error {
	books.mu.Lock()
	books.max = h.cfg.MaxSpend
	books.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), Timeouts().Fixture)
	defer cancel()
	books.loadFees(ctx, h.primary)
	RegisterCleanup(teardown)
	moneyStarted.Store(true)
	return nil
}

func teardownOff() bool {
	return h.cfg.NoTeardown
}

// teardown sweeps and freezes the created cards and reports the money (the
// suite's cleanup, after the last spec).
func teardown() {
	ctx, cancel := context.WithTimeout(context.Background(), Timeouts().Teardown)
	defer cancel()
	teardownCut.Store(&cancel) // an interrupt's second Ctrl-C cuts it short too
	m, ok := sweepCreated(ctx)
	if !ok {
		return // an interrupt already ran it
	}
	b, _ := json.Marshal(m)
	AddReportEntry(result.MoneyEntry, string(b), ReportEntryVisibilityNever)
}

// interruptTeardown runs the teardown when mph conform is interrupted: no
// new spending request is sent, the created cards are swept (bounded; a
// second Ctrl-C ends it), and the money entry joins the interrupted report.
func interruptTeardown(r *types.Report) {
	if !moneyStarted.Load() {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), Timeouts().InterruptTeardown)
	defer cancel()
	teardownCut.Store(&cancel)
	books.mu.Lock()
	books.closed = true
	books.mu.Unlock()
	// An issuance already sent creates its card when it is answered: wait
	// for it (bounded by the request timeout) so that the card is swept too.
	books.settle(ctx, h.cfg.Timeout+time.Second)
	books.mu.Lock()
	n := len(books.cards)
	books.mu.Unlock()
	if n > 0 && !teardownOff() {
		fmt.Fprintf(os.Stdout, "\nmph conform: interrupted: sweeping the money of %d cards back to the vault (Ctrl-C again to stop; the reports are written either way and `mph sweep --run-id %s` returns what is left)\n", n, h.cfg.RunID)
	}
	m, ok := sweepCreated(ctx)
	if !ok { // the teardown after the last spec is running: let it finish
		select {
		case <-sweepDone:
			m = finalMoney
		case <-ctx.Done():
			// Cut (a second Ctrl-C cancels that teardown too) or out of
			// time: its account follows at once when it was cut.
			select {
			case <-sweepDone:
				m = finalMoney
			case <-time.After(2 * time.Second):
				return
			}
		}
	}
	b, _ := json.Marshal(m)
	r.SpecReports = append(r.SpecReports, types.SpecReport{
		LeafNodeType: types.NodeTypeSynchronizedAfterSuite, State: types.SpecStatePassed,
		ReportEntries: types.ReportEntries{{Name: result.MoneyEntry, Value: types.WrapEntryValue(string(b)), Visibility: types.ReportEntryVisibilityNever}},
	})
}

// teardownCut cancels the interrupt's teardown (a second Ctrl-C).
var teardownCut atomic.Pointer[context.CancelFunc]

// cutTeardown stops the interrupt's teardown: the cards not swept yet are
// reported unswept, the reports are written.
func cutTeardown() {
	if c := teardownCut.Load(); c != nil {
		(*c)()
	}
}

// sweepCreated sweeps (or, with --no-teardown, reads) every card the run
// created, once per process; ok is false when it already ran.
func sweepCreated(ctx context.Context) (m result.Money, ok bool) {
	if !sweptOnce.CompareAndSwap(false, true) {
		return m, false
	}
	defer func() { finalMoney = m; close(sweepDone) }()
	m.Teardown = "done"
	keep := teardownOff()
	if keep {
		m.Teardown = "off"
	}
	books.mu.Lock()
	cards := append([]createdCard(nil), books.cards...)
	books.mu.Unlock()
	sweepCards(ctx, cards, keep, &m)
	if len(m.TeardownProblems) > 0 && !keep {
		m.Teardown = "incomplete"
	}
	fillMoney(ctx, &m)
	return m, true
}

// sweepWorkers is how many cards the teardown sweeps at a time.
const sweepWorkers = 4

// sweepCards sweeps the cards a few at a time, and stops dispatching when
// the target no longer answers (three network errors in a row).
func sweepCards(ctx context.Context, cards []createdCard, keep bool, m *result.Money) {
	var (
		mu      sync.Mutex
		netErrs atomic.Int32
		wg      sync.WaitGroup
		next    = make(chan createdCard)
	)
	for range sweepWorkers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for c := range next {
				api := h.as(c.Who).WithRecorder(client.NewRecorder())
				var one result.Money
				err := sweepCard(ctx, api, c.ID, keep, &one)
				mu.Lock()
				m.Add(one)
				if err != nil {
					m.Unswept = append(m.Unswept, c.ID)
					m.TeardownProblems = append(m.TeardownProblems, fmt.Sprintf("card %s: %v", c.ID, err))
				}
				mu.Unlock()
				switch {
				case err == nil || !client.IsNetError(err):
					netErrs.Store(0)
				default:
					netErrs.Add(1)
				}
			}
		}()
	}
	for i, c := range cards {
		if netErrs.Load() >= 3 || ctx.Err() != nil {
			why := "stopped: the target does not answer"
			if ctx.Err() != nil {
				why = "stopped: the teardown was cut short (a second Ctrl-C, or its time ran out)"
			}
			mu.Lock()
			for _, rest := range cards[i:] {
				m.Unswept = append(m.Unswept, rest.ID)
			}
			m.TeardownProblems = append(m.TeardownProblems, why)
			mu.Unlock()
			break
		}
		if c.ID == "" {
			mu.Lock()
			m.TeardownProblems = append(m.TeardownProblems, "an issued card had no id in the issuance answer: it cannot be swept")
			mu.Unlock()
			continue
		}
		next <- c
	}
	close(next)
	wg.Wait()
}

// fillMoney adds the ledger's figures, the 429 counters and the vault.
func fillMoney(ctx context.Context, m *result.Money) {
	books.mu.Lock()
	m.Spent, m.SweptBack, m.Funded = books.spentLocked(), books.sweptLocked(), books.issued
	m.ByArea = books.areasLocked()
	m.CardsCreated, m.CustomersCreated, m.GiftOrders = len(books.cards), books.customers, books.gifts
	m.SkippedOverBudget = books.refused
	start, startSet := books.fees.vaultStart, books.fees.vaultStartSet
	books.mu.Unlock()
	st := client.Stats()
	m.TooManyRequests, m.BackoffWait, m.LimiterWait = st.TooManyRequests, st.BackoffWait, st.LimiterWait
	m.Provoked429, m.PacedWait, m.RateLimitRefused = st.Provoked, st.PacedWait, st.Refused
	if rateGate != nil {
		m.RateLimitsLearned = rateGate.Learned()
	}
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
func sweepCard(ctx context.Context, api *client.Client, id string, keep bool, m *result.Money) error {
	out, err := sweep.Card(ctx, api, id, keep, sweep.Rules{Fee: withdrawalCost(), CardFee: cardSideFee()})
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

// cardSideFee is what a withdrawal may take from the card beyond its amount
// per the profile (cards.withdrawCardDebit: the fee's side is not shown).
func cardSideFee() int64 {
	if Profile().Cards.WithdrawCardDebit == "amount" {
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
