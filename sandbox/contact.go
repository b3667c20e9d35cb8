package sandbox

import (
	"net/http"
	"strings"

	"github.com/merchant-harness/mph/sandbox/answer"
	"github.com/merchant-harness/mph/sandbox/fault"
	"github.com/merchant-harness/mph/sandbox/state"
	"github.com/merchant-harness/mph/sandbox/validate"
	"github.com/merchant-harness/mph/sandbox/variant"
	"github.com/merchant-harness/mph/sandbox/wording"
)

type successMessage struct {
	Success bool   `json:"success"`
	Message string `json:"message"`
}

// handleContact is PATCH /cards/{id}/contact: only supplied fields change.
func (s *Server) handleContact(rc *answer.Req) {
	if s.faults.On(fault.ContactLiveRefused) && rc.St.Env == state.EnvLive {
		rc.Error(http.StatusForbidden, "Contact updates are available with TEST credentials only")
		return
	}
	b, ok := rc.ReadBody()
	if !ok {
		return
	}
	v := validate.Of(b)
	email, hasEmail := v.OptStr("email", false, validate.MaxText)
	mobile, hasMobile := v.OptStr("mobile", false, validate.MaxShort)
	if hasEmail && !validate.Email.MatchString(email) {
		v.Add("email must be an email")
	}
	if hasMobile && !s.variants.On(variant.MobileUnchecked) && (!validate.Phone.MatchString(mobile) || (s.faults.On(fault.ContactPlusRefused) && strings.HasPrefix(mobile, "+"))) {
		v.Add("mobile must be a valid phone number (local digits or + and 7 to 15 digits)")
	}
	if _, e := v.Raw("email"); !e && !s.variants.On(variant.NullBodyNoop) {
		if _, m := v.Raw("mobile"); !m {
			v.Add("at least one of email, mobile must be supplied")
		}
	}
	if rc.Invalid(&v) {
		return
	}
	s.withCard(rc, rc.St, func(c *state.Card) reply {
		if hasEmail {
			c.Email = email
		}
		if hasMobile {
			c.Mobile = mobile
		}
		c.UpdatedAt = wording.Timestamp(rc.Now)
		return func() {
			rc.EnvelopeB("Contact details updated", successMessage{Success: true, Message: "Contact details updated with the card provider"})
		}
	})
}
