package expect

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"net/http"
	"net/url"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/merchant-harness/mph/api"
	"github.com/merchant-harness/mph/client"
	"github.com/merchant-harness/mph/schemas"
	"github.com/merchant-harness/mph/suites/framework"
)

// JSON is a decoded JSON object; numbers are json.Number (exact).
type JSON = map[string]any

// ExpectStatus asserts the HTTP status is one of codes.
func ExpectStatus(resp *client.Response, codes ...int) {
	GinkgoHelper()
	Expect(resp).NotTo(BeNil(), "no response")
	NoVerdictIfStillRateLimited(resp, codes)
	Expect(codes).To(ContainElement(resp.Status), "HTTP status %d, want %v", resp.Status, codes)
}

// ExpectJSONContentType asserts the answer is labelled JSON: the document
// says all bodies are JSON without naming the media type, so
// application/json and any application/*+json (RFC 6839: problem+json,
// vnd.x+json) are accepted, parameters such as charset allowed, any case;
// exactly application/json under the profile's strict.applicationJson.
func ExpectJSONContentType(resp *client.Response) {
	GinkgoHelper()
	Expect(resp).NotTo(BeNil(), "no response")
	ct := resp.Header.Get("Content-Type")
	want := "application/json or application/*+json"
	if strictJSON() {
		want = "application/json (profile strict.applicationJson)"
	}
	Expect(IsJSONContentType(ct)).To(BeTrue(),
		"the answer to %s %s is labelled Content-Type %q, want %s (all bodies are JSON)", resp.Exchange.Method, resp.Exchange.URL, ct, want)
}

// IsJSONContentType reports whether a Content-Type value labels JSON:
// application/json or application/*+json with any parameters (exactly
// application/json under strict.applicationJson).
func IsJSONContentType(ct string) bool {
	mt, _, _ := strings.Cut(ct, ";")
	mt = strings.ToLower(strings.TrimSpace(mt))
	if mt == "application/json" {
		return true
	}
	sub, ok := strings.CutPrefix(mt, "application/")
	return ok && !strictJSON() && strings.HasSuffix(sub, "+json") && len(sub) > len("+json") && !strings.ContainsAny(sub, "/ \t")
}

// strictJSON is the profile's strict.applicationJson (false before set-up).
func strictJSON() bool {
	p := framework.LoadedProfile()
	return p != nil && p.Strict.ApplicationJSON
}

// ExpectSchema validates the body against the named schema (schemas package)
// after checking it is labelled JSON, and returns the body decoded.
func ExpectSchema(resp *client.Response, name string) any {
	GinkgoHelper()
	ExpectJSONContentType(resp)
	err := schemas.Validate(name, resp.Body)
	var ve *schemas.ValidationError
	if err != nil && !errors.As(err, &ve) {
		framework.HarnessError("schema %s: %v", name, err)
	}
	Expect(err).NotTo(HaveOccurred(), "the answer to %s %s does not match schema %s", resp.Exchange.Method, resp.Exchange.URL, name)
	var v any
	Expect(resp.JSON(&v)).To(Succeed(), "body is not JSON")
	expectNoCardCredentials(v, name) // PCI: only the secure details carry them
	return v
}

// requestPath returns the path of the exchange's URL below the merchant root,
// e.g. "/cards/crd_1" for http://h/v1/merchant/cards/crd_1?x=1.
func requestPath(resp *client.Response) string {
	p := resp.Path
	if i := strings.Index(p, "/v1/merchant"); i >= 0 {
		p = p[i+len("/v1/merchant"):]
	}
	if q := strings.IndexByte(p, '?'); q >= 0 {
		p = p[:q]
	}
	return p
}

// ExpectEchoedPath checks the envelope's informational path ("path (string,
// request path)"; "the path value is informational"): a request path, a
// string that begins with "/". What precedes the version root, a query
// string, and whether it is the path as sent (not a route template, or the
// card's id for its reference) are informational. Under the profile's
// strict.envelopePath it begins with /v1/merchant or /api/v1/merchant (the
// two the document shows) and the rest is exactly the request path,
// compared unescaped and without a query.
func ExpectEchoedPath(resp *client.Response, body JSON) {
	GinkgoHelper()
	p, isString := body["path"].(string)
	Expect(isString).To(BeTrue(), "the envelope's path must be a string, got %v", body["path"])
	Expect(p).To(HavePrefix("/"), "the envelope's path %q is no request path", p)
	want := requestPath(resp)
	if want == "" || !framework.Profile().Strict.EnvelopePath {
		return
	}
	Expect(p).To(Or(HavePrefix("/v1/merchant"), HavePrefix("/api/v1/merchant")), "the envelope path must begin with /v1/merchant or /api/v1/merchant (profile strict.envelopePath)")
	Expect(EchoNamesPath(p, want, true)).To(BeTrue(), "envelope path %q does not name the request path %q (profile strict.envelopePath)", p, want)
}

