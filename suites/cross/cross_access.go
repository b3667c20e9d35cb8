package cross

// The 403 refusals on every route: the KYB tier of LIVE writes and the IP
// whitelist.

import (
	"fmt"
	"net/http"

	. "github.com/onsi/ginkgo/v2"

	"github.com/merchant-harness/mph/api"
	"github.com/merchant-harness/mph/client"
	"github.com/merchant-harness/mph/schemas"
	. "github.com/merchant-harness/mph/suites/expect"
	. "github.com/merchant-harness/mph/suites/framework"
	. "github.com/merchant-harness/mph/suites/specsupport"
)

func accessRules() []crossRule {
	return []crossRule{
		{
			id:    "access.kyb",
			title: "refuses a LIVE write of a merchant below KYB Tier 2 with 403",
			reqs:  []string{"AUTH-19"},
			cite:  "Live operations require KYB Tier 2 or higher.",
			// Whether a read is a "live operation" is not shown: the
			// lenient reading asserts the writes. A merchant below Tier 2
			// owns no LIVE card or customer, so only the writes needing
			// none can tell a refusal from a 404.
			applies: func(e api.Endpoint) bool {
				return e.Bearer() && e.Writes() && len(e.Params) == 0 && e.Order != "issuance"
			},
			parts: func(api.Endpoint) []any { return []any{Needs(CapLiveLowKYB), Destructive} },
			check: kybCheck,
		},
		{
			id:      "access.ip-whitelist",
			title:   "refuses a caller outside the merchant's IP whitelist with 403",
			reqs:    []string{"AUTH-18", "ERR-09"},
			cite:    "Access can also be refused with 403 when the caller's IP address is not in the merchant's IP whitelist for that environment",
			applies: every,
			parts:   func(api.Endpoint) []any { return []any{Needs(CapNotWhitelisted), Serial} },
			check:   ipCheck,
		},
	}
}

// kybCheck sends the endpoint's valid write with the LIVE token of the
// merchant below Tier 2 (a purchase's 400 for the LIVE balance may come
// first).
func kybCheck(ctx SpecContext, e api.Endpoint) {
	tok := lowKYBToken(ctx)
	if tok == "" {
		By("the token exchange refused the merchant below Tier 2 with 403: none of its calls is served")
		return
	}
	p := newProbeOf(ctx, e, false)
	if e.Order == "gift" {
		p.others = append(p.others, http.StatusBadRequest)
	}
	resp := p.do(ctx, Anonymous().WithToken(tok))
	p.judge(resp, "a LIVE write below KYB Tier 2", false, http.StatusForbidden)
}

// ipCheck: with the ip-whitelist control, the primary merchant's whitelist
// excludes this machine after a token was issued (a refusal at the
// exchange would say nothing of the call); otherwise the credentials
// outside their whitelist, whose refusal at the exchange serves no call.
func ipCheck(ctx SpecContext, e api.Endpoint) {
	if Has(CapIPWhitelistCtl) {
		ipByControl(ctx, e)
		return
	}
	resp := TokenFor(ctx, *Cfg().NotWhitelisted)
	if resp.Status == http.StatusForbidden {
		ExpectError(resp, http.StatusForbidden)
		By("the token exchange refused the caller outside the whitelist with 403: none of its calls is served")
		return
	}
	d := Data(ExpectEnvelopeA(resp, schemas.TokenResponse))
	tok, _ := d["accessToken"].(string)
	if d["environment"] != "TEST" && e.Writes() && !Cfg().AllowLive && !Cfg().Embedded {
		Skip("refused: the credentials outside the whitelist are not TEST (environment " + fmt.Sprint(d["environment"]) + ") and this cell writes; " + AllowLiveHint + " to run it")
	}
	if e.Token() {
		expectIPRefused(ctx, probe{e: runEndpoint("config"), req: client.Request{Method: http.MethodGet, Path: "/cards/config"}}, tok)
		return
	}
	expectIPRefused(ctx, newProbeOf(ctx, e, false), tok)
}

func ipByControl(ctx SpecContext, e api.Endpoint) {
	p := newProbe(ctx, e) // the fixtures first, while the caller is allowed
	c := Cfg().Primary
	tok := FreshToken(ctx)
	env := Environment()
	// 203.0.113.10 is a documentation address (RFC 5737): never the caller's.
	if err := Controls().SetIPWhitelist(ctx, c.MerchantID, env, []string{"203.0.113.10"}); err != nil {
		HarnessError("sandbox control ip-whitelist: %v", err)
	}
	DeferCleanup(func(ctx SpecContext) {
		if err := Controls().SetIPWhitelist(ctx, c.MerchantID, env, nil); err != nil {
			HarnessError("restoring the ip whitelist: %v", err)
		}
	})
	if e.Token() {
		resp := TokenFor(ctx, c)
		if resp.Status == http.StatusForbidden {
			ExpectError(resp, http.StatusForbidden)
			return
		}
		tok, _ = Data(ExpectEnvelopeA(resp, schemas.TokenResponse))["accessToken"].(string)
		p = probe{e: runEndpoint("config"), req: client.Request{Method: http.MethodGet, Path: "/cards/config"}}
	}
	expectIPRefused(ctx, p, tok)
}

func expectIPRefused(ctx SpecContext, p probe, tok string) {
	GinkgoHelper()
	resp := p.do(ctx, Anonymous().WithToken(tok))
	p.judge(resp, "a call from outside the IP whitelist", false, http.StatusForbidden)
}
