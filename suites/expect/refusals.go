package expect

// Refusals the document requires without fixing how they are told apart,
// and the verdicts a spec cannot reach: another documented refusal that
// came first (the order of checks is not shown), an access refusal or a rate
// limit in place of the refusal asked for, an amount too large to provoke a
// refusal through an unknown, a profile key discovery could not settle.

import (
	"fmt"
	"net/http"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/merchant-harness/mph/client"
	"github.com/merchant-harness/mph/suites/framework"
)

// ExpectRefused asserts the refusal of a failure condition whose status the
// document does not give ("which error each individual endpoint returns for
// its other failure conditions: not shown"): the status the profile names
// under errors.status.<condition>, or any 4xx when it names none (0, absent,
// or condition ""); always the error envelope with statusCode the HTTP
// status and error a reason phrase of it. It returns the body.
//
// A 429 or, unless the profile names it for the condition, a 401 or 403 is
// never taken for the refusal asked for: the document gives them other
// meanings (rate limit, credentials, IP whitelist, KYB tier), so the spec
// reaches no verdict. Anything else that is not the refusal fails.
func ExpectRefused(resp *client.Response, condition string) JSON {
	GinkgoHelper()
	Expect(resp).NotTo(BeNil(), "no response")
	want := framework.Profile().Errors.Status[condition]
	what := "the refusal"
	if condition != "" {
		what = fmt.Sprintf("the refusal (%s)", condition)
	}
	if resp.Status != want {
		switch resp.Status {
		case http.StatusTooManyRequests:
			NoVerdictIfStillRateLimited(resp, nil)
		case http.StatusUnauthorized, http.StatusForbidden:
			OtherRefusalFirst(resp, what)
		}
	}
	if want != 0 {
		Expect(resp.Status).To(Equal(want), "%s: HTTP %d, the profile says %d (errors.status.%s)", what, resp.Status, want, condition)
	} else {
		Expect(resp.Status).To(And(BeNumerically(">=", 400), BeNumerically("<", 500)),
			"%s: expected a 4xx with the error envelope (the document names no status for it), got HTTP %d", what, resp.Status)
	}
	return ExpectError(resp, resp.Status)
}

// OtherRefusalFirst ends the spec without a verdict: the target answered
// another documented refusal (the order of checks is not shown), so the one
// the spec provokes was not reached. what names the refusal the spec wanted.
func OtherRefusalFirst(resp *client.Response, what string) {
	GinkgoHelper()
	msg := ""
	if resp != nil {
		var body JSON
		if resp.JSON(&body) == nil {
			msg = strings.Join(Messages(body), "; ")
		}
		if len(msg) > 200 {
			msg = msg[:200] + "…"
		}
		framework.NoVerdict(fmt.Sprintf("another documented refusal came first: %s %s answered HTTP %d %q, not %s (the order of checks is not shown)",
			resp.Exchange.Method, resp.Exchange.URL, resp.Status, msg, what))
	}
	framework.NoVerdict("another documented refusal came first, not " + what)
}

// NoVerdictUnless ends the spec without a verdict, with the reason, unless ok.
func NoVerdictUnless(ok bool, format string, a ...any) {
	GinkgoHelper()
	if !ok {
		framework.NoVerdict(fmt.Sprintf(format, a...))
	}
}

// ExpectRateLimitEnvelope checks the error envelope of a 429 ("429 | rate
// limit exceeded"; the error envelope is the document's for errors). A
// gateway in front of the API may answer 429 in its own form, so under the
// profile's rateLimits.envelope: optional (the default) the envelope is
// judged only when the answer is JSON carrying statusCode; anything else
// leaves the rule nothing to judge (not applicable: "when its body is the
// error envelope"). Under required it is always judged. The echoed path is
// checked as ExpectEchoedPath does.
func ExpectRateLimitEnvelope(resp *client.Response) JSON {
	GinkgoHelper()
	Expect(resp).NotTo(BeNil(), "no response")
	Expect(resp.Status).To(Equal(http.StatusTooManyRequests), "a 429 was expected")
	if framework.Profile().RateLimits.Envelope != "required" {
		var body JSON
		hasCode := false
		if resp.JSON(&body) == nil {
			_, hasCode = body["statusCode"]
		}
		if !IsJSONContentType(resp.Header.Get("Content-Type")) || !hasCode {
			Skip(fmt.Sprintf("the 429 of %s %s is not in the error envelope (Content-Type %q): a gateway's answer, which rateLimits.envelope: optional accepts",
				resp.Exchange.Method, resp.Exchange.URL, resp.Header.Get("Content-Type")))
		}
	}
	body := ExpectError(resp, http.StatusTooManyRequests)
	ExpectEchoedPath(resp, body)
	return body
}