// EchoNamesPath reports whether an echoed path names the request path want
// (below the merchant root): equal after the version root, or, without a
// version root, ending with it (a longer base path, or one a proxy
// stripped); the query string is ignored unless strict.
func EchoNamesPath(echo, want string, strict bool) bool {
	got := echo
	if q := strings.IndexByte(got, '?'); q >= 0 && !strict {
		got = got[:q]
	}
	gu, err1 := url.PathUnescape(got)
	wu, err2 := url.PathUnescape(want)
	if err1 != nil || err2 != nil {
		gu, wu = got, want
	}
	if i := strings.Index(gu, "/v1/merchant"); i >= 0 {
		return gu[i+len("/v1/merchant"):] == wu
	}
	return !strict && (gu == wu || strings.HasSuffix(gu, wu) && strings.HasPrefix(wu, "/"))
}

// ExpectEnvelopeA asserts a success answer (status 200 unless given) in
// Envelope A matching the endpoint's schema, and returns the whole body.
func ExpectEnvelopeA(resp *client.Response, schemaName string, status ...int) JSON {
	GinkgoHelper()
	if len(status) == 0 {
		status = []int{http.StatusOK}
	}
	ExpectStatus(resp, status...)
	body, _ := ExpectSchema(resp, schemaName).(JSON)
	expectEnvelopeAFrame(resp, body)
	return body
}

// expectEnvelopeAFrame asserts what makes a success answer Envelope A: its
// schema, an object body, status "success" and the request path echoed.
func expectEnvelopeAFrame(resp *client.Response, body JSON) {
	GinkgoHelper()
	Expect(schemas.Validate(schemas.EnvelopeA, resp.Body)).To(Succeed(), "not Envelope A")
	Expect(body).NotTo(BeNil(), "Envelope A must be an object")
	Expect(body["status"]).To(Equal("success"))
	ExpectEchoedPath(resp, body)
}

// ExpectEnvelopeB asserts a 200 answer in Envelope B matching the schema.
func ExpectEnvelopeB(resp *client.Response, schemaName string, status ...int) JSON {
	GinkgoHelper()
	if len(status) == 0 {
		status = []int{http.StatusOK}
	}
	ExpectStatus(resp, status...)
	v := ExpectSchema(resp, schemaName)
	if schemaName != schemas.EnvelopeB {
		Expect(schemas.Validate(schemas.EnvelopeB, resp.Body)).To(Succeed(), "not Envelope B")
	}
	body, _ := v.(JSON)
	Expect(body).NotTo(BeNil(), "Envelope B must be an object")
	return body
}

// ExpectError asserts an error answer: the HTTP status, the error envelope,
// statusCode equal to the HTTP status and error equal to the reason phrase.
// It returns the body.
func ExpectError(resp *client.Response, status int) JSON {
	GinkgoHelper()
	ExpectStatus(resp, status)
	v := ExpectSchema(resp, schemas.ErrorEnvelope)
	body := v.(JSON)
	ExpectStatusCodeField(body, status)
	ExpectReasonPhrase(body, status)
	return body
}

// ExpectStatusCodeField asserts an error body's statusCode is the HTTP status
// ("statusCode | number | HTTP status"), compared as a number: 400.0 is 400.
func ExpectStatusCodeField(body JSON, status int) {
	GinkgoHelper()
	Expect(schemas.NumberIs(body["statusCode"], int64(status))).To(BeTrue(),
		"statusCode %v must be the HTTP status %d", body["statusCode"], status)
}

// ExpectReasonPhrase asserts an error body's error is a reason phrase of the
// status ("error | string | reason phrase, e.g. Bad Request, ..."): any
// spelling an HTTP standard gives it, in any case (api.IsReasonPhrase).
func ExpectReasonPhrase(body JSON, status int) {
	GinkgoHelper()
	s, _ := body["error"].(string)
	Expect(api.IsReasonPhrase(status, s)).To(BeTrue(),
		"error %q must be a reason phrase of %d (%s)", s, status, strings.Join(api.ReasonPhrases(status), ", "))
}

// ExpectValidationError asserts a 400 whose message is an array of
// constraint-violation strings, and returns them.
func ExpectValidationError(resp *client.Response) []string {
	GinkgoHelper()
	body := ExpectError(resp, http.StatusBadRequest)
	arr, ok := body["message"].([]any)
	Expect(ok).To(BeTrue(), "a payload validation failure carries message as an array of strings, got %v", body["message"])
	Expect(arr).NotTo(BeEmpty(), "the validation message array is empty")
	out := make([]string, len(arr))
	for i, m := range arr {
		out[i], _ = m.(string)
	}
	return out
}

