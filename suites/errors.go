package suites

import (
	"net/http"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/merchant-harness/mph/client"
	"github.com/merchant-harness/mph/schemas"
	. "github.com/merchant-harness/mph/suites/framework"
)

func lowerMsg(body JSON) string { return strings.ToLower(strings.Join(Messages(body), " ")) }

// saysNotFound matches a message saying something was not found, in any of
// the usual wordings (the document gives the meaning, not the sentence).
func saysNotFound() OmegaMatcher {
	return Or(ContainSubstring("not found"), ContainSubstring("not exist"), ContainSubstring("no such"), ContainSubstring("unknown"), ContainSubstring("could not find"),
		MatchRegexp(`\bno\b.*\bfound\b`), ContainSubstring("does not exist"))
}

// expectDuplicateAnswer checks the answer to a duplicate reference per the
// profile (conflict, replay or either) and reports whether it is a replay.
func expectDuplicateAnswer(resp *client.Response, mode string) bool {
	GinkgoHelper()
	if mode == "conflict" || (mode == "either" && resp.Status >= 400) {
		ExpectErrorWithPath(resp, http.StatusConflict)
		return false
	}
	ExpectStatus(resp, http.StatusOK, http.StatusCreated)
	return true
}

var _ = Describe("Errors: the error envelope, status meanings and the six scenarios", func() {
	Context("scenarios", func() {
		ConformanceIt("scenario 1: issuing a card for more than the vault balance answers 400 stating the required total (funding + issuance fee) and the available amount",
			Reqs("ERR-14", "ISSUE-05", "ERR-07"), Serial,
			func(ctx SpecContext) {
				cfg := GetConfig(ctx)
				amount := cfg.VaultBalance.Add(M("1.00")) // funding alone beyond the vault
				resp, _ := IssueCard(ctx, WithAmount(amount))
				body := ExpectErrorWithPath(resp, http.StatusBadRequest)
				msg := strings.Join(Messages(body), " ")
				required := amount.Add(cfg.CreationFee)
				Expect(ContainsAmount(msg, required)).To(BeTrue(), "message %q must state the required total %s (funding %s + issuance fee %s)", msg, required, amount, cfg.CreationFee)
				Expect(ContainsAmount(msg, cfg.VaultBalance)).To(BeTrue(), "message %q must state the available amount %s", msg, cfg.VaultBalance)
				Expect(GetConfig(ctx).VaultBalance).To(EqualMoney(cfg.VaultBalance), "a refused issuance debits nothing")
			})

		ConformanceIt("scenario 2: a call without a bearer header answers 401 whose message asks for the bearer token",
			Reqs("ERR-15", "AUTH-09", "ERR-08"),
			func(ctx SpecContext) {
				body := ExpectErrorWithPath(Must(Anonymous().Get(ctx, "/cards", nil)), http.StatusUnauthorized)
				Expect(lowerMsg(body)).To(Or(ContainSubstring("bearer"), ContainSubstring("token")), "the message asks for the bearer token")
			})

		ConformanceIt("scenario 2: a call with an expired token answers 401 whose message asks for the bearer token (sandbox clock)",
			Reqs("ERR-15", "AUTH-12", "ERR-08"), Serial, Needs(CapClock),
			func(ctx SpecContext) {
				tok := freshToken(ctx)
				advanceClock(ctx, int64(Timeouts().TokenExpiry/time.Second))
				body := ExpectErrorWithPath(Must(API().WithToken(tok).Get(ctx, "/cards/config", nil)), http.StatusUnauthorized)
				msg := lowerMsg(body)
				Expect(msg).To(Or(ContainSubstring("bearer"), ContainSubstring("token")), "the message asks for the bearer token")
			})

		ConformanceIt("scenario 3: a wrong secret key or merchant id at POST /auth/token answers 401 whose message reports invalid credentials",
			Reqs("ERR-16", "AUTH-07", "ERR-08"),
			func(ctx SpecContext) {
				p := Cfg().Primary
				for _, b := range []client.TokenBody{
					{MerchantID: p.MerchantID, SecretKey: p.SecretKey + "x"},
					{MerchantID: p.MerchantID + "_nosuch", SecretKey: p.SecretKey},
				} {
					body := ExpectErrorWithPath(Must(Anonymous().RawAuth().Post(ctx, client.TokenPath, b)), http.StatusUnauthorized)
					// Key words, not a sentence: the message reports the
					// credentials (or the key / merchant id) as invalid.
					msg := lowerMsg(body)
					Expect(msg).To(Or(ContainSubstring("credential"), ContainSubstring("secret"), ContainSubstring("key"), ContainSubstring("merchant")), "the message reports invalid credentials")
					Expect(msg).To(Or(ContainSubstring("invalid"), ContainSubstring("incorrect"), ContainSubstring("wrong"), ContainSubstring("bad"), ContainSubstring("not valid")), "the message reports invalid credentials")
					Expect(string(Must(Anonymous().RawAuth().Post(ctx, client.TokenPath, b)).Body)).NotTo(ContainSubstring("accessToken"))
				}
			})

		ConformanceIt("scenario 4: a caller whose IP is outside the whitelist gets 403 whose message says the IP address is not allowed for the merchant account",
			Reqs("ERR-17", "AUTH-18", "ERR-09"), Needs(CapNotWhitelisted),
			func(ctx SpecContext) {
				nw := *Cfg().NotWhitelisted
				resp := Must(Anonymous().RawAuth().Post(ctx, client.TokenPath, client.TokenBody{MerchantID: nw.MerchantID, SecretKey: nw.SecretKey}))
				if resp.Status == http.StatusOK { // refused per call rather than at the token exchange
					tok, _ := Data(resp.Map())["accessToken"].(string)
					resp = Must(API().WithToken(tok).Get(ctx, "/cards/config", nil))
				}
				body := ExpectErrorWithPath(resp, http.StatusForbidden)
				msg := lowerMsg(body)
				Expect(msg).To(Or(ContainSubstring("ip"), ContainSubstring("address")), "the message names the IP address")
				Expect(msg).To(Or(ContainSubstring("not allowed"), ContainSubstring("not permitted"), ContainSubstring("not whitelisted"), ContainSubstring("whitelist"), ContainSubstring("allowlist")), "the message says it is not allowed")
			})

		ConformanceIt("scenario 5: an unknown card id answers 404 whose message says the virtual card was not found",
			Reqs("ERR-18", "GET-04", "ERR-10"),
			func(ctx SpecContext) {
				body := ExpectErrorWithPath(Must(API().Get(ctx, cardURL("crd_"+Ref("nosuch"), ""), nil)), http.StatusNotFound)
				msg := lowerMsg(body)
				Expect(msg).To(ContainSubstring("card"), "the message says the virtual card was not found")
				Expect(msg).To(saysNotFound(), "the message says the virtual card was not found")
			})

		ConformanceIt("scenario 6: an unknown gift order reference answers 404 whose message names the reference and says the order was not found",
			Reqs("ERR-19", "ERR-05", "GIFT-14"),
			func(ctx SpecContext) {
				ref := Ref("nogift")
				body := expectGiftNotFound(verifyGift(ctx, API(), ref))
				Expect(strings.Join(Messages(body), " ")).To(ContainSubstring(ref), "the message names the reference")
				msg := lowerMsg(body)
				Expect(msg).To(ContainSubstring("gift"), "the message says the gift card order was not found")
				Expect(msg).To(saysNotFound(), "the message says the gift card order was not found")
			})
	})

	Context("409", func() {
		// The 409 names a "duplicate idempotency reference": a server may refuse
		// the duplicate (409) or replay the original answer (the profile's
		// issuance.duplicateReference); either way no second card exists.
		ConformanceIt("answers a second card with the same merchant reference with 409 or a replay of the first card, never a second card",
			Reqs("ERR-11", "ERR-01"), Destructive,
			func(ctx SpecContext) {
				if Profile().Issuance.ReferenceField == "" {
					Skip("the target takes no card reference at issuance (profile issuance.referenceField is empty)")
				}
				ref := Ref("dup")
				first := NewCard(ctx, WithReference(ref), WithAmount(M("1.00")))
				resp, _ := IssueCard(ctx, WithReference(ref), WithAmount(M("1.00")))
				if expectDuplicateAnswer(resp, Profile().Issuance.DuplicateReference) {
					v, _ := Ptr(Decode(resp), Profile().Issuance.CardPointer)
					obj, _ := v.(JSON)
					Expect(obj).NotTo(BeNil(), "a replay carries the card at %s", Profile().Issuance.CardPointer)
					Expect(CardFrom(obj).ID).To(Equal(first.ID), "a replay answers the first card, not a new one")
				}
				Expect(GetCard(ctx, ref).ID).To(Equal(first.ID), "the reference still addresses the first card")
			})

		ConformanceIt("answers a second gift order with the same order reference with 409 or a replay of the first order, never a second order",
			Reqs("ERR-11"), Destructive, Needs(CapTestEnvironment),
			func(ctx SpecContext) {
				g := Profile().GiftCards
				if g.Purchase.Fields["reference"] == "" {
					Skip("the target takes no merchant order reference (profile giftCards.purchase.fields.reference is empty)")
				}
				o := purchaseGift(ctx)
				resp := Must(API().Post(ctx, "/gift-cards/purchase", giftPurchaseBody(o.Reference)))
				if expectDuplicateAnswer(resp, g.Purchase.DuplicateReference) {
					doc := Decode(resp)
					if v, ok := Ptr(doc, g.Purchase.ReferencePointer); ok {
						Expect(v).To(Equal(o.Reference), "a replay answers the first order")
					}
					if v, ok := Ptr(doc, g.Purchase.TransactionIDPointer); ok && o.TransactionID != "" {
						Expect(v).To(Equal(o.TransactionID), "a replay answers the first order, not a new transaction")
					}
				}
			})

		ConformanceIt("refuses settling a transaction already settled with 409",
			Reqs("ERR-12"), Destructive, Needs(CapTransactions),
			func(ctx SpecContext) {
				c := NewCard(ctx, WithAmount(M("2.00")))
				t := transact(ctx, c.ID, M("1.00"))
				Expect(t.Approved).To(BeTrue(), "fixture: the transaction was declined (%s)", derefStr(t.DeclineReason))
				first, err := Controls().Settle(ctx, t.TransactionID)
				if err != nil {
					HarnessError("sandbox control settle: %v", err)
				}
				ExpectStatus(first, http.StatusOK, http.StatusCreated)
				second, err := Controls().Settle(ctx, t.TransactionID)
				if err != nil {
					HarnessError("sandbox control settle: %v", err)
				}
				ExpectError(second, http.StatusConflict)
			})
	})

	Context("envelope", func() {
		ConformanceIt("answers every failure (400, 401, 404, and the profile's status where the document names none) of every endpoint with the error envelope: statusCode the HTTP status, error the reason phrase, timestamp, the request path",
			Reqs("ERR-01", "ERR-02", "ERR-03", "ERR-07", "ERR-08", "ERR-10", "ERR-21", "ENV-05", "ENV-08", "ENV-07"), Destructive,
			func(ctx SpecContext) {
				c := NewCard(ctx, WithAmount(M("1.00")))
				unknown := "crd_" + Ref("nosuch")
				type probe struct {
					what   string
					cl     *client.Client
					req    client.Request
					status int
				}
				probes := []probe{
					{"no bearer on GET /cards/config", Anonymous(), client.Request{Method: "GET", Path: "/cards/config"}, 401},
					{"no bearer on GET /gift-cards/quote", Anonymous(), client.Request{Method: "GET", Path: "/gift-cards/quote", Query: giftQuoteQuery()}, 401},
					{"no bearer on GET /betting/quote", Anonymous(), client.Request{Method: "GET", Path: "/betting/quote", Query: bettingQuery()}, 401},
					{"forged bearer on GET /cards", API().WithToken("not.a.jwt"), client.Request{Method: "GET", Path: "/cards"}, 401},
					{"empty token request", Anonymous().RawAuth(), client.Request{Method: "POST", Path: client.TokenPath, Body: JSON{}}, 0},
					{"withdraw 0.01", API(), client.Request{Method: "POST", Path: cardURL(c.ID, "/withdraw"), Body: JSON{"amount": M("0.01").JSON()}}, 400},
					{"status PAUSED", API(), client.Request{Method: "PATCH", Path: cardURL(c.ID, "/status"), Body: JSON{"status": "PAUSED"}}, -1},
					{"issuance with empty nameOnCard", API(), client.Request{Method: "POST", Path: Profile().Issuance.Path, Body: IssuanceBody(SharedCustomer(ctx), "", M("1.00"), Ref("card"))}, 400},
					{"registration without names", API(), client.Request{Method: "POST", Path: "/cards/customers", Body: JSON{"email": "a@example.com"}}, 400},
					{"purchase without recipient", API(), client.Request{Method: "POST", Path: "/gift-cards/purchase", Body: JSON{"amount": M(Profile().GiftCards.FaceValue).JSON()}}, 400},
				}
				for _, e := range cardEndpoints() {
					probes = append(probes, probe{"unknown card on " + e.name, API(), e.request(unknown), 404})
				}
				for _, p := range probes {
					By(p.what)
					resp := Must(p.cl.Do(ctx, p.req))
					status := p.status
					if status == 0 { // 400 or 401 are both documented for a missing secret key
						Expect(resp.Status).To(BeElementOf(400, 401), "%s: want 400 or 401, got %d", p.what, resp.Status)
						status = resp.Status
					}
					if status == -1 { // an invalid status value: which error is not shown
						ExpectEchoedPath(resp, ExpectRefusal(resp, "invalidValue"))
						continue
					}
					ExpectErrorWithPath(resp, status)
				}
			})

		ConformanceIt("carries an array of constraint-violation strings when payload validation fails (empty nameOnCard, amount below a minimum, empty status)",
			Reqs("ERR-04", "ISSUE-02", "ISSUE-03", "WITHDRAW-03", "STATUS-02"), Destructive,
			func(ctx SpecContext) {
				c := NewCard(ctx, WithAmount(M("1.00")))
				cases := []struct {
					what string
					req  client.Request
				}{
					{"empty nameOnCard", client.Request{Method: "POST", Path: Profile().Issuance.Path, Body: IssuanceBody(SharedCustomer(ctx), "", M("1.00"), Ref("card"))}},
					{"initial funding 0.99", client.Request{Method: "POST", Path: Profile().Issuance.Path, Body: IssuanceBody(SharedCustomer(ctx), "Ada Harness", M("0.99"), Ref("card"))}},
					{"withdrawal 0.09", client.Request{Method: "POST", Path: cardURL(c.ID, "/withdraw"), Body: JSON{"amount": M("0.09").JSON()}}},
					// An empty required field ("should not be empty"); a value outside
					// the set is an "invalid status value", whose error is not shown.
					{"status empty", client.Request{Method: "PATCH", Path: cardURL(c.ID, "/status"), Body: JSON{"status": ""}}},
				}
				for _, tc := range cases {
					By(tc.what)
					if strings.Contains(tc.what, "0.99") || strings.Contains(tc.what, "0.09") {
						// Funding below the minimum is also listed as a business
						// constraint failure: any 400 unless the profile is strict.
						resp := Must(API().Do(ctx, tc.req))
						if !Profile().Strict.MinimumAsValidation {
							Expect(Messages(ExpectError(resp, http.StatusBadRequest))).NotTo(BeEmpty(), "the 400 carries a message")
							continue
						}
						ExpectValidationError(resp)
						continue
					}
					msgs := ExpectValidationError(Must(API().Do(ctx, tc.req)))
					for _, m := range msgs {
						Expect(strings.TrimSpace(m)).NotTo(BeEmpty(), "every constraint violation is a non-empty string")
					}
				}
				Expect(GetCard(ctx, c.ID).Status).To(Equal("ACTIVE"))
			})

		ConformanceIt("answers success with 200 or 201 and an error status never with the success envelope",
			Reqs("ERR-06", "ENV-01"),
			func(ctx SpecContext) {
				ok := Must(API().Get(ctx, "/cards/config", nil))
				ExpectEnvelopeA(ok, schemas.ConfigResponse)
				bad := Must(Anonymous().Get(ctx, "/cards/config", nil))
				ExpectError(bad, http.StatusUnauthorized)
				Expect(bad.Map()).NotTo(HaveKeyWithValue("status", "success"))
			})
	})
})
