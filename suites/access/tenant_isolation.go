package access

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
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

// merchantB is the second TEST merchant.
func merchantB() *client.Client { return APIAs(*Cfg().Secondary) }

// customerAs registers a customer with an identity of its own as c and
// returns its id (harness error on failure): the profile's pointer, else
// the documented customerId anywhere; a string or a number.
func customerAs(ctx context.Context, c *client.Client) string {
	GinkgoHelper()
	resp := Must(c.Post(ctx, "/cards/customers", fixtures.CustomerBody()))
	if resp.Status != http.StatusOK && resp.Status != http.StatusCreated {
		HarnessError("fixture: registering a customer answered HTTP %d", resp.Status)
	}
	id, ok := fixtures.CustomerIDFrom(resp)
	if !ok {
		HarnessError("fixture: no customer id at %s nor a member named customerId", Profile().Customers.CustomerIDPointer)
	}
	return id
}

// cardAs issues a small card as c (harness error on failure), named name or
// ("") a unique name. A refusal within customers.approvalWait of the
// registration is tried again: when verification completes is not shown.
func cardAs(ctx context.Context, c *client.Client, customerID, name string) fixtures.Card {
	GinkgoHelper()
	if name == "" {
		name = fixtures.CardName()
	}
	body := fixtures.IssuanceBody(customerID, name, M("1.00"), fixtures.Ref("card"))
	deadline := time.Now().Add(Timeouts().CustomerApproval)
	for {
		resp := Must(c.Post(ctx, Profile().Issuance.Path, body))
		if resp.Status == http.StatusOK || resp.Status == http.StatusCreated {
			card := fixtures.CardFrom(fixtures.IssuedCard(resp))
			if card.ID == "" {
				HarnessError("fixture: the issuance answer has no card id at %s nor a member named id", Profile().Issuance.CardPointer)
			}
			if card.Reference == "" {
				card.Reference, _ = body[Profile().Issuance.ReferenceField].(string)
			}
			if card.NameOnCard == "" {
				card.NameOnCard, _ = body["nameOnCard"].(string)
			}
			return card
		}
		if resp.Status != http.StatusBadRequest || !time.Now().Before(deadline) {
			HarnessError("fixture: issuing a card answered HTTP %d", resp.Status)
		}
		select {
		case <-ctx.Done():
			HarnessError("interrupted while waiting for the customer's approval")
		case <-time.After(time.Second):
		}
	}
}

// listAs returns the cards c's listing answers for q (schema-checked).
func listAs(ctx context.Context, c *client.Client, q url.Values) []fixtures.Card {
	GinkgoHelper()
	body := ExpectEnvelopeA(Must(c.Get(ctx, "/cards", q)), schemas.CardListResponse)
	var out []fixtures.Card
	for _, v := range DataList(body) {
		m, _ := v.(JSON)
		out = append(out, fixtures.CardFrom(m))
	}
	return out
}

// isolationCard is merchant A's card that merchant B attacks (one per
// process; only B's refused attempts touch it).
var isolationCard = Shared(func(ctx SpecContext) fixtures.Card {
	return fixtures.NewCard(ctx, fixtures.WithAmount(M("3.00")))
})

// expectUnreachableByB asserts merchant B gets 404 on e for A's card, by id
// and by reference, learning nothing and changing nothing.
func expectUnreachableByB(ctx SpecContext, e CardEndpoint) {
	a := isolationCard(ctx)
	before := fixtures.GetCard(ctx, a.ID)
	for _, addr := range []string{a.ID, a.Reference} {
		By(e.Name + " by " + addr)
		resp := Must(merchantB().Do(ctx, e.Request(addr)))
		ExpectErrorWithPath(resp, http.StatusNotFound)
		ExpectNoCardData(resp, a)
	}
	// Balance (real-time) and status show a change; updatedAt is not
	// compared: what moves it beyond a withdrawal is not stated.
	after := fixtures.GetCard(ctx, a.ID)
	Expect(after.Balance).To(EqualMoney(before.Balance), "merchant B changed A's card balance")
	Expect(after.Status).To(Equal(before.Status), "merchant B changed A's card status")
}

