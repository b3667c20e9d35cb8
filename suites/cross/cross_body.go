package cross

// The payload rules on every endpoint taking a body: each cell spoils the
// endpoint's valid body one way at a time and expects 400 in the error
// envelope, never a 5xx (the token exchange may answer a missing or spoilt
// credential with 401: "401 | secret key or token missing").

import (
	"encoding/json"
	"net/http"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/merchant-harness/mph/api"
	"github.com/merchant-harness/mph/client"
	. "github.com/merchant-harness/mph/suites/expect"
	. "github.com/merchant-harness/mph/suites/framework"
)

// bodyCase is one spoilt body.
type bodyCase struct {
	what  string
	raw   []byte // sent as is (nil with empty: no body at all)
	empty bool
}

func rawCase(what string, v any) bodyCase {
	b, _ := json.Marshal(v)
	return bodyCase{what: what, raw: b}
}

// without returns the sample without member k.
func without(sample map[string]any, k string) map[string]any {
	out := map[string]any{}
	for m, v := range sample {
		if m != k {
			out[m] = v
		}
	}
	return out
}

// with returns the sample with member k set to v.
func with(sample map[string]any, k string, v any) map[string]any {
	out := without(sample, k)
	out[k] = v
	return out
}

func bodyRules() []crossRule {
	const malformed = "400 | missing parameters, malformed payload, or business constraint failure"
	return []crossRule{
		bodyRule("body.not-json", "refuses a body that is not JSON (cut short, form-encoded, two objects) with 400", malformed, "ERR-22", takesBody,
			func(e api.Endpoint, s map[string]any) []bodyCase {
				one, _ := json.Marshal(s)
				return []bodyCase{
					{what: "JSON cut short", raw: one[:len(one)-1]},
					{what: "form-encoded text", raw: []byte("a=1&b=2")},
					{what: "two JSON objects", raw: append(append([]byte{}, one...), one...)},
				}
			}),
		bodyRule("body.not-object", "refuses a JSON body that is not an object (an array, a string) with 400", malformed, "ERR-22", takesBody,
			func(e api.Endpoint, s map[string]any) []bodyCase {
				return []bodyCase{rawCase("the valid body inside an array", []any{s}), rawCase("a JSON string", "body")}
			}),
		bodyRule("body.null", "refuses a JSON null body with 400 (a no-op 200 where every member is optional)", malformed, "ERR-22", takesBody,
			func(api.Endpoint, map[string]any) []bodyCase {
				return []bodyCase{{what: "JSON null", raw: []byte("null")}}
			}),
		bodyRule("body.empty", "refuses a call without its body with 400 (a no-op 200 where every member is optional)", malformed, "ERR-22", takesBody,
			func(api.Endpoint, map[string]any) []bodyCase { return []bodyCase{{what: "no body", empty: true}} }),
		missingMemberRule(),
		bodyRule("body.wrong-type", "refuses a member of another JSON type than documented (an object) with 400", malformed, "ERR-22", hasTypedMember,
			func(e api.Endpoint, s map[string]any) []bodyCase {
				var out []bodyCase
				for _, f := range e.Body.Fields {
					if f.Type != "" {
						w := f.Wire(Profile())
						out = append(out, rawCase(w+" as an object", with(s, w, map[string]any{"value": s[w]})))
					}
				}
				return out
			}),
		belowMinimumRule(),
		validationRule(),
	}
}

// missingMemberRule: a required member missing is "missing parameters"
// (400); at the token exchange "secret key ... missing" may be 401 (AUTH-08).
func missingMemberRule() crossRule {
	r := bodyRule("body.missing-member", "refuses a body missing a required member with 400 (at the token exchange 400 or 401)",
		"400 | missing parameters, malformed payload, or business constraint failure", "ERR-07", hasRequired,
		func(e api.Endpoint, s map[string]any) []bodyCase {
			var out []bodyCase
			for _, f := range e.Body.Required() {
				out = append(out, rawCase("without "+f.Wire(Profile()), without(s, f.Wire(Profile()))))
			}
			return out
		})
	r.reqsFor = func(e api.Endpoint) []string {
		if e.Token() {
			return []string{"AUTH-08"}
		}
		return []string{"ERR-07"}
	}
	return r
}

