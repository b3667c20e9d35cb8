package suites

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/merchant-harness/mph/schemas"
	. "github.com/merchant-harness/mph/suites/framework"
)

// listCards calls GET /cards with the query and returns the cards, schema-checked.
func listCards(ctx context.Context, q url.Values) []Card {
	GinkgoHelper()
	resp := Must(API().Get(ctx, "/cards", q))
	body := ExpectEnvelopeA(resp, schemas.CardListResponse)
	var out []Card
	for _, v := range DataList(body) {
		m, _ := v.(JSON)
		ExpectCardFields(m)
		out = append(out, CardFrom(m))
	}
	return out
}

func ids(cards []Card) []string {
	out := make([]string, len(cards))
	for i, c := range cards {
		out[i] = c.ID
	}
	return out
}

func last4(maskedPan string) string {
	d := strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, maskedPan)
	if len(d) < 4 {
		return ""
	}
	return d[len(d)-4:]
}

// cardListing is the container of this file's specs (Describe blocks of one text).
const cardListing = "Card listing: GET /cards"

var _ = Describe(cardListing, func() {
	ConformanceIt("answers 200 in Envelope A with an array of Cards when no parameter is given", SpecID("listing.answers-200-envelope-array"),
		Reqs("LIST-01", "ENV-01", "ENV-02"), Destructive,
		func(ctx SpecContext) {
			c := NewCard(ctx, WithAmount(M("1.00")))
			cards := listCards(ctx, url.Values{"limit": {strconv.Itoa(Profile().Cards.ListMaxLimit)}})
			Expect(cards).NotTo(BeEmpty())
			_ = c
			Expect(listCards(ctx, nil)).NotTo(BeEmpty())
		})

	ConformanceIt("returns at most limit records", SpecID("listing.returns-most-limit-records"),
		Reqs("LIST-08"), Destructive,
		func(ctx SpecContext) {
			for i := 0; i < 3; i++ {
				NewCard(ctx, WithAmount(M("1.00")))
			}
			Expect(listCards(ctx, url.Values{"limit": {"1"}})).To(HaveLen(1))
			Expect(listCards(ctx, url.Values{"limit": {"2"}})).To(HaveLen(2))
			Expect(listCards(ctx, url.Values{"limit": {"3"}})).To(HaveLen(3))
		})

	ConformanceIt("returns 50 records by default when the merchant has more than 50 cards", SpecID("listing.returns-50-records-default"),
		Reqs("LIST-09"), Destructive,
		func(ctx SpecContext) {
			max := Profile().Cards.ListMaxLimit
			have := len(listCards(ctx, url.Values{"limit": {strconv.Itoa(max)}}))
			need := 51 - have // have is the exact count when below the largest limit
			if have >= max {
				need = 1 // at least max cards exist: one more makes more than 50
			}
			for i := 0; i < need; i++ {
				NewCard(ctx, WithAmount(M("1.00")))
			}
			if max > 50 {
				Expect(len(listCards(ctx, url.Values{"limit": {strconv.Itoa(max)}}))).To(BeNumerically(">", 50), "the merchant should now have more than 50 cards")
			}
			Expect(listCards(ctx, nil)).To(HaveLen(50), "default limit")
		})
})

