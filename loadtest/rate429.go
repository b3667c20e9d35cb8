package loadtest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/merchant-harness/mph/api"
	"github.com/merchant-harness/mph/loadtest/metrics"
	"github.com/merchant-harness/mph/loadtest/summary"
	"github.com/merchant-harness/mph/schemas"
)

// RATE-02, judged on every 429 the driver sees, in every run and every
// phase of the probe: a 429 of the API is an error answer, in the error
// envelope with statusCode 429 and a reason phrase of 429. Who answers a
// 429 is not shown ("numeric rate limits: not shown"; the open point
// OPEN-GATEWAY-429), and a gateway in front of the API may refuse a call in
// its own format; the profile's rateLimits.envelope says which reading
// applies, as it does for the suites:
//
//   - optional (the default, the lenient reading): a 429 whose body is JSON
//     (by its Content-Type) carrying statusCode is the API's error envelope
//     and must be a whole one; any other 429 is a gateway's, counted apart
//     and not judged;
//   - required: every 429 carries the error envelope.
//
// The reason phrase is any the HTTP standards give 429, compared without
// regard to case or runs of white space (api.IsReasonPhrase, as the suites
// and the proxy compare it), and statusCode as a number (429.0 is 429).

// The values of rateLimits.envelope.
const (
	envelopeOptional = "optional"
	envelopeRequired = "required"
)

func envelope429OrDefault(e string) string {
	if e == "" {
		return envelopeOptional
	}
	return e
}

// RateLimitHeaders are the answer headers that describe a rate limit, as the
// probes record them.
var RateLimitHeaders = []string{"Retry-After", "Ratelimit", "Ratelimit-Policy", "Ratelimit-Limit", "Ratelimit-Remaining", "Ratelimit-Reset",
	"X-Ratelimit-Limit", "X-Ratelimit-Remaining", "X-Ratelimit-Reset"}

// reason429 prefixes the reason of every 429 that breaks RATE-02.
const reason429 = "429 breaks RATE-02: "

// judge429 checks one 429 answer: why it breaks RATE-02 ("" when it does
// not), and whether it was taken as a gateway's.
func judge429(envelope, contentType string, body []byte) metrics.Check {
	if envelope != envelopeRequired && !errorShaped(contentType, body) {
		return metrics.Check{Gateway429: true}
	}
	if why := checkContentType(contentType); why != "" {
		return metrics.Check{Invalid: reason429 + why}
	}
	if why := schemaReason(schemas.ErrorEnvelope, schemas.Validate(schemas.ErrorEnvelope, body)); why != "" {
		return metrics.Check{Invalid: reason429 + why}
	}
	if err := check429Members(body); err != nil {
		return metrics.Check{Invalid: reason429 + err.Error()}
	}
	return metrics.Check{}
}

// errorShaped says whether a 429 is the API's error envelope by its form:
// JSON by its Content-Type, an object carrying statusCode.
func errorShaped(contentType string, body []byte) bool {
	if checkContentType(contentType) != "" {
		return false
	}
	var form map[string]json.RawMessage
	if json.Unmarshal(body, &form) != nil {
		return false
	}
	_, ok := form["statusCode"]
	return ok
}

// check429Members checks what the schema leaves to each status: statusCode
// 429 and the reason phrase Too Many Requests. The values are not quoted
// (target text).
func check429Members(body []byte) error {
	var env struct {
		StatusCode json.Number `json:"statusCode"`
		Error      string      `json:"error"`
	}
	d := json.NewDecoder(strings.NewReader(string(body)))
	d.UseNumber()
	if err := d.Decode(&env); err != nil {
		return fmt.Errorf("unreadable envelope")
	}
	if n, err := env.StatusCode.Float64(); err != nil || n != http.StatusTooManyRequests {
		return fmt.Errorf("statusCode is not 429")
	}
	if !api.IsReasonPhrase(http.StatusTooManyRequests, env.Error) {
		return fmt.Errorf("error is not a reason phrase of 429 (%s)", strings.Join(api.ReasonPhrases(http.StatusTooManyRequests), ", "))
	}
	return nil
}

// maxReasons429 bounds the reasons a tally keeps.
const maxReasons429 = 5

// Tally429 adds the judgements of the run's 429 answers (its endpoints'
// counts and RATE-02 reasons) to t; a nil Outcome (a run that failed to
// start) adds none.
func (o *Outcome) Tally429(t *summary.Judged429) {
	if o == nil {
		return
	}
	for _, s := range o.Summaries {
		if s.Endpoint == "all" {
			continue
		}
		n := s.R429Count()
		t.Seen += n
		t.Broken += s.Invalid429
		t.Gateway += s.Gateway429
		t.Envelope += n - s.Invalid429 - s.Gateway429
		for k := range s.Errors {
			if why, ok := strings.CutPrefix(k, "invalid answer: "+reason429); ok {
				addReason429(t, why)
			}
		}
	}
}

// Judge429 adds one 429 answer read outside a run (a probe's single
// requests, its polite client) to t, judged by RATE-02 under the target
// profile's rateLimits.envelope.
func (s *Scenario) Judge429(t *summary.Judged429, h http.Header, body []byte) {
	c := judge429(envelope429OrDefault(s.envelope429()), h.Get("Content-Type"), body)
	t.Seen++
	switch {
	case c.Invalid != "":
		t.Broken++
		addReason429(t, strings.TrimPrefix(c.Invalid, reason429))
	case c.Gateway429:
		t.Gateway++
	default:
		t.Envelope++
	}
}

func addReason429(t *summary.Judged429, why string) {
	if len(t.Reasons) < maxReasons429 && !slices.Contains(t.Reasons, why) {
		t.Reasons = append(t.Reasons, why)
	}
}

// Gateway429Note says how many 429 answers of a run were taken as a
// gateway's ("" when none were): they are counted as 429s, not judged.
func Gateway429Note(ss []metrics.Summary) string {
	for _, s := range ss {
		if s.Endpoint == "all" && s.Gateway429 > 0 {
			return fmt.Sprintf("%d of %d 429 answers were not JSON carrying statusCode and were taken as a gateway's, not judged by RATE-02 "+
				"(profile rateLimits.envelope: %s; set it to %s when every 429 comes from the API)", s.Gateway429, s.R429Count(), envelopeOptional, envelopeRequired)
		}
	}
	return ""
}