// Messages returns an error body's message as a list (string or array).
func Messages(body JSON) []string {
	switch m := body["message"].(type) {
	case string:
		return []string{m}
	case []any:
		out := make([]string, 0, len(m))
		for _, x := range m {
			if s, ok := x.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

// Data returns body["data"] as an object (nil if it is not one).
func Data(body JSON) JSON { d, _ := body["data"].(JSON); return d }

// DataList returns body["data"] as an array.
func DataList(body JSON) []any { d, _ := body["data"].([]any); return d }

// Ptr resolves a JSON pointer (RFC 6901) in a decoded document; "/" (the
// empty member of the root) is treated as no pointer, which the profile
// never means.
func Ptr(doc any, pointer string) (any, bool) {
	if pointer == "/" {
		return doc, false
	}
	return schemas.Resolve(doc, pointer)
}

// Decode decodes a response body with exact numbers.
func Decode(resp *client.Response) any {
	var v any
	_ = resp.JSON(&v)
	return v
}

// Num renders a JSON number value exactly ("" when v is not a number).
func Num(v any) string {
	if n, ok := v.(json.Number); ok {
		return n.String()
	}
	return ""
}

// Money is an exact decimal amount (never a float).
type Money struct{ r *big.Rat }

// M parses a decimal string ("25.50"); it panics on a malformed literal
// (use it for constants in specs).
func M(s string) Money {
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		panic("suites: bad amount literal " + s)
	}
	return Money{r}
}

// MoneyOf reads a JSON number exactly; ok is false if v is not a number, or
// is one beyond what the harness reads (schemas.NumberReadable: exact
// arithmetic on a million digits would take gigabytes).
func MoneyOf(v any) (Money, bool) {
	n, isNum := v.(json.Number)
	if !isNum || schemas.NumberReadable(n.String()) != "" {
		return Money{}, false
	}
	r, ok := new(big.Rat).SetString(n.String())
	if !ok {
		return Money{}, false
	}
	return Money{r}, true
}

// ExpectMoney reads a JSON number exactly, failing the spec if it is not one.
func ExpectMoney(v any, what string) Money {
	GinkgoHelper()
	if n, isNum := v.(json.Number); isNum {
		why := schemas.NumberReadable(n.String())
		Expect(why).To(BeEmpty(), "%s must be an amount the harness can read exactly", what)
	}
	m, ok := MoneyOf(v)
	Expect(ok).To(BeTrue(), "%s must be a number, got %#v", what, v)
	return m
}

func (m Money) rat() *big.Rat {
	if m.r == nil {
		return new(big.Rat)
	}
	return m.r
}

// Add returns m + o.
func (m Money) Add(o Money) Money { return Money{new(big.Rat).Add(m.rat(), o.rat())} }

// Sub returns m - o.
func (m Money) Sub(o Money) Money { return Money{new(big.Rat).Sub(m.rat(), o.rat())} }

// Cmp compares exactly.
func (m Money) Cmp(o Money) int { return m.rat().Cmp(o.rat()) }

// Eq reports exact equality.
func (m Money) Eq(o Money) bool { return m.Cmp(o) == 0 }

// String renders the amount with at least two decimals, exactly.
func (m Money) String() string {
	r := m.rat()
	for prec := 2; prec <= 12; prec++ {
		s := r.FloatString(prec)
		if back, ok := new(big.Rat).SetString(s); ok && back.Cmp(r) == 0 {
			return s
		}
	}
	return r.RatString()
}

// GomegaString renders the amount exactly, as on the wire.
func (m Money) GomegaString() string { return m.String() }

// Known reports whether the amount was read or given (the zero Money is
// no amount at all).
func (m Money) Known() bool { return m.r != nil }

// JSON returns the amount as a JSON number with two decimals (for bodies).
func (m Money) JSON() json.Number { return json.Number(m.String()) }

// EqualMoney is a matcher for exact equality of Money values.
func EqualMoney(want Money) OmegaMatcherMoney { return OmegaMatcherMoney{want} }

// OmegaMatcherMoney matches a Money exactly.
type OmegaMatcherMoney struct{ want Money }

// Match implements types.GomegaMatcher.
func (o OmegaMatcherMoney) Match(actual any) (bool, error) {
	a, ok := actual.(Money)
	if !ok {
		return false, fmt.Errorf("EqualMoney expects a Money, got %T", actual)
	}
	return a.Eq(o.want), nil
}

// FailureMessage implements types.GomegaMatcher.
func (o OmegaMatcherMoney) FailureMessage(actual any) string {
	return fmt.Sprintf("Expected amount %v to equal %v exactly", actual, o.want)
}

// NegatedFailureMessage implements types.GomegaMatcher.
func (o OmegaMatcherMoney) NegatedFailureMessage(actual any) string {
	return fmt.Sprintf("Expected amount %v not to equal %v", actual, o.want)
}

// NoVerdictIfStillRateLimited ends a spec without a verdict when the rate limit
// left its answer unjudgeable (client.Response.NoVerdict): a 429 the spec did
// not ask for after the client waited what the run allows, or a 409 after the
// client resent a 429 with the same reference. Specs about rate limiting
// expect the 429 and go on.
func NoVerdictIfStillRateLimited(resp *client.Response, want []int) {
	GinkgoHelper()
	if why, ok := resp.NoVerdict(want...); ok {
		framework.NoVerdict(why)
	}
}