var _ = Describe(cardListing, func() {
	statuses := Shared(newStatusPair)
	ConformanceTable("filters by status",
		func(ctx SpecContext, rule func(SpecContext, statusPair)) { rule(ctx, statuses(ctx)) },
		Destructive,
		ConformanceEntry("returns only ACTIVE cards for status=ACTIVE", SpecID("listing.returns-only-active-cards"), func(ctx SpecContext, p statusPair) {
			p.expectOnly(ctx, "ACTIVE", p.active, p.frozen)
		}, Reqs("LIST-02")),
		ConformanceEntry("returns only FROZEN cards for status=FROZEN", SpecID("listing.returns-only-frozen-cards"), func(ctx SpecContext, p statusPair) {
			p.expectOnly(ctx, "FROZEN", p.frozen, p.active)
		}, Reqs("LIST-03")),
		ConformanceEntry("returns cards of both statuses for status=ALL", SpecID("listing.returns-cards-both-statuses"), func(ctx SpecContext, p statusPair) {
			got := ids(listCards(ctx, url.Values{"status": {"ALL"}, "search": {p.name}}))
			Expect(got).To(ContainElements(p.active.ID, p.frozen.ID))
		}, Reqs("LIST-04")),
	)

	ConformanceIt("finds a card by search on its cardholder name", SpecID("listing.finds-card-search-cardholder"),
		Reqs("LIST-05"), Destructive,
		func(ctx SpecContext) {
			name := "Searchname " + strings.ReplaceAll(Ref("n"), "-", " ")
			other := "Othername " + strings.ReplaceAll(Ref("n"), "-", " ")
			c := NewCard(ctx, WithName(name), WithAmount(M("1.00")))
			o := NewCard(ctx, WithName(other), WithAmount(M("1.00")))
			got := ids(listCards(ctx, url.Values{"search": {name}}))
			Expect(got).To(ContainElement(c.ID))
			Expect(got).NotTo(ContainElement(o.ID), "search by one name returned a card with another name")
		})

	ConformanceIt("finds a card by search on its reference", SpecID("listing.finds-card-search-reference"),
		Reqs("LIST-06"), Destructive,
		func(ctx SpecContext) {
			if Profile().Issuance.ReferenceField == "" {
				Skip("the profile says issuance takes no reference (issuance.referenceField empty)")
			}
			c := NewCard(ctx, WithAmount(M("1.00")))
			o := NewCard(ctx, WithAmount(M("1.00")))
			got := ids(listCards(ctx, url.Values{"search": {c.Reference}}))
			Expect(got).To(ContainElement(c.ID))
			Expect(got).NotTo(ContainElement(o.ID), "search by one reference returned another card")
		})

	ConformanceIt("finds a card by search on the last 4 digits of its PAN, returning only matching cards", SpecID("listing.finds-card-search-last"),
		Reqs("LIST-07"), Destructive,
		func(ctx SpecContext) {
			c := NewCard(ctx, WithAmount(M("1.00")))
			l4 := last4(c.MaskedPan)
			Expect(l4).To(HaveLen(4), "maskedPan %q shows no last 4 digits", c.MaskedPan)
			got := listCards(ctx, url.Values{"search": {l4}, "limit": {strconv.Itoa(Profile().Cards.ListMaxLimit)}})
			Expect(ids(got)).To(ContainElement(c.ID))
			for _, g := range got {
				ok := last4(g.MaskedPan) == l4 || strings.Contains(strings.ToLower(g.NameOnCard), l4) || strings.Contains(strings.ToLower(g.Reference), l4)
				Expect(ok).To(BeTrue(), "search=%s returned card %s (maskedPan %s) matching neither last 4, name nor reference", l4, g.ID, g.MaskedPan)
			}
		})

	ConformanceIt("refuses the listing without a bearer token", SpecID("auth.refuses-listing-without-bearer"),
		Reqs("AUTH-09", "LIST-01"),
		func(ctx SpecContext) {
			ExpectError(Must(Anonymous().Get(ctx, "/cards", url.Values{"limit": {"1"}})), http.StatusUnauthorized)
		})
})

// statusPair is an ACTIVE and a FROZEN card of one cardholder name, made once
// and only listed by the entries that share it.
type statusPair struct {
	name           string
	active, frozen Card
}

func newStatusPair(ctx SpecContext) statusPair {
	p := statusPair{name: "Status " + Cfg().RunID + " " + Ref("st")[len(Cfg().RunID)+1:]}
	p.active = NewCard(ctx, WithName(p.name), WithAmount(M("1.00")))
	p.frozen = NewCard(ctx, WithName(p.name), WithAmount(M("1.00")))
	SetCardStatus(ctx, p.frozen.ID, "FROZEN")
	return p
}

// expectOnly asserts that status=st lists cards of that status only: the
// card in it, not the other.
func (p statusPair) expectOnly(ctx SpecContext, st string, in, out Card) {
	GinkgoHelper()
	max := strconv.Itoa(Profile().Cards.ListMaxLimit)
	for _, c := range listCards(ctx, url.Values{"status": {st}, "limit": {max}}) {
		Expect(c.Status).To(Equal(st), "status=%s returned card %s in status %s", st, c.ID, c.Status)
	}
	got := ids(listCards(ctx, url.Values{"status": {st}, "search": {p.name}}))
	Expect(got).To(ContainElement(in.ID))
	Expect(got).NotTo(ContainElement(out.ID))
}
