// Package validate reads the members of a JSON request body the way the
// reference sandbox's framework (class-validator) does: one member at a
// time, typed lazily, so that a wrong type, form or bound becomes a
// message and never a 500.
package validate

import (
	"encoding/json"
	"errors"
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/merchant-harness/mph/money"
)

// The bounds of the sandbox's string members (docs/sandbox.md).
const (
	MaxText  = 255  // names, emails, ids
	MaxShort = 64   // references, codes
	MaxNote  = 1000 // free text
)

// The forms of the members the sandbox checks.
var (
	Email     = regexp.MustCompile(`^[^\s@]+@[^\s@]+\.[^\s@]+$`)
	Phone     = regexp.MustCompile(`^\+?[0-9]{7,15}$`)
	CC        = regexp.MustCompile(`^\+[0-9]{1,4}$`) // a phone's country code
	Country3  = regexp.MustCompile(`^[A-Z]{3}$`)
	Country2  = regexp.MustCompile(`^[A-Z]{2}$`)
	Reference = regexp.MustCompile(`^[A-Za-z0-9._-]{1,64}$`)
	Provider  = regexp.MustCompile(`^[A-Za-z0-9_]{1,32}$`)
)

// Body is a request body decoded one level deep; members are typed lazily
// by Fields so that wrong types become validation messages, not 500s.
type Body map[string]json.RawMessage

// Fields collects class-validator style messages, one member at a time.
type Fields struct {
	b    Body
	errs []string
}

// Of returns the fields of b (nil: no body; the checks then work on values
// given to CheckAmount and CheckInt).
func Of(b Body) Fields { return Fields{b: b} }

// Errs is the messages collected so far.
func (v *Fields) Errs() []string { return v.errs }

// Add adds a message.
func (v *Fields) Add(msg string) { v.errs = append(v.errs, msg) }

// Raw returns the field's raw JSON, treating null as absent.
func (v *Fields) Raw(name string) (json.RawMessage, bool) {
	r, ok := v.b[name]
	if !ok || string(r) == "null" {
		return nil, false
	}
	return r, true
}

// Str reads a string field; required fields must be non-blank.
func (v *Fields) Str(name string, required bool, maxLen int) string {
	s, _ := v.OptStr(name, required, maxLen)
	return s
}

// OptStr reads a string field and reports whether it was supplied.
func (v *Fields) OptStr(name string, required bool, maxLen int) (string, bool) {
	r, ok := v.Raw(name)
	if !ok {
		if required {
			v.Add(name + " should not be empty")
		}
		return "", false
	}
	if r[0] != '"' {
		v.Add(name + " must be a string")
		return "", false
	}
	var s string
	if err := json.Unmarshal(r, &s); err != nil {
		v.Add(name + " must be a string")
		return "", false
	}
	if required && strings.TrimSpace(s) == "" {
		v.Add(name + " should not be empty")
		return "", false
	}
	if utf8.RuneCountInString(s) > maxLen {
		v.Add(name + " must be shorter than or equal to " + strconv.Itoa(maxLen) + " characters")
		return "", false
	}
	return s, true
}

// Match checks a supplied, non-empty string against re.
func (v *Fields) Match(name, val string, re *regexp.Regexp, msg string) {
	if val != "" && !re.MatchString(val) {
		v.Add(name + " " + msg)
	}
}

// OneOf checks a supplied string against an enum.
func (v *Fields) OneOf(name, val string, allowed ...string) bool {
	if val == "" {
		return false
	}
	for _, a := range allowed {
		if val == a {
			return true
		}
	}
	v.Add(name + " must be one of the following values: " + strings.Join(allowed, ", "))
	return false
}

// Amount reads a money field exactly: a JSON number, at most two decimals,
// within [min, money.Max]. minExclusive makes min itself invalid (> 0 rules).
func (v *Fields) Amount(name string, required bool, min money.Amount, minExclusive bool) (money.Amount, bool) {
	r, ok := v.Raw(name)
	if !ok {
		if required {
			v.Add(name + " should not be empty")
		}
		return 0, false
	}
	return v.CheckAmount(name, string(r), min, minExclusive, money.Max)
}

