package access

import (
	"net/http"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/merchant-harness/mph/client"
	"github.com/merchant-harness/mph/schemas"
	. "github.com/merchant-harness/mph/suites/expect"
	"github.com/merchant-harness/mph/suites/fixtures"
	. "github.com/merchant-harness/mph/suites/framework"
	. "github.com/merchant-harness/mph/suites/specsupport"
)

// The status meanings a provoked failure stands for.
const (
	meansBadRequest   = "ERR-07" // 400: missing parameters, malformed payload, business constraint
	meansUnauthorized = "ERR-08" // 401: token missing, wrong or expired
	meansTokenRefused = "AUTH-08"
	meansNotFound     = "ERR-10" // 404: card or customer does not exist
	meansUnnamed      = "ERR-21" // an error the document does not name per endpoint
)

// unnamedRefusals are the profile's conditions (errors.status) of the
// failures whose error the document does not name.
var unnamedRefusals = map[string]string{
	"status PAUSED":                     "invalidValue",
	"withdrawal above the card balance": "withdrawAboveBalance",
}

// failure is one failure provoked on purpose, its answer read once.
type failure struct {
	what    string
	meaning string
	answer  Answer
}

// failureProbe is one request that must fail and the status meaning it stands for.
type failureProbe struct {
	what    string
	meaning string
	cl      *client.Client
	req     client.Request
}

// provokeFailures sends every failure of the table (400, 401 and 404 on
// every endpoint family, and failures whose error the document leaves to
// the endpoint) and reads each answer once.
func provokeFailures(ctx SpecContext) []failure {
	c := fixtures.NewCard(ctx, fixtures.WithAmount(M("1.00")))
	unknown := "crd_" + fixtures.Ref("nosuch")
	probes := []failureProbe{
		{"no bearer on GET /cards/config", meansUnauthorized, Anonymous(), client.Request{Method: "GET", Path: "/cards/config"}},
		{"no bearer on GET /gift-cards/quote", meansUnauthorized, Anonymous(), client.Request{Method: "GET", Path: "/gift-cards/quote", Query: GiftQuoteQuery()}},
		{"no bearer on GET /betting/quote", meansUnauthorized, Anonymous(), client.Request{Method: "GET", Path: "/betting/quote", Query: BettingQuery()}},
		{"forged bearer on GET /cards", meansUnauthorized, API().WithToken("not.a.jwt"), client.Request{Method: "GET", Path: "/cards"}},
		{"empty token request", meansTokenRefused, Anonymous().RawAuth(), client.Request{Method: "POST", Path: client.TokenPath, Body: JSON{}}},
		{"withdraw 0.09 (below the minimum 0.10)", meansBadRequest, API(), client.Request{Method: "POST", Path: CardURL(c.ID, "/withdraw"), Body: JSON{"amount": M("0.09").JSON()}}},
		{"issuance with empty nameOnCard", meansBadRequest, API(), client.Request{Method: "POST", Path: Profile().Issuance.Path, Body: fixtures.IssuanceBody(fixtures.SharedCustomer(ctx), "", M("1.00"), fixtures.Ref("card"))}},
		{"registration without names", meansBadRequest, API(), client.Request{Method: "POST", Path: "/cards/customers", Body: JSON{"email": "a@example.com"}}},
		{"purchase without recipient", meansBadRequest, API(), client.Request{Method: "POST", Path: "/gift-cards/purchase", Body: JSON{"amount": M(Profile().GiftCards.FaceValue).JSON()}}},
		{"issuance for a customer that does not exist", meansNotFound, API(), client.Request{Method: "POST", Path: Profile().Issuance.Path, Body: fixtures.IssuanceBody("cus_"+Cfg().RunID+"nosuchcustomer", "Ada Harness", M("1.00"), fixtures.Ref("card"))}},
		{"status PAUSED", meansUnnamed, API(), client.Request{Method: "PATCH", Path: CardURL(c.ID, "/status"), Body: JSON{"status": "PAUSED"}}},
		{"withdrawal above the card balance", meansUnnamed, API(), client.Request{Method: "POST", Path: CardURL(c.ID, "/withdraw"), Body: JSON{"amount": c.Balance.Add(M("5.00")).JSON()}}},
	}
	for _, e := range CardEndpoints() {
		probes = append(probes, failureProbe{"unknown card on " + e.Name, meansNotFound, API(), e.Request(unknown)})
	}
	out := make([]failure, 0, len(probes))
	for _, p := range probes {
		out = append(out, failure{what: p.what, meaning: p.meaning, answer: ReadAnswer(Must(p.cl.Do(ctx, p.req)), schemas.ErrorEnvelope)})
	}
	return out
}

// eachFailure runs rule on every failure (of the meanings given, or all), By its name.
func eachFailure(fs []failure, rule func(f failure), meanings ...string) {
	GinkgoHelper()
	n := 0
	for _, f := range fs {
		if len(meanings) > 0 && !contains(meanings, f.meaning) {
			continue
		}
		By(f.what)
		rule(f)
		n++
	}
	Expect(n).To(BeNumerically(">", 0), "no failure of %v was provoked", meanings)
}

