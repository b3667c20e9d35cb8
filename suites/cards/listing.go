package cards

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/merchant-harness/mph/schemas"
	. "github.com/merchant-harness/mph/suites/expect"
	"github.com/merchant-harness/mph/suites/fixtures"
	. "github.com/merchant-harness/mph/suites/framework"
	. "github.com/merchant-harness/mph/suites/specsupport"
)

// listCards calls GET /cards with the query and returns the cards, schema-checked.
func listCards(ctx context.Context, q url.Values) []fixtures.Card {
	GinkgoHelper()
	resp := Must(API().Get(ctx, "/cards", q))
	body := ExpectEnvelopeA(resp, schemas.CardListResponse)
	var out []fixtures.Card
	for _, v := range DataList(body) {
		m, _ := v.(JSON)
		fixtures.ExpectCardFields(m)
		out = append(out, fixtures.CardFrom(m))
	}
	return out
}

func last4(maskedPan string) string {
	d := NonDigit.ReplaceAllString(maskedPan, "")
	if len(d) < 4 {
		return ""
	}
	return d[len(d)-4:]
}

// maxLimit is the largest limit the specs ask a listing for (the profile's
// cards.listMaxLimit; the document only fixes the default of 50).
func maxLimit() string { return strconv.Itoa(Profile().Cards.ListMaxLimit) }

// Listings are read after writes within cards.listingFreshness
// (EventuallyFresh: only GET /cards/{id} is documented as real-time). What
// a lagging listing cannot explain fails at once: a listed card whose own
// status contradicts the filter, a search returning a card that matches
// nothing searched for, a card under a status it never had.

// cardListing is the container of this file's specs (Describe blocks of one text).
const cardListing = "Card listing: GET /cards"

var _ = Describe(cardListing, func() {
	ConformanceIt("answers 200 in Envelope A with an array of Cards when no parameter is given", SpecID("listing.answers-200-envelope-array"),
		Reqs("LIST-01", "ENV-01", "ENV-02"), Destructive,
		func(ctx SpecContext) {
			fixtures.NewCard(ctx, fixtures.WithAmount(M("1.00")))
			EventuallyFresh(ctx, "the listing shows the merchant's cards", func(g Gomega) {
				g.Expect(listCards(ctx, nil)).NotTo(BeEmpty())
			})
			listCards(ctx, url.Values{"limit": {maxLimit()}})
		})

	ConformanceIt("returns at most limit records", SpecID("listing.returns-most-limit-records"),
		Reqs("LIST-08"), Destructive,
		func(ctx SpecContext) {
			for i := 0; i < 3; i++ {
				fixtures.NewCard(ctx, fixtures.WithAmount(M("1.00")))
			}
			for _, n := range []int{1, 2, 3} {
				got := listCards(ctx, url.Values{"limit": {strconv.Itoa(n)}})
				Expect(len(got)).To(BeNumerically("<=", n), "limit=%d returned %d cards", n, len(got))
			}
			EventuallyFresh(ctx, "limit=3 returns 3 of the merchant's 3 or more cards", func(g Gomega) {
				for _, n := range []int{1, 2, 3} {
					g.Expect(listCards(ctx, url.Values{"limit": {strconv.Itoa(n)}})).To(HaveLen(n), "limit=%d", n)
				}
			})
		})

	ConformanceIt("returns 50 records by default when the merchant has more than 50 cards", SpecID("listing.returns-50-records-default"),
		Reqs("LIST-09"), Destructive,
		func(ctx SpecContext) {
			max := Profile().Cards.ListMaxLimit
			have := len(listCards(ctx, url.Values{"limit": {maxLimit()}}))
			need := 51 - have // have is the exact count when below the largest limit
			if have >= max {
				need = 1 // at least max cards exist: one more makes more than 50
			}
			for i := 0; i < need; i++ {
				fixtures.NewCard(ctx, fixtures.WithAmount(M("1.00")))
			}
			Expect(len(listCards(ctx, nil))).To(BeNumerically("<=", 50), "default limit")
			EventuallyFresh(ctx, "the default listing returns 50 of more than 50 cards", func(g Gomega) {
				if max > 50 {
					g.Expect(len(listCards(ctx, url.Values{"limit": {maxLimit()}}))).To(BeNumerically(">", 50), "the merchant should now have more than 50 cards")
				}
				g.Expect(listCards(ctx, nil)).To(HaveLen(50), "default limit")
			})
		})
})

