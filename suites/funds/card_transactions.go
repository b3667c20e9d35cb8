package funds

import (
	"context"
	"time"

	. "github.com/merchant-harness/mph/suites/expect"
	"github.com/merchant-harness/mph/suites/fixtures"
	. "github.com/merchant-harness/mph/suites/framework"
	. "github.com/merchant-harness/mph/suites/specsupport"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// The calendar day and month of dailyLimit and monthlyLimit are in a zone
// the document does not show (cards.spendLimitTimezone). The specs that
// move the sandbox clock work at 13:00 UTC on a day from the 1st to the
// 25th, which is the same calendar day between 01:00 and 03:00 in every
// zone in use (UTC-12 to UTC+14): from there one day later is the next
// calendar day everywhere, still in the same month, and 13:00 UTC on the
// 10th of the next month is a new month everywhere.

// midday is the hour of day (UTC) the clock specs work at.
const midday = 13 * time.Hour

// sandboxNow reads the sandbox clock (UTC).
func sandboxNow(ctx context.Context) time.Time {
	GinkgoHelper()
	c, err := Controls().Clock(ctx)
	if err != nil {
		HarnessError("sandbox control clock: %v", err)
	}
	t, err := time.Parse(time.RFC3339Nano, c.Now)
	if err != nil {
		HarnessError("sandbox control clock: now %q is not RFC 3339: %v", c.Now, err)
	}
	return t.UTC()
}

// advanceTo moves the sandbox clock to t (t in the future; to the second).
func advanceTo(ctx context.Context, t time.Time) {
	GinkgoHelper()
	secs := int64(t.Sub(sandboxNow(ctx)).Seconds())
	if secs < 1 {
		secs = 1
	}
	AdvanceClock(ctx, secs)
}

// toMidday moves the sandbox clock to the next 13:00 UTC on a day from the
// 1st to the 25th of a month.
func toMidday(ctx context.Context) {
	GinkgoHelper()
	now := sandboxNow(ctx)
	y, m, d := now.Date()
	t := time.Date(y, m, d, 0, 0, 0, 0, time.UTC).Add(midday)
	for !t.After(now.Add(time.Minute)) || t.Day() > 25 {
		t = t.AddDate(0, 0, 1)
	}
	advanceTo(ctx, t)
}

// nextDay moves the sandbox clock one day on: the next calendar day in
// every zone, from 13:00 UTC on a day up to the 25th still in the same month.
func nextDay(ctx context.Context) {
	GinkgoHelper()
	AdvanceClock(ctx, int64((24 * time.Hour).Seconds()))
}

// nextMonth moves the sandbox clock to 13:00 UTC on the 10th of the next
// month: a new calendar month in every zone.
func nextMonth(ctx context.Context) {
	GinkgoHelper()
	y, m, _ := sandboxNow(ctx).Date()
	advanceTo(ctx, time.Date(y, m+1, 10, 0, 0, 0, 0, time.UTC).Add(midday))
}

// fourLimits are the four spend limits, transaction to all-time. The specs
// set all four, never decreasing, so that the set is the same whether a PUT
// merges or replaces (not shown) and valid under a rule ordering them; the
// limit a spec is about is the smallest one its transactions reach.
func fourLimits(transaction, daily, monthly, allTime string) map[string]Money {
	return map[string]Money{"transactionLimit": M(transaction), "dailyLimit": M(daily), "monthlyLimit": M(monthly), "allTimeLimit": M(allTime)}
}

// cardTransactions is the container of the specs of card transactions (two
// Describe blocks of one text).
const cardTransactions = "Card transactions: freezing and spend limits decide approvals"

var _ = Describe(cardTransactions, func() {
	// Each entry transacts on a card of its own.
	ConformanceTable("approves or declines by the card's status",
		func(ctx SpecContext, rule func(SpecContext, fixtures.Card)) {
			rule(ctx, fixtures.NewCard(ctx, fixtures.WithAmount(M("10.00"))))
		},
		Destructive, Needs(CapTransactions),
		ConformanceEntry("lowers the card's available balance by an approved transaction, seen at once by GET", SpecID("transactions.lowers-card-s-available"), func(ctx SpecContext, c fixtures.Card) {
			ExpectApproved(ctx, c, M("1.00"), "an ACTIVE card with funds")
		}, Reqs("TXN-10")),
		ConformanceEntry("declines every transaction of a FROZEN card at once", SpecID("transactions.declines-every-transaction"), func(ctx SpecContext, c fixtures.Card) {
			fixtures.SetCardStatus(ctx, c.ID, "FROZEN")
			for _, amt := range []string{"0.01", "1.00", "9.00"} {
				t := Transact(ctx, c.ID, M(amt))
				Expect(t.Approved).To(BeFalse(), "a transaction of %s on a FROZEN card should be declined", amt)
			}
		}, Reqs("TXN-01")),
		ConformanceEntry("keeps a FROZEN card's balance: declined transactions do not change it", SpecID("transactions.keeps-frozen-card-s"), func(ctx SpecContext, c fixtures.Card) {
			fixtures.SetCardStatus(ctx, c.ID, "FROZEN")
			for _, amt := range []string{"0.01", "1.00", "9.00"} {
				Transact(ctx, c.ID, M(amt))
			}
			frozen := fixtures.GetCard(ctx, c.ID)
			Expect(frozen.Status).To(Equal("FROZEN"), "a frozen card is not terminated: it stays FROZEN")
			Expect(frozen.Balance).To(EqualMoney(c.Balance), "a frozen card keeps its balance")
		}, Reqs("TXN-02")),
		ConformanceEntry("makes a card unfrozen after FROZEN usable again: transactions are approved", SpecID("transactions.makes-card-unfrozen-after"), func(ctx SpecContext, c fixtures.Card) {
			fixtures.SetCardStatus(ctx, c.ID, "FROZEN")
			fixtures.SetCardStatus(ctx, c.ID, "ACTIVE")
			ExpectApproved(ctx, c, M("2.50"), "the card was unfrozen")
		}, Reqs("TXN-03")),
	)

	ConformanceIt("declines a transaction above transactionLimit and approves one at or below it", SpecID("transactions.declines-transaction-above"),
		Reqs("TXN-04", "TXN-11", "LIMITS-04"),
		Destructive, Needs(CapTransactions),
		func(ctx SpecContext) {
			c := fixtures.NewCard(ctx, fixtures.WithAmount(M("20.00")))
			SetLimits(ctx, c.ID, fourLimits("5.00", "40.00", "40.00", "40.00"))
			ExpectDeclined(ctx, c, M("5.01"), "above the transactionLimit of 5.00")
			ExpectApproved(ctx, c, M("5.00"), "exactly the transactionLimit")
			ExpectApproved(ctx, c, M("4.99"), "below the transactionLimit")
			ExpectApproved(ctx, c, M("5.00"), "the transactionLimit is per single transaction, not cumulative")
			ExpectDeclined(ctx, c, M("5.01"), "above the transactionLimit of 5.00")
		})

	ConformanceIt("counts dailyLimit cumulatively over the day: a single transaction above it and one taking the day's total above it are declined", SpecID("transactions.counts-dailylimit-cumulatively"),
		Reqs("TXN-05", "TXN-11", "LIMITS-04"),
		Destructive, Needs(CapTransactions),
		func(ctx SpecContext) {
			c := fixtures.NewCard(ctx, fixtures.WithAmount(M("30.00")))
			SetLimits(ctx, c.ID, fourLimits("10.00", "10.00", "40.00", "40.00"))
			ExpectDeclined(ctx, c, M("10.01"), "above the dailyLimit of 10.00")
			ExpectApproved(ctx, c, M("6.00"), "within the dailyLimit")
			ExpectDeclined(ctx, c, M("4.01"), "6.00 + 4.01 exceeds the dailyLimit of 10.00")
			ExpectApproved(ctx, c, M("4.00"), "6.00 + 4.00 reaches exactly the dailyLimit")
			ExpectDeclined(ctx, c, M("0.01"), "the day's total is already at the dailyLimit")
		})

})

var _ = Describe(cardTransactions, func() {
	ConformanceIt("starts the daily total again on the next calendar day (sandbox clock)", SpecID("transactions.starts-daily-total-again"),
		Reqs("TXN-06", "TXN-05"),
		Destructive, Serial, Needs(CapTransactions, CapClock),
		func(ctx SpecContext) {
			toMidday(ctx)
			c := fixtures.NewCard(ctx, fixtures.WithAmount(M("30.00")))
			SetLimits(ctx, c.ID, fourLimits("10.00", "10.00", "40.00", "40.00"))
			ExpectApproved(ctx, c, M("10.00"), "exactly the dailyLimit")
			ExpectDeclined(ctx, c, M("0.01"), "the day's total is at the dailyLimit")
			nextDay(ctx)
			ExpectApproved(ctx, c, M("10.00"), "a new calendar day: the day's total starts again")
			ExpectDeclined(ctx, c, M("0.01"), "the new day's total is at the dailyLimit")
		})

	ConformanceIt("counts monthlyLimit cumulatively over the month, across days, and starts again in the next calendar month (sandbox clock)", SpecID("transactions.counts-monthlylimit"),
		Reqs("TXN-07", "TXN-08", "TXN-11"),
		Destructive, Serial, Needs(CapTransactions, CapClock),
		func(ctx SpecContext) {
			toMidday(ctx)
			c := fixtures.NewCard(ctx, fixtures.WithAmount(M("40.00")))
			SetLimits(ctx, c.ID, fourLimits("10.00", "10.00", "10.00", "40.00"))
			ExpectDeclined(ctx, c, M("10.01"), "above the monthlyLimit of 10.00")
			ExpectApproved(ctx, c, M("6.00"), "within the monthlyLimit")
			nextDay(ctx) // another day of the same month
			ExpectDeclined(ctx, c, M("4.01"), "6.00 + 4.01 exceeds the monthlyLimit of 10.00 within the month")
			ExpectApproved(ctx, c, M("4.00"), "6.00 + 4.00 reaches exactly the monthlyLimit")
			ExpectDeclined(ctx, c, M("0.01"), "the month's total is at the monthlyLimit")
			nextMonth(ctx)
			ExpectApproved(ctx, c, M("10.00"), "a new calendar month: the month's total starts again")
			ExpectDeclined(ctx, c, M("0.01"), "the new month's total is at the monthlyLimit")
		})

	ConformanceIt("counts allTimeLimit over the card's lifetime: declined above it, and not reset by a new day or month (sandbox clock)", SpecID("transactions.counts-alltimelimit-over-card"),
		Reqs("TXN-09", "TXN-11"),
		Destructive, Serial, Needs(CapTransactions, CapClock),
		func(ctx SpecContext) {
			toMidday(ctx)
			c := fixtures.NewCard(ctx, fixtures.WithAmount(M("30.00")))
			SetLimits(ctx, c.ID, fourLimits("10.00", "10.00", "10.00", "10.00"))
			ExpectDeclined(ctx, c, M("10.01"), "above the allTimeLimit of 10.00")
			ExpectApproved(ctx, c, M("6.00"), "within the allTimeLimit")
			ExpectDeclined(ctx, c, M("4.01"), "6.00 + 4.01 exceeds the allTimeLimit")
			ExpectApproved(ctx, c, M("4.00"), "6.00 + 4.00 reaches exactly the allTimeLimit")
			nextDay(ctx)
			ExpectDeclined(ctx, c, M("0.01"), "the allTimeLimit is lifetime: a new day does not reset it")
			nextMonth(ctx)
			ExpectDeclined(ctx, c, M("0.01"), "the allTimeLimit is lifetime: a new month does not reset it")
		})
})
