package access

import (
	"net/http"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/merchant-harness/mph/client"
	"github.com/merchant-harness/mph/schemas"
	. "github.com/merchant-harness/mph/suites/expect"
	"github.com/merchant-harness/mph/suites/fixtures"
	. "github.com/merchant-harness/mph/suites/framework"
	. "github.com/merchant-harness/mph/suites/specsupport"
)

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

var _ = Describe("Errors: the six scenarios, 409 and validation", func() {
	vaultScenario()
	credentialScenarios()
	notFoundScenarios()

	Context("409", conflictSpecs)

	Context("validation", func() {
		validationTable()

		ConformanceIt("answers success with 200 or 201 and an error status never with the success envelope", SpecID("errors.answers-success-200-201"),
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

// vaultScenario: scenario 1 of the Errors section. The funding beyond the
// vault is small (OverVaultAmount: the balances control, else not
// applicable above testData.maxProbeAmount): a maximum funding, not shown,
// may answer a large one first.
func vaultScenario() {
	ConformanceIt("scenario 1: issuing a card for more than the vault balance answers 400 stating the required total (funding + issuance fee) and the available amount", SpecID("errors.scenario-1-issuing-card"),
		Reqs("ERR-14"), Serial,
		func(ctx SpecContext) {
			amount, cfg := fixtures.OverVaultAmount(ctx)
			vault := cfg.VaultBalance
			if Has(CapBalances) {
				vault = controlVault(ctx) // the vault set; the configuration may show it later
			}
			resp, _ := fixtures.IssueCard(ctx, fixtures.WithAmount(amount))
			body := ExpectErrorWithPath(resp, http.StatusBadRequest)
			required := amount.Add(cfg.CreationFee)
			ExpectMessageMeans(body, "scenario 1 (the required total, funding "+amount.String()+" + issuance fee "+cfg.CreationFee.String()+", and the available amount)",
				Meaning{Amounts: []Money{required, vault}})
			EventuallyFresh(ctx, "the vault after a refused issuance", func(g Gomega) {
				g.Expect(fixtures.GetConfig(ctx).VaultBalance).To(EqualMoney(vault), "a refused issuance debits nothing")
			})
		})

}

// controlVault reads the primary merchant's vault through the sandbox
// balances control (the target's own state, not a configuration read that
// may lag: the vault's freshness is not stated).
func controlVault(ctx SpecContext) Money {
	GinkgoHelper()
	b, err := Controls().Balances(ctx, Cfg().Primary.MerchantID, Environment())
	if err != nil {
		HarnessError("sandbox control balances: %v", err)
	}
	m, ok := MoneyOf(b.VaultBalance)
	if !ok {
		HarnessError("sandbox control balances: vaultBalance %q is not a number", b.VaultBalance)
	}
	return m
}

// credentialScenarios: scenarios 2-4 of the Errors section (bearer, credentials, IP).
func credentialScenarios() {
	ConformanceIt("scenario 2: a call without a bearer header answers 401 whose message asks for the bearer token", SpecID("errors.scenario-2-call-without"),
		Reqs("ERR-15"),
		func(ctx SpecContext) {
			body := ExpectErrorWithPath(Must(Anonymous().Get(ctx, "/cards", nil)), http.StatusUnauthorized)
			ExpectMessageMeans(body, "scenario 2 (asks for the bearer token)", Meaning{Words: [][]string{BearerWords}})
		})

	ConformanceIt("scenario 2: a call with an expired token answers 401 whose message asks for the bearer token (sandbox clock)", SpecID("errors.scenario-2-call-expired"),
		Reqs("ERR-15"), Serial, Needs(CapClock),
		func(ctx SpecContext) {
			tok := FreshToken(ctx)
			AdvanceClock(ctx, int64(Timeouts().TokenExpiry/time.Second))
			body := ExpectErrorWithPath(Must(API().WithToken(tok).Get(ctx, "/cards/config", nil)), http.StatusUnauthorized)
			ExpectMessageMeans(body, "scenario 2 (asks for the bearer token)", Meaning{Words: [][]string{BearerWords}})
		})

	ConformanceIt("scenario 3: a wrong secret key or merchant id at POST /auth/token answers 401 whose message reports invalid credentials", SpecID("errors.scenario-3-wrong-secret"),
		Reqs("ERR-16"),
		func(ctx SpecContext) {
			p := Cfg().Primary
			for _, b := range []client.TokenBody{
				{MerchantID: p.MerchantID, SecretKey: p.SecretKey + "x"},
				{MerchantID: p.MerchantID + "_nosuch", SecretKey: p.SecretKey},
			} {
				resp := Must(Anonymous().RawAuth().Post(ctx, client.TokenPath, b))
				body := ExpectErrorWithPath(resp, http.StatusUnauthorized)
				ExpectMessageMeans(body, "scenario 3 (reports invalid credentials)", Meaning{Words: [][]string{CredentialWords, InvalidWords}})
				Expect(string(resp.Body)).NotTo(ContainSubstring("accessToken"), "a refused exchange issues no token")
			}
		})

	ConformanceIt("scenario 4: a caller whose IP is outside the whitelist gets 403 whose message says the IP address is not allowed for the merchant account", SpecID("errors.scenario-4-caller-ip"),
		Reqs("ERR-17"), Needs(CapNotWhitelisted),
		func(ctx SpecContext) {
			nw := *Cfg().NotWhitelisted
			resp := Must(Anonymous().RawAuth().Post(ctx, client.TokenPath, client.TokenBody{MerchantID: nw.MerchantID, SecretKey: nw.SecretKey}))
			if resp.Status == http.StatusOK { // refused per call rather than at the token exchange
				tok, _ := Data(resp.Map())["accessToken"].(string)
				resp = Must(API().WithToken(tok).Get(ctx, "/cards/config", nil))
			}
			ExpectSaysIPNotAllowed(ExpectErrorWithPath(resp, http.StatusForbidden), "scenario 4")
		})

}

// notFoundScenarios: scenarios 5 and 6 of the Errors section.
func notFoundScenarios() {
	ConformanceIt("scenario 5: an unknown card id answers 404 whose message says the virtual card was not found", SpecID("errors.scenario-5-unknown-card"),
		Reqs("ERR-18"),
		func(ctx SpecContext) {
			body := ExpectErrorWithPath(Must(API().Get(ctx, CardURL("crd_"+fixtures.Ref("nosuch"), ""), nil)), http.StatusNotFound)
			ExpectSaysCardNotFound(body, "GET /cards/{id}")
		})

	ConformanceIt("scenario 6: an unknown gift order reference answers 404 whose message names the reference and says the order was not found", SpecID("errors.scenario-6-unknown-gift"),
		Reqs("ERR-19"),
		func(ctx SpecContext) {
			ref := fixtures.Ref("nogift")
			ExpectSaysGiftOrderNotFound(ExpectGiftNotFound(VerifyGift(ctx, API(), ref)), ref)
		})
}

// conflictSpecs: the 409 meanings (duplicate idempotency reference,
// transaction already settled).
func conflictSpecs() {
	// The 409 names a "duplicate idempotency reference": a server may refuse
	// the duplicate (409) or replay the original answer (the profile's
	// issuance.duplicateReference); either way no second card exists.
	ConformanceIt("answers a second card with the same merchant reference with 409 or a replay of the first card, never a second card", SpecID("errors.answers-second-card-same"),
		Reqs("ERR-11"), Destructive,
		func(ctx SpecContext) {
			if Profile().Issuance.ReferenceField == "" {
				Skip("the target takes no card reference at issuance (profile issuance.referenceField is empty)")
			}
			ref := fixtures.Ref("dup")
			first := fixtures.NewCard(ctx, fixtures.WithReference(ref), fixtures.WithAmount(M("1.00")))
			resp, _ := fixtures.IssueCard(ctx, fixtures.WithReference(ref), fixtures.WithAmount(M("1.00")))
			if expectDuplicateAnswer(resp, Profile().Issuance.DuplicateReference) {
				v, _ := Ptr(Decode(resp), Profile().Issuance.CardPointer)
				obj, _ := v.(JSON)
				Expect(obj).NotTo(BeNil(), "a replay carries the card at %s", Profile().Issuance.CardPointer)
				Expect(fixtures.CardFrom(obj).ID).To(Equal(first.ID), "a replay answers the first card, not a new one")
			}
			Expect(fixtures.GetCard(ctx, ref).ID).To(Equal(first.ID), "the reference still addresses the first card")
		})

	ConformanceIt("answers a second gift order with the same order reference with 409 or a replay of the first order, never a second order", SpecID("errors.answers-second-gift-order"),
		Reqs("ERR-11"), Destructive, Needs(CapTestEnvironment),
		func(ctx SpecContext) {
			g := Profile().GiftCards
			if g.Purchase.Fields["reference"] == "" {
				Skip("the target takes no merchant order reference (profile giftCards.purchase.fields.reference is empty)")
			}
			o := PurchaseGift(ctx)
			// The same body again: only the reference is a duplicate (how a
			// reused reference with other parameters is answered is not shown).
			resp := Must(API().Post(ctx, "/gift-cards/purchase", o.Body))
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

	ConformanceIt("refuses settling a transaction already settled with 409", SpecID("errors.refuses-settling-transaction"),
		Reqs("ERR-12"), Destructive, Needs(CapTransactions),
		func(ctx SpecContext) {
			c := ActiveCard(ctx, fixtures.NewCard(ctx, fixtures.WithAmount(M("2.00"))))
			t := Transact(ctx, c.ID, M("1.00"))
			Expect(t.Approved).To(BeTrue(), "fixture: the transaction was declined (%s)", DerefStr(t.DeclineReason))
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
}

// validationTable: payload validation failures carry an array of
// constraint-violation strings; a funding or withdrawal below its minimum
// is also a business constraint failure (any 400 unless the profile's
// strict.minimumAsValidation).
func validationTable() {
	ConformanceTable("refuses invalid payloads with 400",
		func(ctx SpecContext, rule func(SpecContext)) { rule(ctx) },
		Destructive,
		ConformanceEntry("carrying an array of constraint-violation strings for an empty nameOnCard", SpecID("errors.carrying-array-constraint"), func(ctx SpecContext) {
			expectViolationStrings(Must(API().Post(ctx, Profile().Issuance.Path, fixtures.IssuanceBody(fixtures.SharedCustomer(ctx), "", M("1.00"), fixtures.Ref("card")))))
		}, Reqs("ERR-04")),
		// "" is an empty required field ("should not be empty": payload
		// validation) or a value outside the two ("an invalid status
		// value", whose error is not shown): either refusal.
		ConformanceEntry("for an empty status (or the profile's invalid-value status), leaving the card's status", SpecID("errors.carrying-array-constraint-2"), func(ctx SpecContext) {
			c := fixtures.NewCard(ctx, fixtures.WithAmount(M("1.00")))
			EmptyEnumRefusal(Must(API().Patch(ctx, CardURL(c.ID, "/status"), JSON{"status": ""})))
			Expect(fixtures.GetCard(ctx, c.ID).Status).To(Equal(c.Status), "a refused status change changed the card's status")
		}, Reqs("STATUS-02")),
		ConformanceEntry("for an initial funding of 0.99 (below the minimum 1.00)", SpecID("issuance.initial-funding-0-99"), func(ctx SpecContext) {
			expectBelowMinimum(Must(API().Post(ctx, Profile().Issuance.Path, fixtures.IssuanceBody(fixtures.SharedCustomer(ctx), "Ada Harness", M("0.99"), fixtures.Ref("card")))))
		}, Reqs("ISSUE-03")),
		ConformanceEntry("for a withdrawal of 0.09 (below the minimum 0.10), leaving the balance", SpecID("withdraw.withdrawal-0-09-below"), func(ctx SpecContext) {
			c := fixtures.NewCard(ctx, fixtures.WithAmount(M("1.00")))
			expectBelowMinimum(Must(API().Post(ctx, CardURL(c.ID, "/withdraw"), JSON{"amount": M("0.09").JSON()})))
			Expect(fixtures.GetCard(ctx, c.ID).Balance).To(EqualMoney(c.Balance), "a refused withdrawal changed the balance")
		}, Reqs("WITHDRAW-03")),
	)
}

// expectViolationStrings asserts a 400 whose message is an array of
// non-empty constraint-violation strings.
func expectViolationStrings(resp *client.Response) {
	GinkgoHelper()
	for _, m := range ExpectValidationError(resp) {
		Expect(strings.TrimSpace(m)).NotTo(BeEmpty(), "every constraint violation is a non-empty string")
	}
}

// expectBelowMinimum asserts the refusal of an amount below its minimum:
// listed as a business constraint failure too, so any 400 with a message
// unless the profile says minimums are validated (strict.minimumAsValidation).
func expectBelowMinimum(resp *client.Response) {
	GinkgoHelper()
	if !Profile().Strict.MinimumAsValidation {
		Expect(Messages(ExpectError(resp, http.StatusBadRequest))).NotTo(BeEmpty(), "the 400 carries a message")
		return
	}
	ExpectValidationError(resp)
}