var _ = Describe(cardListing, func() {
	statuses := Shared(newStatusPair)
	ConformanceTable("filters by status",
		func(ctx SpecContext, rule func(SpecContext, statusPair)) { rule(ctx, statuses(ctx)) },
		Destructive,
		ConformanceEntry("returns only ACTIVE cards for status=ACTIVE", SpecID("listing.returns-only-active-cards"), func(ctx SpecContext, p statusPair) {
			p.expectOnly(ctx, "ACTIVE", p.active, p.frozen, false)
		}, Reqs("LIST-02")),
		ConformanceEntry("returns only FROZEN cards for status=FROZEN", SpecID("listing.returns-only-frozen-cards"), func(ctx SpecContext, p statusPair) {
			p.expectOnly(ctx, "FROZEN", p.frozen, p.active, true)
		}, Reqs("LIST-03")),
		// Once the status filters list both cards, the listing is fresh
		// for them: status=ALL missing one is no lag.
		ConformanceEntry("returns cards of both statuses for status=ALL", SpecID("listing.returns-cards-both-statuses"), func(ctx SpecContext, p statusPair) {
			EventuallyFresh(ctx, "the status filters list the cardholder's two cards", func(g Gomega) {
				g.Expect(IDs(listCards(ctx, url.Values{"status": {"ACTIVE"}, "search": {p.name}}))).To(ContainElement(p.active.ID))
				g.Expect(IDs(listCards(ctx, url.Values{"status": {"FROZEN"}, "search": {p.name}}))).To(ContainElement(p.frozen.ID))
			})
			Expect(IDs(listCards(ctx, url.Values{"status": {"ALL"}, "search": {p.name}}))).To(ContainElements(p.active.ID, p.frozen.ID), "status=ALL misses a card the status filters list")
		}, Reqs("LIST-04")),
	)

	searchSpecs()

	ConformanceIt("refuses the listing without a bearer token", SpecID("auth.refuses-listing-without-bearer"),
		Reqs("AUTH-09", "LIST-01"),
		func(ctx SpecContext) {
			ExpectError(Must(Anonymous().Get(ctx, "/cards", url.Values{"limit": {"1"}})), http.StatusUnauthorized)
		})
})

// searchSpecs: "search | matches cardholder name, reference, or last 4
// digits of the PAN". How it matches (substring, whole value, any word,
// case) and which name "cardholder name" is are not shown: the harness
// searches with a value only the card searched for carries, whole and as
// the card shows it, and the card that must not be found differs from it
// in every word.
func searchSpecs() {
	ConformanceIt("finds a card by search on its cardholder name", SpecID("listing.finds-card-search-cardholder"),
		Reqs("LIST-05"), Destructive,
		func(ctx SpecContext) {
			c := fixtures.NewCard(ctx, fixtures.WithCardholder(), fixtures.WithAmount(M("1.00")))
			o := fixtures.NewCard(ctx, fixtures.WithCardholder(), fixtures.WithAmount(M("1.00")))
			name := strings.ToUpper(c.Sent["nameOnCard"].(string))
			EventuallyFresh(ctx, "a search by the cardholder name finds the card", func(g Gomega) {
				got := IDs(listCards(ctx, url.Values{"search": {name}, "limit": {maxLimit()}}))
				Expect(got).NotTo(ContainElement(o.ID), "search by one name returned a card with another name (%s)", o.NameOnCard)
				g.Expect(got).To(ContainElement(c.ID))
			})
		})

	ConformanceIt("finds a card by search on its reference", SpecID("listing.finds-card-search-reference"),
		Reqs("LIST-06"), Destructive,
		func(ctx SpecContext) {
			if Profile().Issuance.ReferenceField == "" {
				Skip("the profile says issuance takes no reference (issuance.referenceField empty)")
			}
			c := fixtures.NewCard(ctx, fixtures.WithAmount(M("1.00")))
			o := fixtures.NewCard(ctx, fixtures.WithAmount(M("1.00")))
			EventuallyFresh(ctx, "a search by the card's reference finds it", func(g Gomega) {
				got := IDs(listCards(ctx, url.Values{"search": {c.Reference}, "limit": {maxLimit()}}))
				Expect(got).NotTo(ContainElement(o.ID), "search by one reference returned another card")
				g.Expect(got).To(ContainElement(c.ID))
			})
		})

	ConformanceIt("finds a card by search on the last 4 digits of its PAN, returning only matching cards", SpecID("listing.finds-card-search-last"),
		Reqs("LIST-07"), Destructive,
		func(ctx SpecContext) {
			c := fixtures.WithMaskedPan(ctx, fixtures.NewCard(ctx, fixtures.WithAmount(M("1.00"))))
			l4 := last4(c.MaskedPan)
			Expect(l4).To(HaveLen(4), "maskedPan %q shows no last 4 digits", c.MaskedPan)
			fresh := false
			if Profile().Issuance.ReferenceField != "" {
				// Once a search by reference finds the card, the listing is
				// fresh for it: a search by the last 4 missing it is no lag.
				EventuallyFresh(ctx, "a search by the card's reference finds it", func(g Gomega) {
					g.Expect(IDs(listCards(ctx, url.Values{"search": {c.Reference}, "limit": {maxLimit()}}))).To(ContainElement(c.ID))
				})
				fresh = true
			}
			EventuallyFresh(ctx, "a search by the last 4 digits of the PAN finds the card", func(g Gomega) {
				got := listCards(ctx, url.Values{"search": {l4}, "limit": {maxLimit()}})
				for _, x := range got {
					expectMatchesSearch(x, l4)
				}
				if full := len(got) >= Profile().Cards.ListMaxLimit; full && !slices.Contains(IDs(got), c.ID) {
					NoVerdict(fmt.Sprintf("a search by the last 4 digits %s fills the largest page (%d cards) without the card: it cannot be told apart", l4, len(got)))
				}
				if fresh {
					Expect(IDs(got)).To(ContainElement(c.ID), "a search by the last 4 digits %s misses a card a search by reference finds", l4)
				}
				g.Expect(IDs(got)).To(ContainElement(c.ID))
			})
		})
}

