package suites

import (
	"net/http"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/merchant-harness/mph/client"
	"github.com/merchant-harness/mph/schemas"
	. "github.com/merchant-harness/mph/suites/framework"
)

// expectRefusedWithoutLeak asserts a 400 or 404 (never 5xx, never success)
// with the error envelope and none of card c's data.
func expectRefusedWithoutLeak(resp *client.Response, c Card, what string) {
	GinkgoHelper()
	Expect(resp.Status).NotTo(BeNumerically(">=", 500), "%s: the server failed (HTTP %d) instead of refusing", what, resp.Status)
	Expect(resp.Status).To(BeElementOf(http.StatusBadRequest, http.StatusNotFound), "%s: want 400 or 404, got %d", what, resp.Status)
	ExpectError(resp, resp.Status)
	ExpectNoCardData(resp, c)
}

// expectUnchanged asserts the card's balance and status did not move.
func expectUnchanged(ctx SpecContext, before Card) {
	GinkgoHelper()
	after := GetCard(ctx, before.ID)
	Expect(after.Balance).To(EqualMoney(before.Balance), "the card's balance changed")
	Expect(after.Status).To(Equal(before.Status), "the card's status changed")
}

var _ = Describe("Malformed requests: identifiers and bodies", func() {
	identifierSpecs()
	malformedBodyTable()
	creationBodySpecs()
})

// identifierSpecs: paths that name no card.
func identifierSpecs() {
	ConformanceIt("answers malformed card identifiers (id/id, ?x=1, %00, very long, {}) on every card endpoint with 400 or 404 and the error envelope, never 5xx nor another card's data", SpecID("errors.answers-malformed-card"),
		Reqs("ERR-23"), Destructive,
		func(ctx SpecContext) {
			c := NewCard(ctx, WithAmount(M("2.00")))
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
				for _, e := range cardEndpoints() {
					req := e.request("x")
					req.Path = p + e.suffix
					By(what + " on " + e.name)
					expectRefusedWithoutLeak(Must(API().Do(ctx, req)), c, what+" on "+e.name)
				}
			}
			expectUnchanged(ctx, c)
		})

	ConformanceIt("never answers /cards/{id}?x=1 with another card or a 5xx: either the card itself or a 400/404 error envelope", SpecID("errors.never-answers-cards-id"),
		Reqs("ERR-23"),
		func(ctx SpecContext) {
			c := SharedCard(ctx)
			resp := Must(API().Get(ctx, cardURL(c.ID, "")+"?x=1", nil))
			if resp.Status == http.StatusOK {
				body := ExpectEnvelopeA(resp, schemas.CardResponse)
				Expect(Data(body)).To(HaveKeyWithValue("id", c.ID), "a query string must not address another card")
				return
			}
			Expect(resp.Status).To(BeElementOf(http.StatusBadRequest, http.StatusNotFound), "want the card, 400 or 404; got %d", resp.Status)
			ExpectError(resp, resp.Status)
		})
}

// malformed is one malformed body.
type malformed struct {
	what        string
	raw         string
	contentType string
	emptyBody   bool
}

var malformedBodies = []malformed{
	{what: "not JSON", raw: `{"amount": 1.00`},
	{what: "plain text", raw: `amount=1.00`},
	{what: "a JSON array", raw: `[{"amount": 1.00}]`},
	{what: "a JSON string", raw: `"1.00"`},
	{what: "JSON null", raw: `null`},
	{what: "no body", emptyBody: true},
	{what: "two JSON objects", raw: `{"amount": 1.00}{"amount": 1.00}`},
}

// bodyEndpoint is a card endpoint taking a body, and the malformed values
// of its members.
type bodyEndpoint struct {
	name, method, suffix string
	wrongTypes           []string // JSON bodies with wrong member types
	badNumbers           []string // amounts below a documented minimum (400)
	// Numbers the target must refuse (openRefuses "") or refuses per the
	// profile (errors.refuses.<openRefuses>), with the status the document
	// does not show (errors.status.<openCondition>, else any 4xx).
	openNumbers                []string
	openCondition, openRefuses string
	// Every body field is optional: an absent body may be a no-op update.
	allOptional bool
}

