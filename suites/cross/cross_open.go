package cross

// Bodies the document neither allows nor refuses: the target's declared
// choice (errors.refuses.* and errors.status.* of the profile) decides
// whether and how a cell asserts their refusal; by default nothing is
// asserted of what the document leaves open.

import (
	"encoding/json"
	"net/http"

	. "github.com/onsi/ginkgo/v2"

	"github.com/merchant-harness/mph/api"
	"github.com/merchant-harness/mph/client"
	. "github.com/merchant-harness/mph/suites/framework"
	. "github.com/merchant-harness/mph/suites/specsupport"
)

// openValue is a member value beyond the documented form whose refusal the
// profile declares: refuses names the errors.refuses key ("" always
// refused), condition the errors.status key of its status.
type openValue struct {
	member, raw        string
	refuses, condition string
}

// openValues are, per endpoint, the values whose bounds are "not shown"
// ("Maximum values for amounts and spend limits, and bounds of gift card
// amounts: not shown").
var openValues = map[string][]openValue{
	"withdraw": {
		{"amount", "1e400", "", "withdrawAboveBalance"},
		{"amount", "99999999999999999999999999999", "", "withdrawAboveBalance"},
	},
	"spend-limits": {
		{"transactionLimit", "-5.00", "badSpendLimit", "invalidFormat"},
		{"dailyLimit", "1e400", "badSpendLimit", "invalidFormat"},
		{"monthlyLimit", "-0.01", "badSpendLimit", "invalidFormat"},
	},
	"gift-purchase": {
		{"amount", "-25.00", "negativeGiftAmount", "invalidFormat"},
	},
}

func openRules() []crossRule {
	return []crossRule{
		{id: "body.content-type", title: "refuses a valid body sent as text/plain with a 4xx, where the profile says the target refuses it",
			reqs: []string{"ERR-22"}, cite: "Requests with a body use `Content-Type: application/json`.",
			applies: func(e api.Endpoint) bool { return e.Body != nil && !e.Token() }, check: contentTypeCheck},
		{id: "body.open-value", title: "refuses amounts and limits beyond the bounds the profile declares (a huge or negative number) with a 4xx, never 5xx",
			reqs: []string{"ERR-22"}, cite: "Maximum values for amounts and spend limits, and bounds of gift card amounts: not shown.",
			applies: func(e api.Endpoint) bool { return len(openValues[e.Slug]) > 0 }, check: openValueCheck},
	}
}

// contentTypeCheck: "Requests with a body use Content-Type: application/json"
// is said of requests; whether the target refuses another type is its
// declared choice (errors.refuses.nonJsonContentType).
func contentTypeCheck(ctx SpecContext, e api.Endpoint) {
	if !TargetRefuses("nonJsonContentType") {
		notApplicable("the profile says the target does not refuse a body of another Content-Type (errors.refuses.nonJsonContentType is false); the document does not say that it must")
	}
	p := newProbe(ctx, e)
	raw, _ := json.Marshal(p.req.Body)
	resp := p.do(ctx, API(), func(r *client.Request) {
		r.Body, r.RawBody, r.ContentType = nil, raw, "text/plain"
	})
	ExpectClientError(resp)
}

// openValueCheck sends each open value in the endpoint's valid body: a 400
// (a malformed payload, the documented refusal) or the profile's status.
func openValueCheck(ctx SpecContext, e api.Endpoint) {
	p := newProbe(ctx, e)
	sample := p.req.Body.(map[string]any)
	n := 0
	for _, v := range openValues[e.Slug] {
		if v.refuses != "" && !TargetRefuses(v.refuses) {
			continue
		}
		n++
		By(v.member + " " + v.raw)
		body := with(sample, v.member, json.Number(v.raw))
		raw, _ := json.Marshal(body)
		resp := sendBody(ctx, p, bodyCase{what: v.member + " " + v.raw, raw: raw})
		if resp.Status == http.StatusBadRequest {
			ExpectErrorWithPath(resp, http.StatusBadRequest)
			continue
		}
		ExpectErrorPath(resp, ExpectRefusal(resp, v.condition))
	}
	if n == 0 {
		notApplicable("the profile says the target does not refuse these values (errors.refuses); the document leaves their bounds open")
	}
}
