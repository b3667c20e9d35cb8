package sandbox

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

// emptyEnum answers 400 with one string when name is "" under
// empty-enum-as-invalid-value; it reports whether it answered.
func (s *Server) emptyEnum(rc *reqCtx, b validate.Body, name string, allowed ...string) bool {
	if !s.variants.On(variant.EmptyEnumInvalid) || string(b[name]) != `""` {
		return false
	}
	rc.Error(http.StatusBadRequest, name+" must be "+strings.Join(allowed[:len(allowed)-1], ", ")+" or "+allowed[len(allowed)-1])
	return true
}

// bodyBeforeAuth refuses a malformed body before the token is checked
// (checks-body-before-auth); it reports whether it answered. The body is
// put back for the handler.
func (s *Server) bodyBeforeAuth(rc *reqCtx) bool {
	r := rc.R
	if !s.variants.On(variant.ValidationBeforeAuth) || (r.Method != http.MethodPost && r.Method != http.MethodPut && r.Method != http.MethodPatch) {
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
	case !answer.IsJSON(r.Header.Get("Content-Type")) && !s.variants.On(variant.CTAnyParsed):
		rc.Error(http.StatusBadRequest, wording.ContentType)
	case !json.Valid(raw):
		rc.Error(http.StatusBadRequest, wording.MalformedJSON)
	case raw[0] != '{' && !(s.variants.On(variant.NullBodyNoop) && string(raw) == "null"):
		rc.Error(http.StatusBadRequest, wording.NotObject)
	default:
		return false
	}
	return true
}

// existenceBeforeAuth answers 404 for an identifier no merchant has before
// the token is checked (checks-existence-before-auth).
func (s *Server) existenceBeforeAuth(rc *reqCtx, rest string) bool {
	if !s.variants.On(variant.ExistenceBeforeAuth) || rc.p1 == "" {
		return false
	}
	gift := strings.HasPrefix(rest, "/gift-cards/")
	for _, m := range rc.world.Merchants {
		for _, st := range m.Envs {
			st.Mu.RLock()
			found := (gift && s.findGiftOrder(st, rc.p1) != nil) || (!gift && st.FindCard(rc.p1) != nil)
			st.Mu.RUnlock()
			if found {
				return false
			}
		}
	}
	if gift {
		rc.GiftNotFound(rc.p1)
	} else {
		rc.Error(http.StatusNotFound, wording.CardNotFound)
	}
	return true
}

// cardBeforeBody answers 404 for an unknown card of a card route with a
// body before the body is read (checks-card-before-body).
func (s *Server) cardBeforeBody(rc *reqCtx, rest string) bool {
	if !s.variants.On(variant.NotFoundFirst) || rc.p1 == "" || !strings.HasPrefix(rest, "/cards/") || rc.R.Method == http.MethodGet {
		return false
	}
	if rc.st.Env != state.EnvTest && strings.HasSuffix(rest, "/simulate-webhook") {
		return false // the environment check comes first there (live-simulation)
	}
	rc.st.Mu.RLock()
	c := rc.st.FindCard(rc.p1)
	rc.st.Mu.RUnlock()
	if c != nil {
		return false
	}
	rc.Error(http.StatusNotFound, wording.CardNotFound)
	return true
}

// issueChecksFirst checks the customer and the vault of an issuance body
// before the rest of it (checks-business-before-validation); it reports
// whether it answered.
func (s *Server) issueChecksFirst(rc *reqCtx, b validate.Body) bool {
	if !s.variants.On(variant.BusinessFirst) {
		return false
	}
	var cust string
	if json.Unmarshal(b["customerId"], &cust) != nil || cust == "" {
		return false
	}
	st := rc.st
	st.Mu.RLock()
	known, vault := st.CustByID[cust] != nil, st.Vault
	st.Mu.RUnlock()
	if !known {
		rc.Error(http.StatusNotFound, wording.CustNotFound)
		return true
	}
	v := validate.Of(b)
	amt, ok := v.Amount("amount", true, 0, false)
	if ok && vault < int64(amt)+creationFee {
		s.vaultShort(rc, amt, int64(amt)+creationFee, vault)
		return true
	}
	return false
}

// longTarget refuses a request target longer than 2048 characters with 414
// (long-path-414), or a malformed card identifier with 400
// (malformed-id-400); it reports whether it answered.
func (s *Server) longTarget(rc *reqCtx) bool {
	switch {
	case s.variants.On(variant.LongPath414) && len(rc.R.URL.RequestURI()) > 2048:
		rc.Error(http.StatusRequestURITooLong, "URI Too Long")
	case s.variants.On(variant.MalformedID400) && rc.p1 != "" && strings.HasPrefix(rc.R.URL.Path, s.base+"/cards/") && !reReference.MatchString(rc.p1):
		rc.Error(http.StatusBadRequest, []string{"id must be a card id or a card reference"})
	default:
		return false
	}
	return true
}

// liveSimulationCardFirst answers 404 for a live simulation on a card
// this environment lacks (live-simulation-card-first); it reports whether
// it answered.
func (s *Server) liveSimulationCardFirst(rc *reqCtx) bool {
	if !s.variants.On(variant.LiveSimCardFirst) || rc.st.Env == state.EnvTest {
		return false
	}
	rc.st.Mu.RLock()
	c := rc.st.FindCard(rc.p1)
	rc.st.Mu.RUnlock()
	if c != nil {
		return false
	}
	rc.Error(http.StatusNotFound, wording.CardNotFound)
	return true
}

// nonPositiveLimits removes the limits of 0 or less from b under
// spend-limits-non-positive-unsets and reports which it removed.
func (s *Server) nonPositiveLimits(b validate.Body) (cleared [4]bool) {
	if !s.variants.On(variant.LimitsLenient) {
		return cleared
	}
	for i, n := range limitNames {
		var f float64
		if r, ok := b[n]; ok && json.Unmarshal(r, &f) == nil && f <= 0 {
			delete(b, n)
			cleared[i] = true
		}
	}
	return cleared
}
