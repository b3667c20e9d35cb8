package sandbox

import (
	"net/http"

	"github.com/merchant-harness/mph/money"
)

type txnAnswer struct {
	TransactionID string       `json:"transactionId"`
	Approved      bool         `json:"approved"`
	DeclineReason *string      `json:"declineReason"`
	BalanceAmount money.Amount `json:"balanceAmount"`
}

// ctlTransaction simulates a card authorization of an amount: approved or
// declined by card status, balance and each spend limit, in that order.
// Approval lowers the card balance at once; the money leaves the system and
// is counted in spentAmount.
func (s *Server) ctlTransaction(rc *reqCtx) {
	b, ok := s.readBody(rc)
	if !ok {
		return
	}
	v := validator{b: b}
	amt, _ := v.amount("amount", true, 0, true)
	if v.failed(s, rc) {
		return
	}
	st, c := rc.world.cardByIDAnywhere(rc.p1)
	if c == nil {
		s.writeError(rc, http.StatusNotFound, msgCardNotFound)
		return
	}
	a := int64(amt)
	day := rc.now.UTC().Year()*10000 + int(rc.now.UTC().Month())*100 + rc.now.UTC().Day()
	month := day / 100
	t := &txn{id: "txn_" + randHex(12), st: st, cardID: c.id, amount: a}

	st.mu.Lock()
	if c.dayKey != day && !s.faults.limitDailyNeverResets {
		c.dayKey, c.daySpent = day, 0
	}
	if c.monthKey != month {
		c.monthKey, c.monthSpent = month, 0
		if s.faults.limitAllTimeResetsMonthly {
			c.allTimeSpent = 0
		}
	}
	daySpent := c.daySpent
	if s.faults.limitDailyNotCumulative {
		daySpent = 0
	}
	reason := ""
	switch {
	case (c.frozen || (s.faults.txnUnfreezeStillDeclines && c.frozenOnce)) && !s.faults.frozenCardApproves:
		reason = "card_frozen"
	case a > c.balance:
		reason = "insufficient_funds"
	case c.limits[limTransaction] > 0 && (a > c.limits[limTransaction] || (s.faults.limitAtLimitDeclined && a == c.limits[limTransaction])):
		reason = "transaction_limit"
	case c.limits[limDaily] > 0 && daySpent+a > c.limits[limDaily]:
		reason = "daily_limit"
	case c.limits[limMonthly] > 0 && c.monthSpent+a > c.limits[limMonthly]:
		reason = "monthly_limit"
	case c.limits[limAllTime] > 0 && c.allTimeSpent+a > c.limits[limAllTime]:
		reason = "all_time_limit"
	}
	if reason == "" {
		c.balance -= a
		c.daySpent += a
		c.monthSpent += a
		c.allTimeSpent += a
		st.spent += a
		c.updatedAt = ts(rc.now)
		t.approved = true
	} else if reason == "card_frozen" && s.faults.txnFrozenDeclineDebits {
		c.balance -= a // declined, yet taken from the balance
	}
	bal, ref := c.balance, c.ref
	st.mu.Unlock()

	rc.world.txMu.Lock()
	rc.world.txns[t.id] = t
	rc.world.txMu.Unlock()

	kind := eventKinds["authorization"]
	ans := txnAnswer{TransactionID: t.id, Approved: t.approved, BalanceAmount: money.Amount(bal)}
	if !t.approved {
		kind = eventKinds["decline"]
		ans.DeclineReason = &reason
	}
	if !s.faults.webhookTxnNotDelivered {
		s.dispatch(rc.r.Context(), rc.world, st, kind, eventData{
			Reference: t.id, CardID: c.id, CardReference: ref, Amount: amt, Currency: "USD",
		})
	}
	writeJSON(rc.w, http.StatusOK, ans)
}

type settleAnswer struct {
	TransactionID string       `json:"transactionId"`
	Settled       bool         `json:"settled"`
	Amount        money.Amount `json:"amount"`
	CardID        string       `json:"cardId"`
}

// ctlSettle settles an approved transaction once (409 afterwards) and emits
// the settlement webhook. Money already moved at authorization.
func (s *Server) ctlSettle(rc *reqCtx) {
	w := rc.world
	w.txMu.Lock()
	t := w.txns[rc.p1]
	if t == nil {
		w.txMu.Unlock()
		s.writeError(rc, http.StatusNotFound, "Transaction not found")
		return
	}
	if !t.approved {
		w.txMu.Unlock()
		s.writeError(rc, http.StatusBadRequest, "transaction was declined and cannot be settled")
		return
	}
	if t.settled {
		w.txMu.Unlock()
		s.writeError(rc, http.StatusConflict, "transaction already settled")
		return
	}
	t.settled = true
	w.txMu.Unlock()

	t.st.mu.RLock()
	ref := ""
	if c := t.st.cardByID[t.cardID]; c != nil {
		ref = c.ref
	}
	t.st.mu.RUnlock()
	if !s.faults.webhookTxnNotDelivered {
		s.dispatch(rc.r.Context(), w, t.st, eventKinds["settlement"], eventData{
			Reference: t.id, CardID: t.cardID, CardReference: ref, Amount: money.Amount(t.amount), Currency: "USD",
		})
	}
	writeJSON(rc.w, http.StatusOK, settleAnswer{TransactionID: t.id, Settled: true, Amount: money.Amount(t.amount), CardID: t.cardID})
}

// cardByIDAnywhere finds a card by id in any merchant and environment.
func (w *world) cardByIDAnywhere(id string) (*envState, *card) {
	for _, m := range w.merchants {
		for _, st := range m.envs {
			st.mu.RLock()
			c := st.cardByID[id]
			st.mu.RUnlock()
			if c != nil {
				return st, c
			}
		}
	}
	return nil, nil
}