// CheckAmount checks the number text like Amount, within [min, max].
func (v *Fields) CheckAmount(name, text string, min money.Amount, minExclusive bool, max money.Amount) (money.Amount, bool) {
	a, err := money.Parse(text)
	switch {
	case errors.Is(err, money.ErrPrecision):
		v.Add(name + " must have at most 2 decimal places")
		return 0, false
	case errors.Is(err, money.ErrRange):
		v.Add(name + " must not be greater than " + JSNum(max))
		return 0, false
	case err != nil:
		v.Add(name + " must be a number conforming to the specified constraints")
		return 0, false
	case minExclusive && a <= min:
		v.Add(name + " must be a positive number")
		return 0, false
	case a < min:
		v.Add(name + " must not be less than " + JSNum(min))
		return 0, false
	case a > max:
		v.Add(name + " must not be greater than " + JSNum(max))
		return 0, false
	}
	return a, true
}

// Int reads a whole-number field within [min, max].
func (v *Fields) Int(name string, required bool, min, max int64) (int64, bool) {
	r, ok := v.Raw(name)
	if !ok {
		if required {
			v.Add(name + " should not be empty")
		}
		return 0, false
	}
	return v.CheckInt(name, string(r), min, max)
}

// CheckInt checks the number text like Int.
func (v *Fields) CheckInt(name, text string, min, max int64) (int64, bool) {
	n, err := strconv.ParseInt(text, 10, 64)
	if err != nil {
		// Distinguish "not a number" from "a number, but not whole or too big".
		if _, perr := money.Parse(text); perr == nil || errors.Is(perr, money.ErrPrecision) {
			v.Add(name + " must be an integer number")
		} else if errors.Is(perr, money.ErrRange) {
			v.Add(name + " must not be greater than " + strconv.FormatInt(max, 10))
		} else {
			v.Add(name + " must be an integer number")
		}
		return 0, false
	}
	if n < min {
		v.Add(name + " must not be less than " + strconv.FormatInt(min, 10))
		return 0, false
	}
	if n > max {
		v.Add(name + " must not be greater than " + strconv.FormatInt(max, 10))
		return 0, false
	}
	return n, true
}

// Float reads a plain (non-money) number within [min, max], e.g. a rate.
func (v *Fields) Float(name string, required bool, min, max float64) (float64, bool) {
	r, ok := v.Raw(name)
	if !ok {
		if required {
			v.Add(name + " should not be empty")
		}
		return 0, false
	}
	f, err := strconv.ParseFloat(string(r), 64)
	if err != nil || r[0] == '"' || math.IsNaN(f) || math.IsInf(f, 0) {
		v.Add(name + " must be a number conforming to the specified constraints")
		return 0, false
	}
	if f < min {
		v.Add(name + " must not be less than " + strconv.FormatFloat(min, 'f', -1, 64))
		return 0, false
	}
	if f > max {
		v.Add(name + " must not be greater than " + strconv.FormatFloat(max, 'f', -1, 64))
		return 0, false
	}
	return f, true
}

// Bool reads a true/false field.
func (v *Fields) Bool(name string, required bool) (bool, bool) {
	r, ok := v.Raw(name)
	if !ok {
		if required {
			v.Add(name + " should not be empty")
		}
		return false, false
	}
	switch string(r) {
	case "true":
		return true, true
	case "false":
		return false, true
	}
	v.Add(name + " must be a boolean value")
	return false, false
}

// Object returns a nested object's fields.
func (v *Fields) Object(name string) (Body, bool) {
	r, ok := v.Raw(name)
	if !ok {
		return nil, false
	}
	var b Body
	if r[0] != '{' || json.Unmarshal(r, &b) != nil {
		v.Add(name + " must be an object")
		return nil, false
	}
	return b, true
}

// JSNum renders an amount the way JavaScript prints a number: 1, 0.1, 2.5.
func JSNum(a money.Amount) string {
	s := a.String()
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ".")
}
