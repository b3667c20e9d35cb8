package access

import (
	"net/http"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/merchant-harness/mph/client"
	"github.com/merchant-harness/mph/schemas"
	. "github.com/merchant-harness/mph/suites/expect"
	"github.com/merchant-harness/mph/suites/fixtures"
	. "github.com/merchant-harness/mph/suites/framework"
	. "github.com/merchant-harness/mph/suites/specsupport"
)

// expectRefusedWithoutLeak asserts a 400 or 404 (never 5xx, never success)
// with the error envelope and none of card c's data. A request target too
// long for the HTTP server or a proxy in front of the API may be refused
// as HTTP refuses it (longTarget: 414 URI Too Long, 431): in the error
// envelope when the answer is one.
func expectRefusedWithoutLeak(resp *client.Response, c fixtures.Card, what string, longTarget bool) {
	GinkgoHelper()
	Expect(resp.Status).NotTo(BeNumerically(">=", 500), "%s: the server failed (HTTP %d) instead of refusing", what, resp.Status)
	ExpectNoCardData(resp, c)
	if longTarget && (resp.Status == http.StatusRequestURITooLong || resp.Status == http.StatusRequestHeaderFieldsTooLarge) {
		if carriesErrorEnvelope(resp) {
			ExpectError(resp, resp.Status)
		}
		return
	}
	Expect(resp.Status).To(BeElementOf(http.StatusBadRequest, http.StatusNotFound), "%s: want 400 or 404, got %d", what, resp.Status)
	ExpectError(resp, resp.Status)
}

// expectUnchanged asserts the card's balance and status did not move.
func expectUnchanged(ctx SpecContext, before fixtures.Card) {
	GinkgoHelper()
	after := fixtures.GetCard(ctx, before.ID)
	Expect(after.Balance).To(EqualMoney(before.Balance), "the card's balance changed")
	Expect(after.Status).To(Equal(before.Status), "the card's status changed")
}

// Malformed bodies are cells of the cross-cutting rules (cross_body.go).
var _ = Describe("Malformed requests: identifiers and bodies", func() {
	identifierSpecs()
})

// identifierSpecs: paths that name no card.
func identifierSpecs() {
	ConformanceIt("answers malformed card identifiers (id/id, ?x=1, %00, very long, {}) on every card endpoint with 400 or 404 and the error envelope (a very long one also 414 or 431), never 5xx nor another card's data", SpecID("errors.answers-malformed-card"),
		Reqs("ERR-23"), Destructive,
		func(ctx SpecContext) {
			c := fixtures.NewCard(ctx, fixtures.WithAmount(M("2.00")))
			seg := client.Seg(c.ID)
			paths := map[string]string{
				"id/id":          "/cards/" + seg + "/" + seg,
				"id?x=1 escaped": "/cards/" + seg + "%3Fx%3D1",
				"id%00":          "/cards/" + seg + "%00",
				"%00id":          "/cards/%00" + seg,
				"very long id":   "/cards/" + seg + strings.Repeat("9", 3000),
				"{}":             "/cards/%7B%7D",
				"{id}":           "/cards/%7B" + seg + "%7D",
				"id prefix":      "/cards/" + client.Seg(c.ID[:len(c.ID)-1]),
				"id%2F..":        "/cards/" + seg + "%2F..",
				"* wildcard":     "/cards/" + client.Seg("*"),
				"% sql":          "/cards/" + client.Seg("' OR '1'='1"),
			}
			for what, p := range paths {
				for _, e := range CardEndpoints() {
					req := e.Request("x")
					req.Path = p + e.Suffix
					By(what + " on " + e.Name)
					expectRefusedWithoutLeak(Must(API().Do(ctx, req)), c, what+" on "+e.Name, what == "very long id")
				}
			}
			expectUnchanged(ctx, c)
		})

	ConformanceIt("never answers /cards/{id}?x=1 with another card or a 5xx: either the card itself or a 400/404 error envelope", SpecID("errors.never-answers-cards-id"),
		Reqs("ERR-23"),
		func(ctx SpecContext) {
			c := fixtures.SharedCard(ctx)
			resp := Must(API().Get(ctx, CardURL(c.ID, "")+"?x=1", nil))
			if resp.Status == http.StatusOK {
				body := ExpectEnvelopeA(resp, schemas.CardResponse)
				Expect(Data(body)).To(HaveKeyWithValue("id", c.ID), "a query string must not address another card")
				return
			}
			Expect(resp.Status).To(BeElementOf(http.StatusBadRequest, http.StatusNotFound), "want the card, 400 or 404; got %d", resp.Status)
			ExpectError(resp, resp.Status)
		})
}
