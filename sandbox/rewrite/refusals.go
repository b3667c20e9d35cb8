package rewrite

import (
	"net/http"
	"regexp"
	"strings"

	"github.com/merchant-harness/mph/sandbox/variant"
	"github.com/merchant-harness/mph/sandbox/wording"
)

// refusalStatus is the status of an error answer under the settings.
func (s *Rewriter) refusalStatus(r *http.Request, rest string, code int, msgs []string) int {
	v := &s.variants
	switch {
	case code == 400 && strings.HasSuffix(rest, "/withdraw") && len(msgs) == 1 && strings.HasPrefix(msgs[0], "Insufficient card balance"):
		switch {
		case v.On(variant.WithdrawAbove422):
			return http.StatusUnprocessableEntity
		case v.On(variant.WithdrawAbove409):
			return http.StatusConflict
		}
	case code == 400 && strings.HasSuffix(rest, "/secure") && len(msgs) == 1 && msgs[0] == wording.FrozenSecure:
		switch {
		case v.On(variant.FrozenSecure403):
			return http.StatusForbidden
		case v.On(variant.FrozenSecure409):
			return http.StatusConflict
		case v.On(variant.FrozenSecure423):
			return http.StatusLocked
		}
	case code == 400 && v.On(variant.InvalidValue422) && allContain(msgs, "must be one of the following values") && !anyContain(msgs, "should not be empty"):
		return http.StatusUnprocessableEntity
	case code == 400 && v.On(variant.CT415) && len(msgs) == 1 && msgs[0] == wording.ContentType:
		return http.StatusUnsupportedMediaType
	case code == 403 && v.On(variant.LiveSim400) && len(msgs) == 1 && msgs[0] == wording.LiveSimulate:
		return http.StatusBadRequest
	case code == 400 && v.On(variant.TokenMissing401) && rest == "/auth/token" && anyContain(msgs, "should not be empty"):
		return http.StatusUnauthorized
	}
	return code
}

// wrongTypeMessage joins type violations into one string under
// wrong-type-string-message; other messages are kept.
func (s *Rewriter) wrongTypeMessage(code int, top map[string]any) {
	msgs := messagesOf(top["message"])
	if !s.variants.On(variant.WrongTypeString) || code != 400 || len(msgs) == 0 {
		return
	}
	if _, isArr := top["message"].([]any); !isArr {
		return
	}
	for _, m := range msgs {
		if !typeViolation.MatchString(m) {
			return
		}
	}
	top["message"] = "Malformed payload: " + strings.Join(msgs, "; ")
}

// typeViolation is a constraint message about a member's JSON type.
var typeViolation = regexp.MustCompile(` must be (a number|a string|an integer number|a boolean value|an object)`)
