package sandbox

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"regexp"
	"strings"

	"github.com/merchant-harness/mph/sandbox/fault"
	"github.com/merchant-harness/mph/sandbox/validate"
	"github.com/merchant-harness/mph/sandbox/variant"
	"github.com/merchant-harness/mph/sandbox/wording"
)

// readBody reads and decodes a JSON object body, answering 400/413 itself.
// An empty body is an empty object: the field rules then report what is missing.
func (s *Server) readBody(rc *reqCtx) (validate.Body, bool) {
	r := rc.r
	if r.ContentLength > maxBody {
		s.writeError(rc, http.StatusRequestEntityTooLarge, wording.TooLarge)
		return nil, false
	}
	raw, err := io.ReadAll(http.MaxBytesReader(rc.w, r.Body, maxBody))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			s.writeError(rc, http.StatusRequestEntityTooLarge, wording.TooLarge)
		} else {
			s.writeError(rc, http.StatusBadRequest, "Could not read the request body")
		}
		return nil, false
	}
	raw = bytes.TrimSpace(raw)
	if s.variants.On(variant.NullBodyNoop) && string(raw) == "null" {
		raw = nil
	}
	if len(raw) == 0 {
		return validate.Body{}, true
	}
	if !isJSONContentType(r.Header.Get("Content-Type")) && !s.variants.On(variant.CTAnyParsed) {
		s.writeError(rc, http.StatusBadRequest, wording.ContentType)
		return nil, false
	}
	if raw[0] != '{' {
		if json.Valid(raw) {
			s.writeError(rc, http.StatusBadRequest, wording.NotObject)
		} else {
			s.writeError(rc, s.malformedStatus(), wording.MalformedJSON)
		}
		return nil, false
	}
	var b validate.Body
	if err := json.Unmarshal(raw, &b); err != nil {
		s.writeError(rc, s.malformedStatus(), wording.MalformedJSON)
		return nil, false
	}
	s.unquoteNumbers(b)
	return b, true
}

// malformedStatus is 400, or 422 under the fault malformed-json-422.
func (s *Server) malformedStatus() int {
	if s.faults.On(fault.MalformedJSON422) {
		return http.StatusUnprocessableEntity
	}
	return http.StatusBadRequest
}

func isJSONContentType(ct string) bool {
	if i := strings.IndexByte(ct, ';'); i >= 0 {
		ct = ct[:i]
	}
	return strings.EqualFold(strings.TrimSpace(ct), "application/json")
}

// invalid answers 400 with the messages v collected, if any.
func (s *Server) invalid(rc *reqCtx, v *validate.Fields) bool {
	if len(v.Errs()) == 0 {
		return false
	}
	s.badRequest(rc, v.Errs())
	return true
}

// Field limits.
const (
	maxText  = 255  // names, emails, ids
	maxShort = 64   // references, codes
	maxNote  = 1000 // free text
)

var (
	reEmail     = regexp.MustCompile(`^[^\s@]+@[^\s@]+\.[^\s@]+$`)
	rePhone     = regexp.MustCompile(`^\+?[0-9]{7,15}$`)
	reCC        = regexp.MustCompile(`^\+[0-9]{1,4}$`)
	reCountry3  = regexp.MustCompile(`^[A-Z]{3}$`)
	reCountry2  = regexp.MustCompile(`^[A-Z]{2}$`)
	reReference = regexp.MustCompile(`^[A-Za-z0-9._-]{1,64}$`)
	reProvider  = regexp.MustCompile(`^[A-Za-z0-9_]{1,32}$`)
)

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }
