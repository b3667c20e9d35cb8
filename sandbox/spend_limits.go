package sandbox

import (
	"net/http"

	"github.com/merchant-harness/mph/money"
	"github.com/merchant-harness/mph/sandbox/answer"
	"github.com/merchant-harness/mph/sandbox/fault"
	"github.com/merchant-harness/mph/sandbox/state"
	"github.com/merchant-harness/mph/sandbox/validate"
	"github.com/merchant-harness/mph/sandbox/variant"
)

type spendLimitsJSON struct {
	TransactionLimit *money.Amount `json:"transactionLimit"`
	DailyLimit       *money.Amount `json:"dailyLimit"`
	MonthlyLimit     *money.Amount `json:"monthlyLimit"`
	AllTimeLimit     *money.Amount `json:"allTimeLimit"`
}

type spendLimitsAnswer struct {
	Message     string          `json:"message"`
	CardID      string          `json:"cardId"`
	SpendLimits spendLimitsJSON `json:"spendLimits"`
}

// handleSpendLimits is PUT /cards/{id}/spend-limits: supplied limits replace
// their value, the others keep theirs.
func (s *Server) handleSpendLimits(rc *answer.Req) {
	b, ok := rc.ReadBody()
	if !ok {
		return
	}
	cleared := s.set.NonPositiveLimits(b)
	v := validate.Of(b)
	var set [4]int64
	supplied := 0
	for _, c := range cleared {
		if c {
			supplied++
		}
	}
	for i, n := range state.LimitNames {
		if _, has := v.Raw(n); has {
			supplied++
		}
		if a, ok := v.Amount(n, false, 0, true); ok {
			set[i] = int64(a)
		}
	}
	if supplied == 0 {
		v.Add("at least one of transactionLimit, dailyLimit, monthlyLimit, allTimeLimit must be supplied")
	}
	if rc.Invalid(&v) {
		return
	}
	s.withCard(rc, rc.St, func(c *state.Card) reply {
		if c.Frozen && s.variants.On(variant.LimitsFrozenRefused) {
			return s.fail(rc, http.StatusForbidden, "Card is frozen: unfreeze it before changing its limits")
		}
		if msg := s.set.LimitRules(s.set.MergedLimits(c, set, cleared)); msg != "" {
			return s.fail(rc, http.StatusBadRequest, msg)
		}
		id, l := c.ID, s.setLimits(c, set)
		for i, cl := range cleared {
			if cl {
				l[i], c.Limits[i] = 0, 0
			}
		}
		if s.faults.On(fault.LimitsCardIDAsAddressed) {
			id = rc.ID // the id or reference as the path gave it
		}
		return func() { s.writeLimits(rc, id, l) }
	})
}

// setLimits applies the supplied limits (0: not supplied) to c and returns
// the limits to answer; the caller holds the state lock.
func (s *Server) setLimits(c *state.Card, set [4]int64) [4]int64 {
	l := s.set.LimitsBase(c)
	for i, n := range set {
		if n > 0 {
			l[i] = n
		} else if s.faults.On(fault.LimitsResetOnUpdate) {
			l[i] = 1000_00
		}
	}
	if !s.faults.On(fault.LimitsNotApplied) {
		c.Limits = l
	}
	return l
}

// writeLimits answers the spend limits l of card id.
func (s *Server) writeLimits(rc *answer.Req, id string, l [4]int64) {
	if s.faults.On(fault.LimitsEchoCents) {
		cents := map[string]int64{}
		for i, n := range state.LimitNames {
			cents[n] = l[i]
		}
		rc.EnvelopeA(http.StatusOK, map[string]any{"message": "Spend limits updated", "cardId": id, "spendLimits": cents})
		return
	}
	rc.EnvelopeA(http.StatusOK, spendLimitsAnswer{
		Message: "Spend limits updated",
		CardID:  id,
		SpendLimits: spendLimitsJSON{
			TransactionLimit: s.set.ShownLimit(l[state.LimTransaction]),
			DailyLimit:       s.set.ShownLimit(l[state.LimDaily]),
			MonthlyLimit:     s.set.ShownLimit(l[state.LimMonthly]),
			AllTimeLimit:     s.set.ShownLimit(l[state.LimAllTime]),
		},
	})
}