var _ = Describe("Tenant isolation: a second merchant never reaches the first one's resources", func() {
	crossMerchantCardTable()
	crossMerchantResourceSpecs()
	crossMerchantListingSpecs()
	separateVaultSpecs()
})

func crossMerchantCardTable() {
	ConformanceTable("answers another merchant 404 by the card's id and its reference, leaking and changing nothing",
		expectUnreachableByB,
		append([]any{Destructive, Needs(CapSecondMerchant)}, CardEndpointEntries(map[string]SpecID{
			"GET /cards/{id}":                   "isolation.get-cards-id",
			"GET /cards/{id}/secure":            "isolation.get-cards-id-secure",
			"POST /cards/{id}/withdraw":         "isolation.post-cards-id-withdraw",
			"PUT /cards/{id}/spend-limits":      "isolation.put-cards-id-spend",
			"PATCH /cards/{id}/status":          "isolation.patch-cards-id-status",
			"PATCH /cards/{id}/contact":         "isolation.patch-cards-id-contact",
			"POST /cards/{id}/simulate-webhook": "isolation.post-cards-id-simulate",
		}, nil, func(e CardEndpoint) []any {
			if e.Name == "GET /cards/{id}" {
				return []any{Reqs("ISO-01")} // "404 if the card does not exist or belongs to another merchant"
			}
			return []any{Reqs("ISO-02")}
		})...)...,
	)
}

// crossMerchantResourceSpecs: the gift orders of another merchant.
func crossMerchantResourceSpecs() {
	ConformanceIt("answers 404 to another merchant verifying or looking up the first one's gift order, by client reference and by transaction reference", SpecID("isolation.answers-404-another-merchant"),
		Reqs("ISO-03"), Destructive, Needs(CapSecondMerchant, CapTestEnvironment),
		func(ctx SpecContext) {
			o := PurchaseGift(ctx)
			own := VerifySettled(ctx, API(), o.Reference)
			code := ""
			if v, ok := own["voucher"].(JSON); ok {
				code, _ = v["code"].(string)
			}
			// The order's own references, as A's verify and lookup take them.
			refs := map[string]bool{o.Reference: true}
			for _, at := range []GiftRefEndpoint{GiftVerifyPath, GiftLookupPath} {
				refs[GiftTransactionRef(ctx, API(), at, own, o.Reference)] = true
			}
			for ref := range refs {
				if ref == "" {
					continue
				}
				for _, p := range []GiftRefEndpoint{GiftVerifyPath, GiftLookupPath} {
					By(string(p) + ref)
					resp := Must(merchantB().Get(ctx, string(p)+client.Seg(ref), nil))
					ExpectGiftNotFound(resp)
					if code != "" {
						Expect(strings.Contains(string(resp.Body), code)).To(BeFalse(), "the voucher code leaked to another merchant (not printed)")
					}
				}
			}
		})

}

