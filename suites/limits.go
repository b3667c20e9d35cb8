package suites

import (
	"net/http"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/merchant-harness/mph/client"
	"github.com/merchant-harness/mph/schemas"
)

var _ = Describe("Spend limits: PUT /cards/{id}/spend-limits", func() {
	ConformanceIt("sets the four limits and echoes them in spendLimits with the card's id",
		Reqs("LIMITS-01", "LIMITS-02", "LIMITS-03"), Destructive,
		func(ctx SpecContext) {
			c := NewCard(ctx, WithAmount(M("1.00")))
			want := map[string]Money{"transactionLimit": M("25.50"), "dailyLimit": M("100.00"), "monthlyLimit": M("1000.00"), "allTimeLimit": M("5000.25")}
			body := JSON{}
			for k, v := range want {
				body[k] = v.JSON()
			}
			resp := Must(API().Put(ctx, "/cards/"+client.Seg(c.ID)+"/spend-limits", body))
			d := Data(ExpectEnvelopeA(resp, schemas.SpendLimitsResponse))
			_, isStr := d["message"].(string)
			Expect(isStr).To(BeTrue(), "data.message is a string")
			Expect(d["cardId"]).To(Equal(c.ID))
			sl, _ := d["spendLimits"].(JSON)
			for k, v := range want {
				Expect(ExpectMoney(sl[k], k)).To(EqualMoney(v), "spendLimits.%s", k)
			}
		})

	ConformanceIt("accepts each limit alone (all are optional) and echoes it; cardId is the id also when addressed by reference",
		Reqs("LIMITS-02", "LIMITS-03"), Destructive,
		func(ctx SpecContext) {
			c := NewCard(ctx, WithAmount(M("1.00")))
			addr := c.ID
			if Profile().Issuance.ReferenceField != "" {
				addr = c.Reference
			}
			for i, k := range []string{"transactionLimit", "dailyLimit", "monthlyLimit", "allTimeLimit"} {
				v := M("10.00").Add(M([]string{"0.01", "0.02", "0.03", "0.04"}[i]))
				resp := Must(API().Put(ctx, "/cards/"+client.Seg(addr)+"/spend-limits", JSON{k: v.JSON()}))
				d := Data(ExpectEnvelopeA(resp, schemas.SpendLimitsResponse))
				Expect(d["cardId"]).To(Equal(c.ID), "cardId when addressed by %q", addr)
				sl, _ := d["spendLimits"].(JSON)
				Expect(ExpectMoney(sl[k], k)).To(EqualMoney(v), "spendLimits.%s", k)
			}
		})

	ConformanceIt("answers 404 for a card that does not exist",
		Reqs("ERR-10"),
		func(ctx SpecContext) {
			resp := Must(API().Put(ctx, "/cards/crd_"+Cfg().RunID+"nosuchcard/spend-limits", JSON{"transactionLimit": M("10.00").JSON()}))
			ExpectError(resp, http.StatusNotFound)
		})
})
