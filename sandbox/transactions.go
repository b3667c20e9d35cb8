package sandbox

import (
	"net/http"

	"github.com/merchant-harness/mph/money"
	"github.com/merchant-harness/mph/sandbox/fault"
	"github.com/merchant-harness/mph/sandbox/ids"
	"github.com/merchant-harness/mph/sandbox/validate"
	"github.com/merchant-harness/mph/sandbox/webhook"
	"github.com/merchant-harness/mph/sandbox/wording"
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
	v := validate.Of(b)
	amt, _ := v.Amount("amount", true, 0, true)
	if s.invalid(rc, &v) {
		return
	}
	st, c := rc.world.cardByIDAnywhere(rc.p1)
	if c == nil {
		s.writeError(rc, http.StatusNotFound, wording.CardNotFound)
		return
	}
	t := &txn{id: "txn_" + ids.Hex(12), st: st, cardID: c.id, amount: int64(amt)}
	reason, bal, ref := s.authorize(rc, st, c, t)

	rc.world.txMu.Lock()
	rc.world.txns[t.id] = t
	rc.world.txMu.Unlock()

	kind := webhook.Kinds["authorization"]
	ans := txnAnswer{TransactionID: t.id, Approved: t.approved, BalanceAmount: money.Amount(bal)}
	if !t.approved {
		kind = webhook.Kinds["decline"]
		ans.DeclineReason = &reason
	}
	if !s.faults.On(fault.WebhookTxnNotDelivered) && s.txnWebhook(t.approved) {
		s.dispatch(rc.r.Context(), rc.world, st, kind, webhook.Data{
			Reference: t.id, CardID: c.id, CardReference: ref, Amount: amt, Currency: "USD",
		})
	}
	writeJSON(rc.w, http.StatusOK, ans)
}

// authorize decides t on card c under st's lock: the decline reason ("" when
// approved) and the card's balance and reference afterwards. Approval moves
// the money at once.
func (s *Server) authorize(rc *reqCtx, st *envState, c *card, t *txn) (reason string, bal int64, ref string) {
	a := t.amount
	st.mu.Lock()
	defer st.mu.Unlock()
	reason = s.declineReason(rc, c, a)
	if reason == "" {
		if !s.faults.On(fault.TxnApprovedNotDebited) {
			c.balance -= a
		}
		c.daySpent += a
		c.monthSpent += a
		c.allTimeSpent += a
		st.spent += a
		c.updatedAt = ts(rc.now)
		t.approved = true
	} else if reason == "card_frozen" && s.faults.On(fault.TxnFrozenDeclineDebits) {
		c.balance -= a // declined, yet taken from the balance
	}
	return reason, c.balance, c.ref
}

// declineReason starts the card's day and month totals afresh when the
// sandbox clock entered a new one, then checks status, balance and each
// limit in that order; the caller holds the state lock.
func (s *Server) declineReason(rc *reqCtx, c *card, a int64) string {
	now := s.limitDay(rc.now)
	day := now.Year()*10000 + int(now.Month())*100 + now.Day()
	month := day / 100
	if c.dayKey != day && !s.faults.On(fault.LimitDailyNeverResets) {
		c.dayKey, c.daySpent = day, 0
	}
	if c.monthKey != month {
		c.monthKey, c.monthSpent = month, 0
		if s.faults.On(fault.LimitAllTimeResetsMonthly) {
			c.allTimeSpent = 0
		}
	}
	daySpent, monthSpent, allTimeSpent := c.daySpent, c.monthSpent, c.allTimeSpent
	if s.faults.On(fault.LimitDailyNotCumulative) {
		daySpent = 0
	}
	if s.faults.On(fault.LimitMonthlyNotCumulative) {
		monthSpent = 0
	}
	if s.faults.On(fault.LimitAllTimeNotCumulative) {
		allTimeSpent = 0
	}
	switch {
	case (c.frozen || (s.faults.On(fault.TxnUnfreezeStillDeclines) && c.frozenOnce)) && !s.faults.On(fault.FrozenCardApproves):
		return "card_frozen"
	case a > c.balance:
		return "insufficient_funds"
	case c.limits[limTransaction] > 0 && (a > c.limits[limTransaction] || (s.faults.On(fault.LimitAtLimitDeclined) && a == c.limits[limTransaction])):
		return "transaction_limit"
	case c.limits[limDaily] > 0 && daySpent+a > c.limits[limDaily]:
		return "daily_limit"
	case c.limits[limMonthly] > 0 && monthSpent+a > c.limits[limMonthly]:
		return "monthly_limit"
	case c.limits[limAllTime] > 0 && allTimeSpent+a > c.limits[limAllTime]:
		return "all_time_limit"
	}
	return ""
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
	if !s.faults.On(fault.WebhookTxnNotDelivered) {
		s.dispatch(rc.r.Context(), w, t.st, webhook.Kinds["settlement"], webhook.Data{
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
