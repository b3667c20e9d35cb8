package sandbox

import (
	"net/http"

	"github.com/merchant-harness/mph/sandbox/answer"
	"github.com/merchant-harness/mph/sandbox/fault"
	"github.com/merchant-harness/mph/sandbox/state"
	"github.com/merchant-harness/mph/sandbox/validate"
	"github.com/merchant-harness/mph/sandbox/variant"
	"github.com/merchant-harness/mph/sandbox/wording"
)

// handleStatus is PATCH /cards/{id}/status: freeze or unfreeze. A request for
// the current status succeeds without changing updatedAt.
func (s *Server) handleStatus(rc *answer.Req) {
	b, ok := rc.ReadBody()
	if !ok {
		return
	}
	if s.set.EmptyEnum(rc, b, "status", "ACTIVE", "FROZEN") {
		return
	}
	v := validate.Of(b)
	status := v.Str("status", true, validate.MaxShort)
	v.OneOf("status", status, "ACTIVE", "FROZEN")
	if rc.Invalid(&v) {
		return
	}
	st := rc.St
	if s.faults.On(fault.CardCrossMerchantFreeze) {
		if other, oc := rc.World.CardByIDAnywhere(rc.ID); oc != nil {
			st = other // the card's owner, whoever asks
		}
	}
	s.withCard(rc, st, func(c *state.Card) reply {
		if s.variants.OnAny(variant.StatusSameRefused, variant.StatusSame409) && (status == "FROZEN") == c.Frozen {
			code := http.StatusBadRequest
			if s.variants.On(variant.StatusSame409) {
				code = http.StatusConflict
			}
			return s.fail(rc, code, "Card is already "+status)
		}
		out := s.setStatus(rc, st, c, status == "FROZEN")
		return func() {
			rc.EnvelopeA(http.StatusOK, cardMessage{Message: "Card status updated to " + status, Card: out})
		}
	})
}

// setStatus freezes or unfreezes c; the caller holds st's lock.
func (s *Server) setStatus(rc *answer.Req, st *state.EnvState, c *state.Card, frozen bool) state.CardJSON {
	was := c.Frozen
	if frozen != c.Frozen {
		c.Frozen = frozen
		c.UpdatedAt = wording.Timestamp(rc.Now)
	}
	if s.faults.On(fault.StatusFreezeSweeps) && frozen && !was {
		st.Vault += c.Balance
		c.Balance = 0
	}
	if s.faults.On(fault.TxnUnfreezeStillDeclines) && frozen {
		c.FrozenOnce = true
	}
	out := c.JSON()
	if s.faults.On(fault.StatusFreezeNotPersisted) && frozen {
		c.Frozen = false
	}
	if s.faults.On(fault.StatusUnfreezeNotPersisted) && was && !frozen {
		c.Frozen = true
	}
	return out
}
