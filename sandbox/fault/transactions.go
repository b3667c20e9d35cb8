package fault

import "net/http"

// Faults of the area "Spend limits and card transactions" (the registry: fault.go).

var (
	FrozenCardApproves = declare("Spend limits and card transactions", "card-frozen-approves", "Card transactions on a FROZEN card are approved.",
		"TXN-01", "TXN-02")
	LimitAllTimeResetsMonthly = declare("Spend limits and card transactions", "limit-alltime-resets-monthly", "The all-time spent total restarts with each calendar month.",
		"TXN-09")
	LimitAtLimitDeclined = declare("Spend limits and card transactions", "limit-at-limit-declined", "A transaction exactly at the transactionLimit is declined (off by one cent).",
		"TXN-04")
	LimitDailyNeverResets = declare("Spend limits and card transactions", "limit-daily-never-resets", "The day's spent total is never reset on a new calendar day.",
		"TXN-06")
	LimitDailyNotCumulative = declare("Spend limits and card transactions", "limit-daily-not-cumulative", "The dailyLimit is compared with the single amount, not the day's total.",
		"TXN-05")
	LimitsEchoCents = declare("Spend limits and card transactions", "limits-echo-cents", "PUT spend-limits echoes the limits in cents (2550 for 25.50 USD).",
		"LIMITS-02")
	LimitsCardIDAsAddressed = declare("Spend limits and card transactions", "limits-card-id-as-addressed", "PUT spend-limits answers cardId as the path addressed the card (its reference, when addressed by reference).",
		"LIMITS-03")
	LimitsNotApplied = declare("Spend limits and card transactions", "limits-not-applied", "Spend limits are echoed but never stored, so no transaction is declined for them.",
		"LIMITS-04", "TXN-04")
	TxnFrozenDeclineDebits = declare("Spend limits and card transactions", "txn-frozen-decline-debits", "A FROZEN card's transaction is declined but still taken from the card balance.",
		"TXN-02")
	TxnUnfreezeStillDeclines = declare("Spend limits and card transactions", "txn-unfreeze-still-declines", "A card unfrozen after FROZEN keeps declining transactions.",
		"TXN-03")
	TxnApprovedNotDebited = declare("Spend limits and card transactions", "txn-approved-not-debited", "An approved card transaction leaves the card's balance unchanged.",
		"TXN-10")
	LimitMonthlyNotCumulative = declare("Spend limits and card transactions", "limit-monthly-not-cumulative", "The monthlyLimit is compared with the single amount, not the month's total.",
		"TXN-07")
	LimitAllTimeNotCumulative = declare("Spend limits and card transactions", "limit-alltime-not-cumulative", "The allTimeLimit is compared with the single amount, not the lifetime total.",
		"TXN-09")
)

var _ = declareMember("Spend limits and card transactions", "limits-echo-wrong", "PUT spend-limits echoes a transactionLimit of 0 whatever was set.",
	http.MethodPut, pathEnds("/cards/", "/spend-limits"),
	func(top map[string]any) {
		if d := dataMember(top); d != nil {
			if sl, ok := d["spendLimits"].(map[string]any); ok {
				sl["transactionLimit"] = 0
			}
		}
	}, "LIMITS-02")