func bodyEndpoints() map[string]bodyEndpoint {
	out := map[string]bodyEndpoint{}
	for _, e := range []bodyEndpoint{
		{"POST /cards/{id}/withdraw", http.MethodPost, "/withdraw",
			[]string{`{"amount":"1.00"}`, `{"amount":true}`, `{"amount":{"value":1}}`, `{"amount":[1]}`, `{"amount":null}`},
			[]string{`{"amount":-1.00}`, `{"amount":-0.10}`, `{"amount":0}`},
			[]string{`{"amount":1e400}`, `{"amount":99999999999999999999999999999}`}, "withdrawAboveBalance", "", false},
		{"PUT /cards/{id}/spend-limits", http.MethodPut, "/spend-limits",
			[]string{`{"transactionLimit":"5"}`, `{"dailyLimit":true}`, `{"monthlyLimit":[5]}`, `{"allTimeLimit":{"v":5}}`},
			nil,
			[]string{`{"transactionLimit":-5.00}`, `{"dailyLimit":1e400}`, `{"monthlyLimit":-0.01}`}, "invalidFormat", "badSpendLimit", true},
		{"PATCH /cards/{id}/status", http.MethodPatch, "/status",
			[]string{`{"status":1}`, `{"status":true}`, `{"status":["FROZEN"]}`, `{"status":null}`},
			nil, nil, "", "", false},
		{"PATCH /cards/{id}/contact", http.MethodPatch, "/contact",
			[]string{`{"email":1}`, `{"mobile":true}`},
			nil, nil, "", "", true},
		{"POST /cards/{id}/simulate-webhook", http.MethodPost, "/simulate-webhook",
			[]string{`{"event_type":1}`, `{"event_type":["authorization"]}`},
			nil, nil, "", "", false},
	} {
		out[e.name] = e
	}
	return out
}

// expectMalformedBodiesRefused sends every malformed body to e for a card
// of its own and asserts each refusal, the card unchanged.
func expectMalformedBodiesRefused(ctx SpecContext, e bodyEndpoint) {
	c := NewCard(ctx, WithAmount(M("2.00")))
	send := func(what, raw, ct string, empty bool) {
		By(what)
		req := client.Request{Method: e.method, Path: cardURL(c.ID, e.suffix), RawBody: []byte(raw), HasRawBody: true, ContentType: ct}
		if empty {
			req.RawBody = nil
		}
		resp := Must(API().Do(ctx, req))
		Expect(resp.Status).NotTo(BeNumerically(">=", 500), "%s: the server failed (HTTP %d) instead of refusing", what, resp.Status)
		ExpectErrorWithPath(resp, http.StatusBadRequest)
	}
	for _, b := range malformedBodies {
		if (b.emptyBody || b.raw == "null") && e.allOptional {
			// Every field is optional: an absent (or JSON null) body
			// is either refused (400) or a no-op update (200).
			By(b.what + " (all fields optional)")
			resp := Must(API().Do(ctx, client.Request{Method: e.method, Path: cardURL(c.ID, e.suffix), RawBody: []byte(b.raw), HasRawBody: true}))
			if resp.Status != http.StatusOK {
				ExpectErrorWithPath(resp, http.StatusBadRequest)
			}
			continue
		}
		send(b.what, b.raw, b.contentType, b.emptyBody)
	}
	for _, raw := range e.wrongTypes {
		send("wrong type "+raw, raw, "", false)
	}
	for _, raw := range e.badNumbers {
		send("bad number "+raw, raw, "", false)
	}
	if e.openRefuses == "" || targetRefuses(e.openRefuses) {
		for _, raw := range e.openNumbers {
			By("bad number " + raw)
			resp := Must(API().Do(ctx, client.Request{Method: e.method, Path: cardURL(c.ID, e.suffix), RawBody: []byte(raw), HasRawBody: true}))
			if resp.Status == http.StatusBadRequest {
				// Also a malformed payload (documented 400): which
				// check comes first is not shown.
				ExpectErrorWithPath(resp, http.StatusBadRequest)
				continue
			}
			ExpectEchoedPath(resp, ExpectRefusal(resp, e.openCondition))
		}
	}
	// The document says requests with a body use application/json,
	// not that others are refused, nor with which status.
	if targetRefuses("nonJsonContentType") {
		By("a valid body sent as text/plain")
		valid := map[string]string{"/withdraw": `{"amount":0.50}`, "/spend-limits": `{"transactionLimit":0.50}`, "/status": `{"status":"FROZEN"}`, "/contact": `{"email":"a@example.com"}`, "/simulate-webhook": `{"event_type":"authorization"}`}[e.suffix]
		resp := Must(API().Do(ctx, client.Request{Method: e.method, Path: cardURL(c.ID, e.suffix), RawBody: []byte(valid), ContentType: "text/plain"}))
		ExpectClientError(resp)
	}
	expectUnchanged(ctx, c)
}

