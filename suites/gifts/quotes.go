package gifts

import (
	"net/http"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/merchant-harness/mph/api"
	"github.com/merchant-harness/mph/client"
	"github.com/merchant-harness/mph/schemas"
	. "github.com/merchant-harness/mph/suites/expect"
	. "github.com/merchant-harness/mph/suites/framework"
	. "github.com/merchant-harness/mph/suites/specsupport"
)

// quoteAmounts reads a quote answer's amounts at the profile's pointers
// (an empty pointer is not read) and checks the declared arithmetic.
type quoteAmounts struct{ base, fee, total Money }

func readQuote(resp *client.Response, schema string, q api.QuoteProfile, baseName string, basePointer string) quoteAmounts {
	GinkgoHelper()
	// The quote sections fix no status: the document's success statuses.
	ExpectStatus(resp, http.StatusOK, http.StatusCreated)
	doc := ExpectSchema(resp, schema)
	read := func(pointer, what string) (Money, bool) {
		if pointer == "" {
			return Money{}, false
		}
		v, ok := Ptr(doc, pointer)
		Expect(ok).To(BeTrue(), "the quote carries no %s at %s (target profile)", what, pointer)
		return ExpectMoney(v, what), true
	}
	var a quoteAmounts
	var hasBase, hasFee, hasTotal bool
	a.base, hasBase = read(basePointer, baseName)
	a.fee, hasFee = read(q.FeePointer, "fee")
	a.total, hasTotal = read(q.TotalPointer, "total")
	Expect(hasTotal).To(BeTrue(), "the profile must say where the quote's total is")
	Expect(a.total.Cmp(M("0"))).To(BeNumerically(">", 0), "the quoted total is positive")
	if hasFee {
		Expect(a.fee.Cmp(M("0"))).To(BeNumerically(">=", 0), "the quoted fee is not negative")
	}
	if hasBase && hasFee && q.TotalIsSum {
		Expect(a.total).To(EqualMoney(a.base.Add(a.fee)), "total = %s + fee (the profile declares totalIsSum)", baseName)
	}
	return a
}

var _ = Describe("Quotes: GET /gift-cards/quote and GET /betting/quote", func() {
	ConformanceIt("answers a gift card quote with success (200 or 201): the total NGN charge for the product and face value, with its fee", SpecID("quotes.answers-gift-card-quote"),
		Reqs("QUOTE-01", "QUOTE-04"), ProfileKeys("giftCards.quote"),
		func(ctx SpecContext) {
			q := Profile().GiftCards.Quote.QuoteProfile
			resp := Must(API().Get(ctx, "/gift-cards/quote", GiftQuoteQuery()))
			readQuote(resp, schemas.GiftQuoteResponse, q, "subtotal", q.SubtotalPointer)
		})

	// How long a quoted total holds is not shown: unless the profile says
	// it holds (giftCards.quote.holdsPrice), the charge is the total of a
	// quote taken just before or just after the purchase; when the two
	// differ and the charge is neither, the price moved more than once
	// meanwhile (no verdict).
	ConformanceIt("charges a gift purchase the quoted total: the verified order's costNgn equals the quote's (taken just before, or just after where prices move)", SpecID("quotes.charges-gift-purchase-exactly"),
		Reqs("QUOTE-03"), Destructive, Needs(CapTestEnvironment), ProfileKeys("giftCards.quote", "giftCards.purchase"),
		func(ctx SpecContext) {
			q := Profile().GiftCards.Quote.QuoteProfile
			quote := func() Money {
				GinkgoHelper()
				return readQuote(Must(API().Get(ctx, "/gift-cards/quote", GiftQuoteQuery())), schemas.GiftQuoteResponse, q, "subtotal", q.SubtotalPointer).total
			}
			before := quote()
			o := PurchaseGift(ctx)
			after := before
			if !Profile().GiftCards.Quote.HoldsPrice {
				after = quote()
			}
			cost := ExpectMoney(VerifySettled(ctx, API(), o.Reference)["costNgn"], "costNgn")
			if cost.Eq(after) {
				return
			}
			NoVerdictUnless(before.Eq(after) || cost.Eq(before), "the quoted total moved from %s to %s around the purchase, and its charge %s is neither: the price moved more than once meanwhile (giftCards.quote.holdsPrice false)", before, after, cost)
			Expect(cost).To(EqualMoney(before), "costNgn (the total NGN charge) equals the quoted total")
		})

	ConformanceIt("answers a betting deposit quote with success (200 or 201): processing fee and total vault debit", SpecID("quotes.answers-betting-deposit-quote"),
		Reqs("QUOTE-02"), ProfileKeys("betting.quote"),
		func(ctx SpecContext) {
			q := Profile().Betting.Quote
			a := readQuote(Must(API().Get(ctx, "/betting/quote", BettingQuery())), schemas.BettingQuoteResponse, q, "amount", q.AmountPointer)
			if q.AmountPointer != "" {
				if want, ok := q.Params["amount"]; ok {
					Expect(a.base).To(EqualMoney(M(want)), "the quote is for the requested amount")
				}
			}
		})
})
