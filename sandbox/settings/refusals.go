package settings

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"

	"github.com/merchant-harness/mph/sandbox/answer"
	"github.com/merchant-harness/mph/sandbox/state"
	"github.com/merchant-harness/mph/sandbox/validate"
	"github.com/merchant-harness/mph/sandbox/variant"
	"github.com/merchant-harness/mph/sandbox/wording"
)

// EmptyEnum answers 400 with one string when name is "" under
// empty-enum-as-invalid-value; it reports whether it answered.
func (s *Settings) EmptyEnum(q *answer.Req, b validate.Body, name string, allowed ...string) bool {
	if !s.v.On(variant.EmptyEnumInvalid) || string(b[name]) != `""` {
		return false
	}
	q.Error(http.StatusBadRequest, name+" must be "+strings.Join(allowed[:len(allowed)-1], ", ")+" or "+allowed[len(allowed)-1])
	return true
}

// BodyBeforeAuth refuses a malformed body before the token is checked
// (checks-body-before-auth); it reports whether it answered. The body is
// put back for the handler.
func (s *Settings) BodyBeforeAuth(q *answer.Req) bool {
	r := q.R
	if !s.v.On(variant.ValidationBeforeAuth) || (r.Method != http.MethodPost && r.Method != http.MethodPut && r.Method != http.MethodPatch) {
		return false
	}
	raw, err := io.ReadAll(io.LimitReader(r.Body, answer.MaxBody+1))
	if err != nil {
		return false
	}
	r.Body = io.NopCloser(bytes.NewReader(raw))
	raw = bytes.TrimSpace(raw)
	switch {
	case len(raw) == 0 || len(raw) > answer.MaxBody:
		return false
	case !answer.IsJSON(r.Header.Get("Content-Type")) && !s.v.On(variant.CTAnyParsed):
		q.Error(http.StatusBadRequest, wording.ContentType)
	case !json.Valid(raw):
		q.Error(http.StatusBadRequest, wording.MalformedJSON)
	case raw[0] != '{' && !(s.v.On(variant.NullBodyNoop) && string(raw) == "null"):
		q.Error(http.StatusBadRequest, wording.NotObject)
	default:
		return false
	}
	return true
}

// ExistenceBeforeAuth answers 404 for an identifier no merchant has before
// the token is checked (checks-existence-before-auth).
func (s *Settings) ExistenceBeforeAuth(q *answer.Req, rest string) bool {
	if !s.v.On(variant.ExistenceBeforeAuth) || q.ID == "" {
		return false
	}
	gift := strings.HasPrefix(rest, "/gift-cards/")
	for _, m := range q.World.Merchants {
		for _, st := range m.Envs {
			st.Mu.RLock()
			found := (gift && s.FindGiftOrder(st, q.ID) != nil) || (!gift && st.FindCard(q.ID) != nil)
			st.Mu.RUnlock()
			if found {
				return false
			}
		}
	}
	if gift {
		q.GiftNotFound(q.ID)
	} else {
		q.Error(http.StatusNotFound, wording.CardNotFound)
	}
	return true
}

// CardBeforeBody answers 404 for an unknown card of a card route with a
// body before the body is read (checks-card-before-body).
func (s *Settings) CardBeforeBody(q *answer.Req, rest string) bool {
	if !s.v.On(variant.NotFoundFirst) || q.ID == "" || !strings.HasPrefix(rest, "/cards/") || q.R.Method == http.MethodGet {
		return false
	}
	if q.St.Env != state.EnvTest && strings.HasSuffix(rest, "/simulate-webhook") {
		return false // the environment check comes first there (live-simulation)
	}
	q.St.Mu.RLock()
	c := q.St.FindCard(q.ID)
	q.St.Mu.RUnlock()
	if c != nil {
		return false
	}
	q.Error(http.StatusNotFound, wording.CardNotFound)
	return true
}

// LiveSimulationCardFirst answers 404 for a live simulation on a card
// this environment lacks (live-simulation-card-first); it reports whether
// it answered.
func (s *Settings) LiveSimulationCardFirst(q *answer.Req) bool {
	if !s.v.On(variant.LiveSimCardFirst) || q.St.Env == state.EnvTest {
		return false
	}
	q.St.Mu.RLock()
	c := q.St.FindCard(q.ID)
	q.St.Mu.RUnlock()
	if c != nil {
		return false
	}
	q.Error(http.StatusNotFound, wording.CardNotFound)
	return true
}

// NonPositiveLimits removes the limits of 0 or less from b under
// spend-limits-non-positive-unsets and reports which it removed.
func (s *Settings) NonPositiveLimits(b validate.Body) (cleared [4]bool) {
	if !s.v.On(variant.LimitsLenient) {
		return cleared
	}
	for i, n := range state.LimitNames {
		var f float64
		if r, ok := b[n]; ok && json.Unmarshal(r, &f) == nil && f <= 0 {
			delete(b, n)
			cleared[i] = true
		}
	}
	return cleared
}
