package cards

import (
	"net/http"
	"net/url"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/merchant-harness/mph/client"
	"github.com/merchant-harness/mph/schemas"
	. "github.com/merchant-harness/mph/suites/expect"
	"github.com/merchant-harness/mph/suites/fixtures"
	. "github.com/merchant-harness/mph/suites/framework"
	. "github.com/merchant-harness/mph/suites/specsupport"
)

var _ = Describe("Card configuration: GET /cards/config", func() {
	config := Shared(func(ctx SpecContext) Answer {
		return ReadAnswer(Must(API().Get(ctx, "/cards/config", nil)), schemas.ConfigResponse)
	})
	ConformanceTable("answers with the card configuration",
		func(ctx SpecContext, rule func(Answer)) { rule(config(ctx)) },
		ConformanceEntry("answers 200 in Envelope A whose data is the card configuration", SpecID("config.answers-200-envelope-data"), func(a Answer) {
			owned := make([]string, 0, len(configMembers))
			for _, m := range configMembers {
				owned = append(owned, "/data/"+m)
			}
			a.ExpectEnvelopeA(schemas.ConfigResponse, owned)
		}, Reqs("CONFIG-01", "ENV-01", "ENV-02", "ENV-05", "ENV-08")),
		configAmountEntry("gives creationFee, the issuance fee, as a number", "config.creation-fee-number", "creationFee", "CONFIG-03", false),
		configAmountEntry("gives fundFee, the funding fee, as a number", "config.fund-fee-number", "fundFee", "CONFIG-04", false),
		configAmountEntry("gives withdrawalFee, the fee of a sweep to the vault, as a number", "config.withdrawal-fee-number", "withdrawalFee", "CONFIG-05", false),
		configAmountEntry("gives exchangeRate as a number, when it gives one", "config.exchange-rate-number", "exchangeRate", "CONFIG-07", true),
		configAmountEntry("gives vaultBalance, the vault's available balance, as a number", "config.vault-balance-number", "vaultBalance", "CONFIG-08", false),
	)

	// VER-01: the base URL's path ends in /v1/merchant and the API answers
	// there. The echoed path is informational ("the path value is
	// informational"): it is held to /v1/merchant/... or /api/v1/merchant/...
	// only under strict.envelopePath.
	ConformanceIt("serves the API under the version root /v1/merchant of its base URL: the configuration and the token exchange answer there", SpecID("versioning.places-api-under-version"),
		Reqs("VER-01", "VER-03", "ENV-08"),
		func(ctx SpecContext) {
			base, err := url.Parse(Cfg().BaseURL)
			Expect(err).NotTo(HaveOccurred(), "the base URL")
			Expect(strings.TrimRight(base.Path, "/")).To(HaveSuffix("/v1/merchant"), "the base URL's path ends in /v1/merchant")
			for _, c := range []struct {
				resp   *client.Response
				schema string
				suffix string
			}{
				{Must(API().Get(ctx, "/cards/config", nil)), schemas.ConfigResponse, "/v1/merchant/cards/config"},
				{TokenFor(ctx, Cfg().Primary), schemas.TokenResponse, "/v1/merchant/auth/token"},
			} {
				body := ExpectEnvelopeA(c.resp, c.schema)
				if Profile().Strict.EnvelopePath {
					p, _ := body["path"].(string)
					p, _, _ = strings.Cut(p, "?")
					Expect(p).To(Or(Equal(c.suffix), Equal("/api"+c.suffix)), "the target echoes %q, not under the version root /v1/merchant (profile strict.envelopePath)", p)
				}
			}
		})

	ConformanceIt("states the environment of the caller's credentials (the token's environment)", SpecID("config.states-environment-caller-s"),
		Reqs("CONFIG-02", "AUTH-05"),
		func(ctx SpecContext) {
			c := fixtures.GetConfig(ctx)
			if c.Environment == "" && !Profile().Strict.AllListedFields {
				Skip("the configuration carries no environment: its presence is not stated (profile strict.allListedFields)")
			}
			Expect(c.Environment).To(Equal(Environment()), "config environment vs the token's environment")
		})

	ConformanceIt("returns minFunding 1.00 USD", SpecID("config.returns-minfunding-1-00"),
		Reqs("CONFIG-06", "ISSUE-09"),
		func(ctx SpecContext) {
			c := fixtures.GetConfig(ctx)
			Expect(c.MinFunding).To(EqualMoney(M("1.00")), "minFunding")
		})

	ConformanceIt("shows LIVE credentials the LIVE configuration", SpecID("config.shows-live-credentials-live"),
		Reqs("CONFIG-09"), Needs(CapLiveTier2),
		func(ctx SpecContext) {
			resp := Must(APIAs(*Cfg().LiveTier2).Get(ctx, "/cards/config", nil))
			d := Data(ExpectEnvelopeA(resp, schemas.ConfigResponse))
			if d["environment"] == nil && !Profile().Strict.AllListedFields {
				Skip("the configuration carries no environment: its presence is not stated (profile strict.allListedFields)")
			}
			Expect(d["environment"]).To(Equal("LIVE"))
		})

	ConformanceIt("refuses the configuration without a bearer token", SpecID("auth.refuses-configuration-without"),
		Reqs("AUTH-09"),
		func(ctx SpecContext) {
			ExpectError(Must(Anonymous().Get(ctx, "/cards/config", nil)), http.StatusUnauthorized)
		})
})

var configMembers = []string{"environment", "creationFee", "fundFee", "withdrawalFee", "minFunding", "exchangeRate", "vaultBalance"}

// configAmountEntry is a table entry proving that one member of the
// configuration is a number (read exactly, never as a float). An optional
// one may be absent or null (exchangeRate: which pair it rates is not shown,
// and a USD card may have none), except under strict.allListedFields.
func configAmountEntry(text string, id SpecID, member, req string, optional bool) TableRule {
	return ConformanceEntry(text, id, func(a Answer) {
		GinkgoHelper()
		a.ExpectNoViolationUnder("/data/" + member)
		data, _ := a.Body["data"].(JSON)
		if optional && data[member] == nil && !Profile().Strict.AllListedFields {
			return
		}
		ExpectMoney(data[member], member)
	}, Reqs(req))
}
