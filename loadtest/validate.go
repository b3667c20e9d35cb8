package loadtest

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/merchant-harness/mph/loadtest/metrics"
	"github.com/merchant-harness/mph/schemas"
)

// Answer validation under load. Every answer's status and Content-Type are
// checked; the body's JSON schema is checked for a sample (one in
// DefaultSchemaSample answers per endpoint, the first included) and for every
// answer that is not 2xx. Every 429 is judged by RATE-02 (rate429.go): one
// that breaks it is invalid (and still a 429). Transport errors are counted
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
	every    int
	envelope string // the profile's rateLimits.envelope
	seen     map[string]uint64
}

// newValidator validates the schema of one in every 2xx answers; envelope
// is the profile's rateLimits.envelope ("" for its default).
func newValidator(every int, envelope string) *validator {
	if every <= 0 {
		every = DefaultSchemaSample
	}
	return &validator{every: every, envelope: envelope429OrDefault(envelope), seen: map[string]uint64{}}
}

// check says whether the answer is invalid and why (never quoting the
// body), and whether a 429 was taken as a gateway's. A transport error is
// not checked.
func (v *validator) check(ep string, r *vegeta.Result) metrics.Check {
	switch r.Code {
	case 0:
		return metrics.Check{}
	case http.StatusTooManyRequests:
		return judge429(v.envelope, contentType(r.Headers), r.Body)
	}
	return metrics.Check{Invalid: v.reason(ep, r)}
}

// reason is why an answer other than a 429 is invalid ("" when it is not).
func (v *validator) reason(ep string, r *vegeta.Result) string {
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
