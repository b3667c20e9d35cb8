package loadtest

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/merchant-harness/mph/schemas"
	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// Answer validation under load. Every answer's status and Content-Type are
// checked; the body's JSON schema is checked for a sample (one in
// DefaultSchemaSample answers per endpoint, the first included) and for every
// answer that is neither 2xx nor 429. Transport errors and 429s are counted
// apart, never as invalid. An invalid answer is not a success, so a target
// answering 200 text/html scores 0% success.

// DefaultSchemaSample is the default schema sampling period of 2xx answers.
const DefaultSchemaSample = 100

// answerRule is what the API document states for an endpoint's answer,
// as the endpoint's declaration in its scenario gives it (registry.go).
type answerRule struct {
	status int    // the one success status the document gives
	schema string // schema of that answer ("" when none applies)
}

// validator checks answers in the run's consumer goroutine (not concurrent).
type validator struct {
	every int
	seen  map[string]uint64
}

func newValidator(every int) *validator {
	if every <= 0 {
		every = DefaultSchemaSample
	}
	return &validator{every: every, seen: map[string]uint64{}}
}

// check returns why the answer is invalid, "" when it is valid or is a
// transport error or a 429. The reason never quotes the body.
func (v *validator) check(ep string, r *vegeta.Result) string {
	if r.Code == 0 || r.Code == http.StatusTooManyRequests {
		return ""
	}
	rule, known := scenarios.rules[ep]
	success := r.Code >= 200 && r.Code < 300
	if known && success && int(r.Code) != rule.status {
		return fmt.Sprintf("status %d, want %d", r.Code, rule.status)
	}
	if why := checkContentType(contentType(r.Headers)); why != "" {
		return why
	}
	n := v.seen[ep]
	v.seen[ep] = n + 1
	var schema string
	switch {
	case !success:
		schema = schemas.ErrorEnvelope
	case known && n%uint64(v.every) == 0:
		schema = rule.schema
	}
	if schema == "" {
		return ""
	}
	return schemaReason(schema, schemas.Validate(schema, r.Body))
}

// contentType is h's Content-Type; answers' header keys are canonical, so
// the map is read directly before falling back to Get.
func contentType(h http.Header) string {
	if v := h["Content-Type"]; len(v) > 0 {
		return v[0]
	}
	return h.Get("Content-Type")
}

// checkContentType accepts application/json with any parameters.
func checkContentType(ct string) string {
	mt, _, _ := strings.Cut(ct, ";")
	if strings.EqualFold(strings.TrimSpace(mt), "application/json") {
		return ""
	}
	if ct == "" {
		return "no Content-Type, want application/json"
	}
	if len(ct) > 40 {
		ct = ct[:40] + "…"
	}
	return fmt.Sprintf("Content-Type %q, want application/json", ct)
}

// schemaReason names the schema and the first violation's place and rule
// (no value: it may be a secret), with array indexes folded so that the
// reasons stay few.
func schemaReason(schema string, err error) string {
	if err == nil {
		return ""
	}
	var ve *schemas.ValidationError
	if !errors.As(err, &ve) || len(ve.Violations) == 0 {
		return "schema " + schema + ": " + err.Error()
	}
	first := ve.Violations[0]
	segs := strings.Split(first.Pointer, "/")
	for i, s := range segs {
		if s != "" && strings.Trim(s, "0123456789") == "" {
			segs[i] = "#"
		}
	}
	p := strings.Join(segs, "/")
	if p == "" {
		p = "(root)"
	}
	if len(p) > 60 {
		p = p[:60] + "…"
	}
	return fmt.Sprintf("schema %s: %q %s", schema, p, first.Rule)
}
