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

var _ = Describe("Card configuration: GET /cards/config", func() {
	ConformanceIt("answers 200 in Envelope A with the card configuration: environment, creationFee, fundFee, withdrawalFee, minFunding, exchangeRate and vaultBalance as numbers",
		Reqs("CONFIG-01", "CONFIG-03", "CONFIG-04", "CONFIG-05", "CONFIG-07", "ENV-01", "ENV-02", "ENV-05", "ENV-08"),
		func(ctx SpecContext) {
			resp := Must(API().Get(ctx, "/cards/config", nil))
			d := Data(ExpectEnvelopeA(resp, schemas.ConfigResponse))
			for _, f := range []string{"creationFee", "fundFee", "withdrawalFee", "minFunding", "exchangeRate", "vaultBalance"} {
				ExpectMoney(d[f], f)
			}
		})

	// VER-01 from the target's own answers: the API it serves places the
	// configuration at <version root>/cards/config, the root being
	// /v1/merchant (or /api/v1/merchant), whatever base URL the harness uses.
	ConformanceIt("places the API under the version root /v1/merchant: the answers echo /v1/merchant/cards/config and /v1/merchant/auth/token",
		Reqs("VER-01", "VER-03", "ENV-08"),
		func(ctx SpecContext) {
			for _, c := range []struct {
				resp   *client.Response
				schema string
				suffix string
			}{
				{Must(API().Get(ctx, "/cards/config", nil)), schemas.ConfigResponse, "/v1/merchant/cards/config"},
				{tokenFor(ctx, Cfg().Primary), schemas.TokenResponse, "/v1/merchant/auth/token"},
			} {
				body := ExpectEnvelopeA(c.resp, c.schema)
				p, _ := body["path"].(string)
				p, _, _ = strings.Cut(p, "?")
				Expect(p).To(Or(Equal(c.suffix), Equal("/api"+c.suffix)), "the target echoes its own path %q: not under the version root /v1/merchant", p)
			}
		})

	ConformanceIt("states the environment of the caller's credentials (the token's environment)",
		Reqs("CONFIG-02", "AUTH-05"),
		func(ctx SpecContext) {
			c := GetConfig(ctx)
			Expect(c.Environment).To(Equal(Environment()), "config environment vs the token's environment")
		})

	ConformanceIt("returns minFunding 1.00 USD",
		Reqs("CONFIG-06", "ISSUE-09"),
		func(ctx SpecContext) {
			c := GetConfig(ctx)
			Expect(c.MinFunding).To(EqualMoney(M("1.00")), "minFunding")
		})

	ConformanceIt("shows LIVE credentials the LIVE configuration",
		Reqs("CONFIG-09"), Needs(CapLiveTier2),
		func(ctx SpecContext) {
			resp := Must(APIAs(*Cfg().LiveTier2).Get(ctx, "/cards/config", nil))
			d := Data(ExpectEnvelopeA(resp, schemas.ConfigResponse))
			Expect(d["environment"]).To(Equal("LIVE"))
		})

	ConformanceIt("refuses the configuration without a bearer token",
		Reqs("AUTH-09"),
		func(ctx SpecContext) {
			ExpectError(Must(Anonymous().Get(ctx, "/cards/config", nil)), http.StatusUnauthorized)
		})
})
