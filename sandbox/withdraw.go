package sandbox

import (
	"net/http"

	"github.com/merchant-harness/mph/money"
	"github.com/merchant-harness/mph/sandbox/answer"
	"github.com/merchant-harness/mph/sandbox/fault"
	"github.com/merchant-harness/mph/sandbox/state"
	"github.com/merchant-harness/mph/sandbox/validate"
	"github.com/merchant-harness/mph/sandbox/variant"
	"github.com/merchant-harness/mph/sandbox/wording"
)

type cardMessage struct {
	Message string         `json:"message"`
	Card    state.CardJSON `json:"card"`
}

// handleWithdraw is POST /cards/{id}/withdraw: the card pays amount, the vault
// receives amount - withdrawalFee and the fee is collected, so money is
// conserved. Allowed on FROZEN cards: a sweep is not a card transaction.
func (s *Server) handleWithdraw(rc *answer.Req) {
	b, ok := rc.ReadBody()
	if !ok {
		return
	}
	v := validate.Of(b)
	minAmt := money.Amount(state.MinWithdrawal)
	if s.faults.On(fault.WithdrawMinOffByCent) {
		minAmt-- // 0.09 accepted
	}
	amt, _ := v.Amount("amount", true, minAmt, false)
	if rc.Invalid(&v) {
		return
	}
	st := rc.St
	s.withCard(rc, st, func(c *state.Card) reply {
		if c.Frozen && s.variants.On(variant.WithdrawFrozenRefused) {
			return s.fail(rc, http.StatusForbidden, "Card is frozen: unfreeze it before withdrawing")
		}
		if s.set.WithdrawDebit(amt) > c.Balance && !s.faults.On(fault.WithdrawOverBalance) {
			return s.fail(rc, http.StatusBadRequest,
				"Insufficient card balance: requested "+amt.String()+" USD, available "+money.Amount(c.Balance).String()+" USD")
		}
		out := s.withdraw(rc, st, c, amt)
		return func() {
			rc.EnvelopeA(http.StatusOK, cardMessage{Message: "Withdrew " + amt.String() + " USD to the vault", Card: out})
		}
	})
}

// withdraw moves amt from c to the vault, less the fee; the caller holds
// st's lock.
func (s *Server) withdraw(rc *answer.Req, st *state.EnvState, c *state.Card, amt money.Amount) state.CardJSON {
	c.Balance -= s.set.WithdrawDebit(amt)
	switch {
	case s.variants.On(variant.WithdrawFullCredit):
		st.Vault += int64(amt) // the fee is waived
	case s.variants.On(variant.WithdrawFeeOnCard):
		st.Vault += int64(amt) // the card paid the fee
		st.Fees += state.WithdrawalFee
	case !s.faults.On(fault.WithdrawNoVaultCredit):
		st.Vault += int64(amt) - state.WithdrawalFee
		st.Fees += state.WithdrawalFee
	default:
		st.Fees += state.WithdrawalFee
	}
	c.UpdatedAt = wording.Timestamp(rc.Now)
	out := c.JSON()
	if s.faults.On(fault.WithdrawNotPersisted) {
		c.Balance += int64(amt) // the answer shows the new balance; the card keeps the old one
	}
	return out
}