// eachGiven runs rule on every failure carrying member (every failure under
// strict.errorEnvelopeComplete, which requires it); none carrying it leaves
// the rule nothing to judge.
func eachGiven(fs []failure, member string, rule func(f failure)) {
	GinkgoHelper()
	strict := Profile().Strict.ErrorEnvelopeComplete
	n := 0
	eachFailure(fs, func(f failure) {
		if _, given := f.answer.Body[member]; !given && !strict {
			return
		}
		Expect(f.answer.Body).To(HaveKey(member), "the error envelope carries %s (profile strict.errorEnvelopeComplete)", member)
		rule(f)
		n++
	})
	if n == 0 {
		Skip("not applicable: no error answer carries " + member + " (the document shows an error without it: the gift order 404 with only statusCode, message and error)")
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

var _ = Describe("Errors: status meanings and the error envelope", func() {
	failures := Shared(provokeFailures)
	ConformanceTable("on every endpoint's failures",
		func(ctx SpecContext, rule func([]failure)) { rule(failures(ctx)) },
		Destructive,
		ConformanceEntry("answers missing parameters, a malformed payload or a business constraint failure with 400", SpecID("errors.answers-missing-parameters"), func(fs []failure) {
			eachFailure(fs, func(f failure) { ExpectStatus(f.answer.Resp, http.StatusBadRequest) }, meansBadRequest)
		}, Reqs("ERR-07")),
		ConformanceEntry("answers a missing or wrong bearer token with 401, and a token request without credentials with 400 or 401", SpecID("errors.answers-missing-wrong-bearer"), func(fs []failure) {
			eachFailure(fs, func(f failure) { ExpectStatus(f.answer.Resp, http.StatusUnauthorized) }, meansUnauthorized)
			eachFailure(fs, func(f failure) { ExpectStatus(f.answer.Resp, http.StatusBadRequest, http.StatusUnauthorized) }, meansTokenRefused)
		}, Reqs("ERR-08")),
		ConformanceEntry("answers a card or customer that does not exist with 404", SpecID("errors.answers-card-customer-does"), func(fs []failure) {
			eachFailure(fs, func(f failure) { ExpectStatus(f.answer.Resp, http.StatusNotFound) }, meansNotFound)
		}, Reqs("ERR-10")),
		ConformanceEntry("answers failures whose error is not named (an invalid status value, a withdrawal above the balance) with a 4xx, the profile's where given", SpecID("errors.answers-failures-error-not"), func(fs []failure) {
			eachFailure(fs, func(f failure) { ExpectRefused(f.answer.Resp, unnamedRefusals[f.what]) }, meansUnnamed)
		}, Reqs("ERR-21")),
		// The document shows one error, the gift order 404, "with only
		// statusCode, message and error": the other members are judged where
		// given, required under strict.errorEnvelopeComplete.
		ConformanceEntry("carries statusCode, message and error, and status error, timestamp and path where given (all six under strict.errorEnvelopeComplete)", SpecID("errors.carries-status-error"), func(fs []failure) {
			eachFailure(fs, func(f failure) {
				Expect(f.answer.Body).NotTo(BeNil(), "the error envelope is a JSON object")
				for _, k := range []string{"statusCode", "message", "error"} {
					Expect(f.answer.Body).To(HaveKey(k), "the error envelope carries %s", k)
				}
				ExpectErrorComplete(f.answer.Body)
				if v, given := f.answer.Body["status"]; given {
					Expect(v).To(Equal("error"), "the error envelope's status is error")
				}
				f.answer.ExpectNoViolationOutside("/timestamp", "/path")
			})
		}, Reqs("ERR-01")),
		ConformanceEntry("gives statusCode, the HTTP status", SpecID("errors.gives-statuscode-http-status"), func(fs []failure) {
			eachFailure(fs, func(f failure) {
				f.answer.ExpectNoViolationUnder("/statusCode")
				ExpectStatusCodeField(f.answer.Body, f.answer.Resp.Status)
			})
		}, Reqs("ERR-02")),
		ConformanceEntry("gives error, the HTTP reason phrase", SpecID("errors.gives-error-http-reason"), func(fs []failure) {
			eachFailure(fs, func(f failure) {
				ExpectReasonPhrase(f.answer.Body, f.answer.Resp.Status)
			})
		}, Reqs("ERR-03")),
		ConformanceEntry("gives timestamp as an ISO 8601 timestamp, where given", SpecID("envelopes.gives-timestamp-iso-8601"), func(fs []failure) {
			eachGiven(fs, "timestamp", func(f failure) { f.answer.ExpectNoViolationUnder("/timestamp") })
		}, Reqs("ENV-05")),
		ConformanceEntry("gives path, the request path, where given", SpecID("envelopes.gives-path-request-path"), func(fs []failure) {
			eachGiven(fs, "path", func(f failure) { ExpectEchoedPath(f.answer.Resp, f.answer.Body) })
		}, Reqs("ENV-08")),
		ConformanceEntry("answers in JSON", SpecID("envelopes.answers-json"), func(fs []failure) {
			eachFailure(fs, func(f failure) {
				ExpectJSONContentType(f.answer.Resp)
				Expect(f.answer.Body).NotTo(BeNil(), "the body is a JSON object")
			})
		}, Reqs("ENV-07")),
	)
})
