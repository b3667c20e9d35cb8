package expect

import (
	"errors"
	"net/http"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/merchant-harness/mph/client"
	"github.com/merchant-harness/mph/schemas"
	"github.com/merchant-harness/mph/suites/framework"
)

// Answer is one response read once and checked rule by rule: the entries of
// a table each assert their own part of it, so a failure names its rule.
type Answer struct {
	Resp       *client.Response
	Body       JSON                // the decoded body (nil when not a JSON object)
	Violations []schemas.Violation // every schema violation, by JSON pointer
}

// ReadAnswer collects an answer's schema violations without asserting them
// (a harness error only when the schema name is unknown).
func ReadAnswer(resp *client.Response, schemaName string) Answer {
	GinkgoHelper()
	a := Answer{Resp: resp}
	var v any
	if resp.JSON(&v) == nil {
		a.Body, _ = v.(JSON)
	}
	var ve *schemas.ValidationError
	switch err := schemas.Validate(schemaName, resp.Body); {
	case err == nil:
	case errors.As(err, &ve):
		a.Violations = ve.Violations
	default:
		framework.HarnessError("schema %s: %v", schemaName, err)
	}
	return a
}

// ExpectEnvelopeA asserts the answer's frame: the status, a JSON
// Content-Type, Envelope A with status "success" and the echoed path, no card
// credentials outside the secure details, and no schema violation outside
// the pointers the table's other rules own.
func (a Answer) ExpectEnvelopeA(schemaName string, owned []string, status ...int) {
	GinkgoHelper()
	if len(status) == 0 {
		status = []int{http.StatusOK}
	}
	ExpectStatus(a.Resp, status...)
	ExpectJSONContentType(a.Resp)
	expectEnvelopeAFrame(a.Resp, a.Body)
	expectNoCardCredentials(map[string]any(a.Body), schemaName)
	a.ExpectNoViolationOutside(owned...)
}

// ExpectNoViolationUnder asserts that no schema violation lies at pointer or
// below it (a missing required member is reported at its own pointer).
func (a Answer) ExpectNoViolationUnder(pointer string) {
	GinkgoHelper()
	var found []string
	for _, v := range a.Violations {
		if v.Pointer == pointer || strings.HasPrefix(v.Pointer, pointer+"/") {
			found = append(found, v.String())
		}
	}
	Expect(found).To(BeEmpty(), "schema violations under %s", pointer)
}

// ExpectNoViolationOutside asserts that every schema violation lies under one
// of the pointers (those the table's other rules own).
func (a Answer) ExpectNoViolationOutside(pointers ...string) {
	GinkgoHelper()
	var found []string
	for _, v := range a.Violations {
		owned := false
		for _, p := range pointers {
			if v.Pointer == p || strings.HasPrefix(v.Pointer, p+"/") {
				owned = true
				break
			}
		}
		if !owned {
			found = append(found, v.String())
		}
	}
	Expect(found).To(BeEmpty(), "schema violations")
}
