package sandbox

import (
	"net/http"

	"github.com/merchant-harness/mph/money"
	"github.com/merchant-harness/mph/sandbox/answer"
	"github.com/merchant-harness/mph/sandbox/fault"
	"github.com/merchant-harness/mph/sandbox/ids"
	"github.com/merchant-harness/mph/sandbox/state"
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
func (s *Server) ctlTransaction(rc *answer.Req) {
	b, ok := rc.ReadBody()
	if !ok {
		return
	}
	v := validate.Of(b)
	amt, _ := v.Amount("amount", true, 0, true)
	if rc.Invalid(&v) {
		return
	}
	st, c := rc.World.CardByIDAnywhere(rc.ID)
	if c == nil {
		rc.Error(http.StatusNotFound, wording.CardNotFound)
		return
	}
	t := &state.Txn{ID: "txn_" + ids.Hex(12), State: st, CardID: c.ID, Amount: int64(amt)}
	reason, bal, ref := s.authorize(rc, st, c, t)

	rc.World.TxMu.Lock()
	rc.World.Txns[t.ID] = t
	rc.World.TxMu.Unlock()

	kind := webhook.Kinds["authorization"]
	ans := txnAnswer{TransactionID: t.ID, Approved: t.Approved, BalanceAmount: money.Amount(bal)}
	if !t.Approved {
		kind = webhook.Kinds["decline"]
		ans.DeclineReason = &reason
	}
	if !s.faults.On(fault.WebhookTxnNotDelivered) && s.set.TxnWebhook(t.Approved) {
		s.events.Dispatch(rc.R.Context(), rc.World, st, kind, webhook.Data{
			Reference: t.ID, CardID: c.ID, CardReference: ref, Amount: amt, Currency: "USD",
		})
	}
	rc.JSON(http.StatusOK, ans)
}

// authorize decides t on card c under st's lock: the decline reason ("" when
// approved) and the card's balance and reference afterwards. Approval moves
// the money at once.
func (s *Server) authorize(rc *answer.Req, st *state.EnvState, c *state.Card, t *state.Txn) (reason string, bal int64, ref string) {
	a := t.Amount
	st.Mu.Lock()
	defer st.Mu.Unlock()
	reason = s.declineReason(rc, c, a)
	if reason == "" {
		if !s.faults.On(fault.TxnApprovedNotDebited) {
			c.Balance -= a
		}
		c.DaySpent += a
		c.MonthSpent += a
		c.AllTimeSpent += a
		st.Spent += a
		c.UpdatedAt = wording.Timestamp(rc.Now)
		t.Approved = true
	} else if reason == "card_frozen" && s.faults.On(fault.TxnFrozenDeclineDebits) {
		c.Balance -= a // declined, yet taken from the balance
	}
	return reason, c.Balance, c.Ref
}

// declineReason starts the card's day and month totals afresh when the
// sandbox clock entered a new one, then checks status, balance and each
// limit in that order; the caller holds the state lock.
func (s *Server) declineReason(rc *answer.Req, c *state.Card, a int64) string {
	now := s.set.LimitDay(rc.Now)
	day := now.Year()*10000 + int(now.Month())*100 + now.Day()
	month := day / 100
	if c.DayKey != day && !s.faults.On(fault.LimitDailyNeverResets) {
		c.DayKey, c.DaySpent = day, 0
	}
	if c.MonthKey != month {
		c.MonthKey, c.MonthSpent = month, 0
		if s.faults.On(fault.LimitAllTimeResetsMonthly) {
			c.AllTimeSpent = 0
		}
	}
	daySpent, monthSpent, allTimeSpent := c.DaySpent, c.MonthSpent, c.AllTimeSpent
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
	case (c.Frozen || (s.faults.On(fault.TxnUnfreezeStillDeclines) && c.FrozenOnce)) && !s.faults.On(fault.FrozenCardApproves):
		return "card_frozen"
	case a > c.Balance:
		return "insufficient_funds"
	case c.Limits[state.LimTransaction] > 0 && (a > c.Limits[state.LimTransaction] || (s.faults.On(fault.LimitAtLimitDeclined) && a == c.Limits[state.LimTransaction])):
		return "transaction_limit"
	case c.Limits[state.LimDaily] > 0 && daySpent+a > c.Limits[state.LimDaily]:
		return "daily_limit"
	case c.Limits[state.LimMonthly] > 0 && monthSpent+a > c.Limits[state.LimMonthly]:
		return "monthly_limit"
	case c.Limits[state.LimAllTime] > 0 && allTimeSpent+a > c.Limits[state.LimAllTime]:
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
func (s *Server) ctlSettle(rc *answer.Req) {
	w := rc.World
	w.TxMu.Lock()
	t := w.Txns[rc.ID]
	if t == nil {
		w.TxMu.Unlock()
		rc.Error(http.StatusNotFound, "Transaction not found")
		return
	}
	if !t.Approved {
		w.TxMu.Unlock()
		rc.Error(http.StatusBadRequest, "transaction was declined and cannot be settled")
		return
	}
	if t.Settled {
		w.TxMu.Unlock()
		rc.Error(http.StatusConflict, "transaction already settled")
		return
	}
	t.Settled = true
	w.TxMu.Unlock()

	t.State.Mu.RLock()
	ref := ""
	if c := t.State.CardByID[t.CardID]; c != nil {
		ref = c.Ref
	}
	t.State.Mu.RUnlock()
	if !s.faults.On(fault.WebhookTxnNotDelivered) {
		s.events.Dispatch(rc.R.Context(), w, t.State, webhook.Kinds["settlement"], webhook.Data{
			Reference: t.ID, CardID: t.CardID, CardReference: ref, Amount: money.Amount(t.Amount), Currency: "USD",
		})
	}
	rc.JSON(http.StatusOK, settleAnswer{TransactionID: t.ID, Settled: true, Amount: money.Amount(t.Amount), CardID: t.CardID})
}
