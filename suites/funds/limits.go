package funds

import (
	"net/http"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/merchant-harness/mph/client"
	"github.com/merchant-harness/mph/schemas"
	. "github.com/merchant-harness/mph/suites/expect"
	"github.com/merchant-harness/mph/suites/fixtures"
	. "github.com/merchant-harness/mph/suites/framework"
	. "github.com/merchant-harness/mph/suites/specsupport"
)

// limitsSet is one PUT of the four limits, addressing the card by its
// reference where issuance takes one; its answer read once.
type limitsSet struct {
	card   fixtures.Card
	want   map[string]Money
	answer Answer
}

func setFourLimits(ctx SpecContext) limitsSet {
	c := fixtures.NewCard(ctx, fixtures.WithAmount(M("1.00")))
	addr := c.ID
	if Profile().Issuance.ReferenceField != "" {
		addr = c.Reference
	}
	// Small and never decreasing from transaction to all-time: valid under
	// any plausible rule ("Maximum values for amounts and spend limits ...:
	// not shown").
	want := smallLimits
	body := JSON{}
	for k, v := range want {
		body[k] = v.JSON()
	}
	resp := Must(API().Put(ctx, "/cards/"+client.Seg(addr)+"/spend-limits", body))
	return limitsSet{card: c, want: want, answer: ReadAnswer(resp, schemas.SpendLimitsResponse)}
}

var _ = Describe("Spend limits: PUT /cards/{id}/spend-limits", func() {
	limitsAnswerTable()
	limitsUpdateSpecs()
})

func limitsAnswerTable() {
	set := Shared(setFourLimits)
	ConformanceTable("sets the four limits",
		func(ctx SpecContext, rule func(limitsSet)) { rule(set(ctx)) },
		Destructive,
		ConformanceEntry("answers 200 in Envelope A whose data is message, cardId and spendLimits", SpecID("spend-limits.answers-200-envelope-data"), func(l limitsSet) {
			l.answer.ExpectEnvelopeA(schemas.SpendLimitsResponse, []string{"/data/cardId", "/data/spendLimits"})
			d := Data(l.answer.Body)
			_, isStr := d["message"].(string)
			Expect(isStr).To(BeTrue(), "data.message is a string")
			Expect(d).To(HaveKey("cardId"))
			Expect(d).To(HaveKey("spendLimits"))
		}, Reqs("LIMITS-01")),
		ConformanceEntry("echoes the limits set in spendLimits, as USD numbers", SpecID("spend-limits.echoes-limits-set-spendlimits"), func(l limitsSet) {
			l.answer.ExpectNoViolationUnder("/data/spendLimits")
			sl, _ := Data(l.answer.Body)["spendLimits"].(JSON)
			for k, v := range l.want {
				Expect(ExpectMoney(sl[k], k)).To(EqualMoney(v), "spendLimits.%s", k)
			}
		}, Reqs("LIMITS-02")),
		ConformanceEntry("gives cardId, the id of the card addressed (also when addressed by its reference)", SpecID("spend-limits.gives-cardid-id-card"), func(l limitsSet) {
			l.answer.ExpectNoViolationUnder("/data/cardId")
			Expect(Data(l.answer.Body)["cardId"]).To(Equal(l.card.ID))
		}, Reqs("LIMITS-03")),
	)
}

