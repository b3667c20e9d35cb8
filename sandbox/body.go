package sandbox

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/merchant-harness/mph/sandbox/fault"
	"github.com/merchant-harness/mph/sandbox/wording"

	"github.com/merchant-harness/mph/sandbox/variant"

	"github.com/merchant-harness/mph/money"
)

// jsonBody is a request body decoded one level deep; fields are typed lazily
// by validator so that wrong types become validation messages, not 500s.
type jsonBody map[string]json.RawMessage

// readBody reads and decodes a JSON object body, answering 400/413 itself.
// An empty body is an empty object: the field rules then report what is missing.
func (s *Server) readBody(rc *reqCtx) (jsonBody, bool) {
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
		return jsonBody{}, true
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
	var b jsonBody
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

// Field limits.
const (
	maxText  = 255  // names, emails, ids
	maxShort = 64   // references, codes
	maxNote  = 1000 // free text
)

// validator collects class-validator style messages, one field at a time.
type validator struct {
	b    jsonBody
	errs []string
}

func (v *validator) add(msg string) { v.errs = append(v.errs, msg) }

// failed answers 400 with the collected messages, if any.
func (v *validator) failed(s *Server, rc *reqCtx) bool {
	if len(v.errs) == 0 {
		return false
	}
	s.badRequest(rc, v.errs)
	return true
}

// raw returns the field's raw JSON, treating null as absent.
func (v *validator) raw(name string) (json.RawMessage, bool) {
	r, ok := v.b[name]
	if !ok || string(r) == "null" {
		return nil, false
	}
	return r, true
}

// str reads a string field; required fields must be non-blank.
func (v *validator) str(name string, required bool, maxLen int) string {
	s, _ := v.optStr(name, required, maxLen)
	return s
}

// optStr reads a string field and reports whether it was supplied.
func (v *validator) optStr(name string, required bool, maxLen int) (string, bool) {
	r, ok := v.raw(name)
	if !ok {
		if required {
			v.add(name + " should not be empty")
		}
		return "", false
	}
	if r[0] != '"' {
		v.add(name + " must be a string")
		return "", false
	}
	var s string
	if err := json.Unmarshal(r, &s); err != nil {
		v.add(name + " must be a string")
		return "", false
	}
	if required && strings.TrimSpace(s) == "" {
		v.add(name + " should not be empty")
		return "", false
	}
	if utf8.RuneCountInString(s) > maxLen {
		v.add(name + " must be shorter than or equal to " + strconv.Itoa(maxLen) + " characters")
		return "", false
	}
	return s, true
}

// match checks a supplied, non-empty string against re.
func (v *validator) match(name, val string, re *regexp.Regexp, msg string) {
	if val != "" && !re.MatchString(val) {
		v.add(name + " " + msg)
	}
}

// oneOf checks a supplied string against an enum.
func (v *validator) oneOf(name, val string, allowed ...string) bool {
	if val == "" {
		return false
	}
	for _, a := range allowed {
		if val == a {
			return true
		}
	}
	v.add(name + " must be one of the following values: " + strings.Join(allowed, ", "))
	return false
}

// amount reads a money field exactly: a JSON number, at most two decimals,
// within [min, money.Max]. minExclusive makes min itself invalid (> 0 rules).
func (v *validator) amount(name string, required bool, min money.Amount, minExclusive bool) (money.Amount, bool) {
	r, ok := v.raw(name)
	if !ok {
		if required {
			v.add(name + " should not be empty")
		}
		return 0, false
	}
	return v.checkAmount(name, string(r), min, minExclusive, money.Max)
}

func (v *validator) checkAmount(name, text string, min money.Amount, minExclusive bool, max money.Amount) (money.Amount, bool) {
	a, err := money.Parse(text)
	switch {
	case errors.Is(err, money.ErrPrecision):
		v.add(name + " must have at most 2 decimal places")
		return 0, false
	case errors.Is(err, money.ErrRange):
		v.add(name + " must not be greater than " + jsNum(max))
		return 0, false
	case err != nil:
		v.add(name + " must be a number conforming to the specified constraints")
		return 0, false
	case minExclusive && a <= min:
		v.add(name + " must be a positive number")
		return 0, false
	case a < min:
		v.add(name + " must not be less than " + jsNum(min))
		return 0, false
	case a > max:
		v.add(name + " must not be greater than " + jsNum(max))
		return 0, false
	}
	return a, true
}

// integer reads a whole-number field within [min, max].
func (v *validator) integer(name string, required bool, min, max int64) (int64, bool) {
	r, ok := v.raw(name)
	if !ok {
		if required {
			v.add(name + " should not be empty")
		}
		return 0, false
	}
	return v.checkInt(name, string(r), min, max)
}

func (v *validator) checkInt(name, text string, min, max int64) (int64, bool) {
	n, err := strconv.ParseInt(text, 10, 64)
	if err != nil {
		// Distinguish "not a number" from "a number, but not whole or too big".
		if _, perr := money.Parse(text); perr == nil || errors.Is(perr, money.ErrPrecision) {
			v.add(name + " must be an integer number")
		} else if errors.Is(perr, money.ErrRange) {
			v.add(name + " must not be greater than " + strconv.FormatInt(max, 10))
		} else {
			v.add(name + " must be an integer number")
		}
		return 0, false
	}
	if n < min {
		v.add(name + " must not be less than " + strconv.FormatInt(min, 10))
		return 0, false
	}
	if n > max {
		v.add(name + " must not be greater than " + strconv.FormatInt(max, 10))
		return 0, false
	}
	return n, true
}

// float reads a plain (non-money) number within [min, max], e.g. a rate.
func (v *validator) float(name string, required bool, min, max float64) (float64, bool) {
	r, ok := v.raw(name)
	if !ok {
		if required {
			v.add(name + " should not be empty")
		}
		return 0, false
	}
	f, err := strconv.ParseFloat(string(r), 64)
	if err != nil || r[0] == '"' || math.IsNaN(f) || math.IsInf(f, 0) {
		v.add(name + " must be a number conforming to the specified constraints")
		return 0, false
	}
	if f < min {
		v.add(name + " must not be less than " + strconv.FormatFloat(min, 'f', -1, 64))
		return 0, false
	}
	if f > max {
		v.add(name + " must not be greater than " + strconv.FormatFloat(max, 'f', -1, 64))
		return 0, false
	}
	return f, true
}

// boolean reads a true/false field.
func (v *validator) boolean(name string, required bool) (bool, bool) {
	r, ok := v.raw(name)
	if !ok {
		if required {
			v.add(name + " should not be empty")
		}
		return false, false
	}
	switch string(r) {
	case "true":
		return true, true
	case "false":
		return false, true
	}
	v.add(name + " must be a boolean value")
	return false, false
}

// object returns a nested object's fields.
func (v *validator) object(name string) (jsonBody, bool) {
	r, ok := v.raw(name)
	if !ok {
		return nil, false
	}
	var b jsonBody
	if r[0] != '{' || json.Unmarshal(r, &b) != nil {
		v.add(name + " must be an object")
		return nil, false
	}
	return b, true
}

// jsNum renders an amount the way JavaScript prints a number: 1, 0.1, 2.5.
func jsNum(a money.Amount) string {
	s := a.String()
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ".")
}

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
