package sandbox

import (
	"encoding/json"
	"net/http"
	"strings"

	"github.com/merchant-harness/mph/sandbox/answer"
	"github.com/merchant-harness/mph/sandbox/state"
	"github.com/merchant-harness/mph/sandbox/validate"
	"github.com/merchant-harness/mph/sandbox/variant"
	"github.com/merchant-harness/mph/sandbox/wording"
)

// issueChecksFirst checks the customer and the vault of an issuance body
// before the rest of it (checks-business-before-validation); it reports
// whether it answered.
func (s *Server) issueChecksFirst(rc *answer.Req, b validate.Body) bool {
	if !s.variants.On(variant.BusinessFirst) {
		return false
	}
	var cust string
	if json.Unmarshal(b["customerId"], &cust) != nil || cust == "" {
		return false
	}
	st := rc.St
	st.Mu.RLock()
	known, vault := st.CustByID[cust] != nil, st.Vault
	st.Mu.RUnlock()
	if !known {
		rc.Error(http.StatusNotFound, wording.CustNotFound)
		return true
	}
	v := validate.Of(b)
	amt, ok := v.Amount("amount", true, 0, false)
	if ok && vault < int64(amt)+state.CreationFee {
		s.vaultShort(rc, amt, int64(amt)+state.CreationFee, vault)
		return true
	}
	return false
}

// longTarget refuses a request target longer than 2048 characters with 414
// (long-path-414), or a malformed card identifier with 400
// (malformed-id-400); it reports whether it answered.
func (s *Server) longTarget(rc *answer.Req) bool {
	switch {
	case s.variants.On(variant.LongPath414) && len(rc.R.URL.RequestURI()) > 2048:
		rc.Error(http.StatusRequestURITooLong, "URI Too Long")
	case s.variants.On(variant.MalformedID400) && rc.ID != "" && strings.HasPrefix(rc.R.URL.Path, s.base+"/cards/") && !validate.Reference.MatchString(rc.ID):
		rc.Error(http.StatusBadRequest, []string{"id must be a card id or a card reference"})
	default:
		return false
	}
	return true
}