// expectMatchesSearch asserts a card a search returned matches the term:
// its PAN's digits (as far as maskedPan shows them), its name or its
// reference hold it; a card showing no maskedPan is not judged (its PAN is
// the target's).
func expectMatchesSearch(c fixtures.Card, term string) {
	GinkgoHelper()
	if c.MaskedPan == "" {
		return
	}
	t := strings.ToLower(term)
	ok := strings.Contains(NonDigit.ReplaceAllString(c.MaskedPan, ""), term) || strings.Contains(strings.ToLower(c.NameOnCard), t) || strings.Contains(strings.ToLower(c.Reference), t)
	Expect(ok).To(BeTrue(), "search=%s returned card %s (maskedPan %s) matching neither the PAN's digits, the name nor the reference", term, c.ID, c.MaskedPan)
}

// statusPair is an ACTIVE and a FROZEN card of one cardholder
// (NewCardholder: found by name under every reading), made once and only
// listed by the entries that share it.
type statusPair struct {
	name           string
	active, frozen fixtures.Card
}

func newStatusPair(ctx SpecContext) statusPair {
	holder, name := fixtures.NewCardholder(ctx)
	p := statusPair{name: name}
	p.active = fixtures.NewCard(ctx, fixtures.WithCustomer(holder), fixtures.WithName(name), fixtures.WithAmount(M("1.00")))
	p.frozen = fixtures.NewCard(ctx, fixtures.WithCustomer(holder), fixtures.WithName(name), fixtures.WithAmount(M("1.00")))
	fixtures.SetCardStatus(ctx, p.frozen.ID, "FROZEN")
	return p
}

// expectOnly asserts that status=st lists cards of that status only: every
// listed card shows st (at once: a listing contradicting itself is no lag),
// the card in it is listed, the other is not. neverHad says the other card
// never had status st (then listing it is no lag either).
func (p statusPair) expectOnly(ctx SpecContext, st string, in, out fixtures.Card, neverHad bool) {
	GinkgoHelper()
	for _, c := range listCards(ctx, url.Values{"status": {st}, "limit": {maxLimit()}}) {
		Expect(c.Status).To(Equal(st), "status=%s returned card %s in status %s", st, c.ID, c.Status)
	}
	EventuallyFresh(ctx, "status="+st+" lists the cardholder's "+st+" card only", func(g Gomega) {
		got := listCards(ctx, url.Values{"status": {st}, "search": {p.name}})
		for _, c := range got {
			Expect(c.Status).To(Equal(st), "status=%s returned card %s in status %s", st, c.ID, c.Status)
		}
		if neverHad {
			Expect(IDs(got)).NotTo(ContainElement(out.ID), "status=%s returned a card that never had it", st)
		}
		g.Expect(IDs(got)).To(ContainElement(in.ID))
		g.Expect(IDs(got)).NotTo(ContainElement(out.ID))
	})
}