// crossMerchantListingSpecs: listings and customers of another merchant.
func crossMerchantListingSpecs() {
	// Only GET /cards/{id} is documented as real-time: a listing may show a
	// new card or customer a bounded while later (cards.listingFreshness).
	// What must not be listed is checked at once and again after the wait.
	ConformanceIt("never mixes merchants in card listings: neither sees the other's cards, also when searching by reference or name", SpecID("isolation.never-mixes-merchants-card"),
		Reqs("ISO-04"), Destructive, Needs(CapSecondMerchant),
		func(ctx SpecContext) {
			a := isolationCard(ctx)
			bCard := cardAs(ctx, merchantB(), customerAs(ctx, merchantB()), "")
			max := url.Values{"limit": {strconv.Itoa(Profile().Cards.ListMaxLimit)}}
			neither := func() {
				GinkgoHelper()
				Expect(IDs(listAs(ctx, merchantB(), max))).NotTo(ContainElement(a.ID), "B's listing shows A's card")
				Expect(IDs(listAs(ctx, API(), max))).NotTo(ContainElement(bCard.ID), "A's listing shows B's card")
				for _, q := range []string{a.Reference, a.NameOnCard} {
					Expect(IDs(listAs(ctx, merchantB(), url.Values{"search": {q}}))).NotTo(ContainElement(a.ID), "B's search %q finds A's card", q)
				}
				for _, q := range []string{bCard.Reference, bCard.NameOnCard} {
					Expect(IDs(listAs(ctx, API(), url.Values{"search": {q}}))).NotTo(ContainElement(bCard.ID), "A's search %q finds B's card", q)
				}
			}
			neither()
			EventuallyFresh(ctx, "A's search for its own card", func(g Gomega) {
				g.Expect(IDs(listAs(ctx, API(), url.Values{"search": {a.Reference}}))).To(ContainElement(a.ID), "A's own search by reference must find A's card (else the checks prove nothing)")
			})
			neither()
		})

	ConformanceIt("never mixes merchants in customer listings", SpecID("isolation.never-mixes-merchants-customer"),
		Reqs("ISO-05"), Destructive, Needs(CapSecondMerchant),
		func(ctx SpecContext) {
			aCust := fixtures.NewCustomer(ctx)
			bCust := customerAs(ctx, merchantB())
			listIDs := func(c *client.Client) []string {
				GinkgoHelper()
				resp := Must(c.Get(ctx, "/cards/customers", nil))
				ExpectStatus(resp, http.StatusOK, http.StatusCreated) // the listing's answer is not shown
				ExpectSchema(resp, schemas.CustomerListResponse)
				return ListedCustomerIDs(Decode(resp))
			}
			neither := func() {
				GinkgoHelper()
				Expect(listIDs(API())).NotTo(ContainElement(bCust), "A's customer listing shows B's customer")
				Expect(listIDs(merchantB())).NotTo(ContainElement(aCust), "B's customer listing shows A's customer")
			}
			neither()
			EventuallyFresh(ctx, "each merchant's customer listing", func(g Gomega) {
				g.Expect(listIDs(API())).To(ContainElement(aCust), "A's listing must show A's new customer (else the checks prove nothing)")
				g.Expect(listIDs(merchantB())).To(ContainElement(bCust), "B's listing must show B's new customer (else the checks prove nothing)")
			})
			neither()
		})

	// The 404 of a customer that "belongs to another merchant" is
	// documented; the order of checks is not: B's own vault (scenario 1)
	// may be checked first.
	ConformanceIt("answers 404 to a merchant issuing a card for another merchant's customer", SpecID("isolation.answers-404-merchant-issuing"),
		Reqs("ISO-06"), Destructive, Needs(CapSecondMerchant),
		func(ctx SpecContext) {
			aCust := fixtures.SharedCustomer(ctx)
			resp := Must(merchantB().Post(ctx, Profile().Issuance.Path, fixtures.IssuanceBody(aCust, fixtures.CardName(), M("1.00"), fixtures.Ref("card"))))
			if resp.Status == http.StatusBadRequest {
				OtherRefusalFirst(resp, "404 for another merchant's customer")
			}
			ExpectErrorWithPath(resp, http.StatusNotFound)
		})
}

// separateVaultSpecs: the vault is per merchant and environment.
func separateVaultSpecs() {
	ConformanceIt("keeps vaults apart: another merchant's issuance does not change the first one's vault balance", SpecID("isolation.keeps-vaults-apart-another"),
		Reqs("ISO-07"), Destructive, Serial, Needs(CapSecondMerchant),
		func(ctx SpecContext) {
			before := fixtures.GetConfig(ctx).VaultBalance
			cardAs(ctx, merchantB(), customerAs(ctx, merchantB()), "")
			Expect(fixtures.GetConfig(ctx).VaultBalance).To(EqualMoney(before), "merchant B's issuance moved merchant A's vault")
		})
}
