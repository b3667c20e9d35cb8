package sandbox

import (
	"net/http"

	"github.com/merchant-harness/mph/sandbox/answer"
	"github.com/merchant-harness/mph/sandbox/fault"
	"github.com/merchant-harness/mph/sandbox/state"
	"github.com/merchant-harness/mph/sandbox/wording"
)

// reply is an answer decided under a merchant's lock and sent once the lock
// is released.
type reply func()

// fail is the reply of an error envelope.
func (s *Server) fail(rc *answer.Req, code int, msg string) reply {
	return func() { rc.Error(code, msg) }
}

// withCard runs f on the card rc names (by id, then reference) under st's
// write lock and sends f's reply after releasing it. An unknown card
// answers 404 "Card not found" without calling f.
func (s *Server) withCard(rc *answer.Req, st *state.EnvState, f func(c *state.Card) reply) {
	s.onCard(rc, st, true, f)
}

// readCard is withCard under the read lock: f must not change the state.
func (s *Server) readCard(rc *answer.Req, st *state.EnvState, f func(c *state.Card) reply) {
	s.onCard(rc, st, false, f)
}

func (s *Server) onCard(rc *answer.Req, st *state.EnvState, write bool, f func(c *state.Card) reply) {
	if s.faults.On(fault.CardCrossMerchantLookup) {
		if other, oc := rc.World.CardByIDAnywhere(rc.ID); oc != nil {
			st = other // the card's owner, whoever asks
		}
	}
	rep := func() reply {
		if write {
			st.Mu.Lock()
			defer st.Mu.Unlock()
		} else {
			st.Mu.RLock()
			defer st.Mu.RUnlock()
		}
		c := st.FindCard(rc.ID)
		if c == nil {
			return s.fail(rc, http.StatusNotFound, wording.CardNotFound)
		}
		return f(c)
	}()
	rep()
}