// limitsUpdateSpecs: limits set one at a time, read back, of unknown cards.
func limitsUpdateSpecs() {
	// Each limit is sent alone with a value that keeps the set the answers
	// show in order and within the maximum they respect (a rule ordering the
	// limits, a maximum, or a program's defaults taking the place of the
	// limits not supplied, are not shown but plausible).
	ConformanceIt("accepts each limit alone (all are optional) and echoes it", SpecID("spend-limits.accepts-each-limit-alone"),
		Reqs("LIMITS-02"), Destructive,
		func(ctx SpecContext) {
			c := fixtures.NewCard(ctx, fixtures.WithAmount(M("1.00")))
			addr := c.ID
			if Profile().Issuance.ReferenceField != "" {
				addr = c.Reference
			}
			shown, _ := SetLimits(ctx, c.ID, smallLimits)["spendLimits"].(JSON)
			for i, k := range limitNames {
				v := aloneValue(shown, i)
				resp := Must(API().Put(ctx, "/cards/"+client.Seg(addr)+"/spend-limits", JSON{k: v.JSON()}))
				d := Data(ExpectEnvelopeA(resp, schemas.SpendLimitsResponse))
				shown, _ = d["spendLimits"].(JSON)
				Expect(ExpectMoney(shown[k], k)).To(EqualMoney(v), "spendLimits.%s", k)
			}
		})

	// The document shows the PUT answer only: the limits are read back from
	// a later PUT's spendLimits. Whether a PUT replaces the whole set or
	// merges is not shown, nor how an unset limit looks: a limit not
	// supplied keeps its value, is unset (null, absent, 0 or negative) or
	// takes the value a new card shows for it (a program's default), as the
	// profile's cards.spendLimitsPut allows; never anything else.
	ConformanceIt("reads the stored limits back from a later PUT answer: a limit not supplied keeps its value, is unset or takes a new card's value", SpecID("spend-limits.reads-stored-limits-back"),
		Reqs("LIMITS-02"), Destructive,
		func(ctx SpecContext) {
			fresh := newCardLimits(ctx)
			c := fixtures.NewCard(ctx, fixtures.WithAmount(M("1.00")))
			first := map[string]Money{"transactionLimit": M("2.00"), "dailyLimit": M("6.00"), "monthlyLimit": M("16.00"), "allTimeLimit": M("40.00")}
			SetLimits(ctx, c.ID, first)
			d := SetLimits(ctx, c.ID, map[string]Money{"transactionLimit": M("1.50")})
			sl, _ := d["spendLimits"].(JSON)
			for _, k := range []string{"dailyLimit", "monthlyLimit", "allTimeLimit"} {
				expectUnsuppliedLimit(k, sl[k], first[k], fresh[k])
			}
		})

	ConformanceIt("answers 404 for a card that does not exist", SpecID("errors.answers-404-card-does-2"),
		Reqs("ERR-10"),
		func(ctx SpecContext) {
			resp := Must(API().Put(ctx, CardURL(fixtures.UnknownCardID(ctx), "/spend-limits"), JSON{"transactionLimit": M("1.00").JSON()}))
			ExpectError(resp, http.StatusNotFound)
		})
}

// newCardLimits are the limits a new card shows for dailyLimit,
// monthlyLimit and allTimeLimit in the answer to a PUT of its
// transactionLimit alone: its program's defaults, or unset.
func newCardLimits(ctx SpecContext) JSON {
	GinkgoHelper()
	c := fixtures.NewCard(ctx, fixtures.WithAmount(M("1.00")))
	sl, _ := SetLimits(ctx, c.ID, map[string]Money{"transactionLimit": M("1.50")})["spendLimits"].(JSON)
	return sl
}

// expectUnsuppliedLimit checks a limit a PUT did not supply against the
// profile's cards.spendLimitsPut: kept (the value set before), unset (null,
// absent, 0 or negative) or a new card's value; any of them by default.
func expectUnsuppliedLimit(k string, got any, before Money, newCard any) {
	GinkgoHelper()
	mode := Profile().Cards.SpendLimitsPut
	m, isNum := MoneyOf(got)
	kept := isNum && m.Eq(before)
	unset := got == nil || isNum && m.Cmp(M("0")) <= 0
	n, newIsNum := MoneyOf(newCard)
	def := isNum && newIsNum && m.Eq(n) || got == nil && newCard == nil
	ok := map[string]bool{"keep": kept, "unset": unset, "default": def, "any": kept || unset || def}[mode]
	Expect(ok).To(BeTrue(), "spendLimits.%s after a PUT of transactionLimit alone is %s: want (profile cards.spendLimitsPut %s) the stored %s, unset, or a new card's %s",
		k, NumberString(got), mode, before, NumberString(newCard))
}

// smallLimits are four limits valid under any plausible rule: small, and
// never decreasing from transaction to all-time ("Maximum values for
// amounts and spend limits ...: not shown").
var smallLimits = map[string]Money{"transactionLimit": M("2.50"), "dailyLimit": M("10.00"), "monthlyLimit": M("25.00"), "allTimeLimit": M("40.25")}

// aloneValue is a value for limit i sent alone that keeps the values the
// answer shows in order and within any maximum they respect: one cent below
// the value it shows (not below a value shown for a lower limit), else one
// cent above it (not above a value shown for a higher one), else that
// value; for a limit shown unset, one cent above the values shown below it.
func aloneValue(shown JSON, i int) Money {
	positive := func(k string) (Money, bool) {
		m, ok := MoneyOf(shown[k])
		return m, ok && m.Cmp(M("0")) > 0
	}
	lowest, highest := M("0"), Money{}
	hasHigh := false
	for j, k := range limitNames {
		m, ok := positive(k)
		switch {
		case !ok:
		case j < i && m.Cmp(lowest) > 0:
			lowest = m
		case j > i && (!hasHigh || m.Cmp(highest) < 0):
			highest, hasHigh = m, true
		}
	}
	cur, ok := positive(limitNames[i])
	if !ok {
		v := lowest.Add(M("0.01"))
		if hasHigh && highest.Cmp(v) < 0 {
			v = highest
		}
		return v
	}
	if down := cur.Sub(M("0.01")); down.Cmp(M("0")) > 0 && down.Cmp(lowest) >= 0 {
		return down
	}
	if up := cur.Add(M("0.01")); hasHigh && up.Cmp(highest) <= 0 {
		return up
	}
	return cur
}