func malformedBodyTable() {
	eps := bodyEndpoints()
	// Not JSON, not an object, missing, wrong types, amounts below the minimum:
	// 400; per the profile, huge or negative numbers and a non-JSON content
	// type: a 4xx.
	ConformanceTable("refuses malformed bodies (400, or per the profile a 4xx), never 5xx, the card unchanged",
		expectMalformedBodiesRefused,
		Destructive, Needs(CapTestEnvironment),
		ConformanceEntry("on POST /cards/{id}/withdraw", SpecID("errors.post-cards-id-withdraw"), eps["POST /cards/{id}/withdraw"], Reqs("ERR-22")),
		ConformanceEntry("on PUT /cards/{id}/spend-limits", SpecID("errors.put-cards-id-spend"), eps["PUT /cards/{id}/spend-limits"], Reqs("ERR-22")),
		ConformanceEntry("on PATCH /cards/{id}/status", SpecID("errors.patch-cards-id-status"), eps["PATCH /cards/{id}/status"], Reqs("ERR-22")),
		ConformanceEntry("on PATCH /cards/{id}/contact", SpecID("errors.patch-cards-id-contact"), eps["PATCH /cards/{id}/contact"], Reqs("ERR-22")),
		ConformanceEntry("on POST /cards/{id}/simulate-webhook", SpecID("errors.post-cards-id-simulate"), eps["POST /cards/{id}/simulate-webhook"], Reqs("ERR-22")),
	)
}

// creationBodySpecs: malformed bodies of the calls that create something.
func creationBodySpecs() {
	ConformanceIt("refuses malformed issuance, registration and purchase bodies with 400 (a negative gift amount, per the profile, with a 4xx), never 5xx, debiting nothing", SpecID("errors.refuses-malformed-issuance"),
		Reqs("ERR-22"), Destructive, Serial,
		func(ctx SpecContext) {
			before := GetConfig(ctx)
			cust := SharedCustomer(ctx)
			idf := Profile().Issuance.CustomerIDField
			cases := []struct{ what, path, raw string }{
				{"issuance not JSON", Profile().Issuance.Path, `{"nameOnCard":`},
				{"issuance array", Profile().Issuance.Path, `[]`},
				{"issuance amount as string", Profile().Issuance.Path, `{"` + idf + `":"` + cust + `","nameOnCard":"A B","amount":"5.00"}`},
				{"issuance negative amount", Profile().Issuance.Path, `{"` + idf + `":"` + cust + `","nameOnCard":"A B","amount":-5.00}`},
				{"issuance huge amount", Profile().Issuance.Path, `{"` + idf + `":"` + cust + `","nameOnCard":"A B","amount":1e400}`},
				{"issuance nameOnCard as number", Profile().Issuance.Path, `{"` + idf + `":"` + cust + `","nameOnCard":42,"amount":5.00}`},
				{"registration not JSON", "/cards/customers", `{"firstName":`},
				{"registration names as numbers", "/cards/customers", `{"firstName":1,"lastName":2,"email":"a@example.com","phoneNumber":"5550100"}`},
				{"purchase not JSON", "/gift-cards/purchase", `{"amount":`},
				{"purchase amount as string", "/gift-cards/purchase", `{"amount":"25.00","recipientEmail":"a@example.com","recipientName":"A"}`},
				{"token not JSON", client.TokenPath, `{"merchantId":`},
			}
			for _, tc := range cases {
				By(tc.what)
				cl := API()
				if tc.path == client.TokenPath {
					cl = Anonymous().RawAuth()
				}
				resp := Must(cl.Do(ctx, client.Request{Method: http.MethodPost, Path: tc.path, RawBody: []byte(tc.raw), HasRawBody: true}))
				Expect(resp.Status).NotTo(BeNumerically(">=", 500), "%s: the server failed (HTTP %d)", tc.what, resp.Status)
				ExpectErrorWithPath(resp, http.StatusBadRequest)
			}
			// Bounds of gift card amounts are not shown: whether (and with
			// which status) a negative face value is refused is the profile's.
			if targetRefuses("negativeGiftAmount") {
				By("purchase negative amount")
				resp := Must(API().Do(ctx, client.Request{Method: http.MethodPost, Path: "/gift-cards/purchase", RawBody: []byte(`{"amount":-25.00,"recipientEmail":"a@example.com","recipientName":"A"}`), HasRawBody: true}))
				ExpectEchoedPath(resp, ExpectRefusal(resp, "invalidFormat"))
			}
			Expect(GetConfig(ctx).VaultBalance).To(EqualMoney(before.VaultBalance), "a refused request debited the vault")
		})
}
