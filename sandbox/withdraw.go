package sandbox

import (
	"net/http"

	"github.com/merchant-harness/mph/money"
)

type cardMessage struct {
	Message string   `json:"message"`
	Card    cardJSON `json:"card"`
}

// handleWithdraw is POST /cards/{id}/withdraw: the card pays amount, the vault
// receives amount - withdrawalFee and the fee is collected, so money is
// conserved. Allowed on FROZEN cards: a sweep is not a card transaction.
func (s *Server) handleWithdraw(rc *reqCtx) {
	b, ok := s.readBody(rc)
	if !ok {
		return
	}
	v := validator{b: b}
	minAmt := money.Amount(minWithdrawal)
	if s.faults.withdrawMinOffByCent {
		minAmt-- // 0.09 accepted
	}
	amt, _ := v.amount("amount", true, minAmt, false)
	if v.failed(s, rc) {
		return
	}
	st := rc.st
	st.mu.Lock()
	c := st.findCard(rc.p1)
	if c == nil {
		st.mu.Unlock()
		s.writeError(rc, http.StatusNotFound, msgCardNotFound)
		return
	}
	if c.frozen && s.variants.withdrawFrozenRefused {
		st.mu.Unlock()
		s.writeError(rc, http.StatusForbidden, "Card is frozen: unfreeze it before withdrawing")
		return
	}
	if int64(amt) > c.balance && !s.faults.withdrawOverBalance {
		avail := c.balance
		st.mu.Unlock()
		s.writeError(rc, http.StatusBadRequest,
			"Insufficient card balance: requested "+amt.String()+" USD, available "+money.Amount(avail).String()+" USD")
		return
	}
	c.balance -= int64(amt)
	switch {
	case s.variants.withdrawFullCredit:
		st.vault += int64(amt) // the fee is waived
	case !s.faults.withdrawNoVaultCredit:
		st.vault += int64(amt) - withdrawalFee
		st.fees += withdrawalFee
	default:
		st.fees += withdrawalFee
	}
	c.updatedAt = ts(rc.now)
	out := c.json()
	if s.faults.withdrawNotPersisted {
		c.balance += int64(amt) // the answer shows the new balance; the card keeps the old one
	}
	st.mu.Unlock()
	s.writeA(rc, http.StatusOK, cardMessage{Message: "Withdrew " + amt.String() + " USD to the vault", Card: out})
}