// belowMinimumRule: an amount below the minimum the document gives
// ("minimum 0.10", "at least 1 USD") is refused with 400, under the
// endpoint's own requirement of its minimum.
func belowMinimumRule() crossRule {
	r := bodyRule("body.below-minimum", "refuses an amount below its documented minimum with 400",
		"initial card funding below the minimum of 1.00 USD", "ERR-22", hasMinimum,
		func(e api.Endpoint, s map[string]any) []bodyCase {
			var out []bodyCase
			for _, f := range e.Body.Fields {
				if f.Min != "" {
					w, least := f.Wire(Profile()), M(f.Min)
					for _, v := range []Money{least.Sub(M("0.01")), M("0"), M("0").Sub(least)} {
						out = append(out, rawCase(w+" "+v.String()+" (minimum "+f.Min+")", with(s, w, v.JSON())))
					}
				}
			}
			return out
		})
	r.reqsFor = func(e api.Endpoint) []string {
		if e.Order == "issuance" {
			return []string{"ISSUE-03"}
		}
		return []string{"WITHDRAW-03"}
	}
	return r
}

func hasTypedMember(e api.Endpoint) bool {
	if e.Body == nil {
		return false
	}
	for _, f := range e.Body.Fields {
		if f.Type != "" {
			return true
		}
	}
	return false
}

func hasMinimum(e api.Endpoint) bool {
	if e.Body == nil {
		return false
	}
	for _, f := range e.Body.Fields {
		if f.Min != "" {
			return true
		}
	}
	return false
}

// bodyRule refuses each spoilt body of cases with 400 in the error envelope.
func bodyRule(id, title, cite, req string, applies func(api.Endpoint) bool, cases func(api.Endpoint, map[string]any) []bodyCase) crossRule {
	return crossRule{id: id, title: title, reqs: []string{req}, cite: cite, applies: applies,
		check: func(ctx SpecContext, e api.Endpoint) {
			p := newProbe(ctx, e)
			optional := e.Body.AllOptional && (id == "body.null" || id == "body.empty")
			for _, c := range cases(e, p.req.Body.(map[string]any)) {
				By(c.what)
				p.judge(sendBody(ctx, p, c), c.what, optional, bodyRefusal(e)...)
			}
		}}
}

// bodyRefusal is the status refusing a spoilt body: 400, or at the token
// exchange 400 or 401 ("401 | secret key or token missing").
func bodyRefusal(e api.Endpoint) []int {
	if e.Token() {
		return []int{http.StatusBadRequest, http.StatusUnauthorized}
	}
	return []int{http.StatusBadRequest}
}

// sendBody sends the probe with the spoilt body (the token exchange
// without credentials of the client's).
func sendBody(ctx SpecContext, p probe, c bodyCase) *client.Response {
	GinkgoHelper()
	cl := API()
	if p.e.Token() {
		cl = Anonymous().RawAuth()
	}
	return p.do(ctx, cl, func(r *client.Request) {
		r.Body, r.RawBody, r.HasRawBody = nil, c.raw, true
		if c.empty {
			r.RawBody = nil
		}
	})
}

// validationRule: "an array of constraint-violation strings when payload
// validation fails (for example a message that a field should not be
// empty or must not be less than a minimum)": a required member missing,
// a non-empty member empty, and (strict.minimumAsValidation) an amount
// below its minimum.
func validationRule() crossRule {
	return crossRule{id: "body.validation-message", title: "answers a payload validation failure (a required member missing or empty) with 400 whose message is an array of strings",
		reqs:    []string{"ERR-04"},
		cite:    "an array of constraint-violation strings when payload validation fails (for example a message that a field should not be empty or must not be less than a minimum)",
		applies: hasRequired,
		check: func(ctx SpecContext, e api.Endpoint) {
			p := newProbe(ctx, e)
			for _, c := range validationCases(e, p.req.Body.(map[string]any)) {
				By(c.what)
				resp := sendBody(ctx, p, c)
				body := p.judge(resp, c.what, false, bodyRefusal(e)...)
				if resp.Status != http.StatusBadRequest {
					continue // 401 at the token exchange: not a payload validation failure
				}
				arr, ok := body["message"].([]any)
				Expect(ok && len(arr) > 0).To(BeTrue(), "%s on %s: a payload validation failure carries message as a non-empty array of strings, got %v", c.what, e.Key(), body["message"])
				for _, m := range arr {
					Expect(m).To(BeAssignableToTypeOf(""), "%s on %s: every element of message is a string", c.what, e.Key())
				}
			}
		}}
}

func validationCases(e api.Endpoint, s map[string]any) []bodyCase {
	var out []bodyCase
	for _, f := range e.Body.Fields {
		w := f.Wire(Profile())
		if f.Required {
			out = append(out, rawCase("without "+w, without(s, w)))
		}
		if f.NonEmpty {
			out = append(out, rawCase(w+" empty", with(s, w, "")))
		}
		if f.Min != "" && Profile().Strict.MinimumAsValidation {
			below := M(f.Min).Sub(M("0.01"))
			out = append(out, rawCase(w+" "+below.String()+" (minimum "+f.Min+")", with(s, w, below.JSON())))
		}
	}
	return out
}
