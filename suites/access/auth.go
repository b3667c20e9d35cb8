package access

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/merchant-harness/mph/client"
	"github.com/merchant-harness/mph/config"
	"github.com/merchant-harness/mph/schemas"
	. "github.com/merchant-harness/mph/suites/expect"
	. "github.com/merchant-harness/mph/suites/framework"
	. "github.com/merchant-harness/mph/suites/specsupport"
)

var _ = Describe("Authentication", func() {
	Describe("POST /auth/token", func() {
		tokenAnswerTable()
		tokenRefusalSpecs()
	})

	Describe("token lifetime", tokenLifetimeSpecs)

	Describe("access refusals", accessRefusalSpecs)
})

// tokenAnswer is the answer of one token exchange with the primary
// credentials, read once; the rules of the table each check their part.
type tokenAnswer struct {
	answer Answer
	data   JSON
}

// present reports whether the token answer carries member: the document
// lists the members without saying which are always present (only the
// environment is stated), so a missing one fails only under
// strict.allListedFields.
func (t tokenAnswer) present(member string) bool {
	GinkgoHelper()
	if t.data[member] != nil {
		return true
	}
	Expect(Profile().Strict.AllListedFields).To(BeFalse(), "the token answer carries no %s (profile strict.allListedFields)", member)
	return false
}

func exchangePrimary(ctx SpecContext) tokenAnswer {
	a := ReadAnswer(TokenFor(ctx, Cfg().Primary), schemas.TokenResponse)
	return tokenAnswer{answer: a, data: Data(a.Body)}
}

func tokenAnswerTable() {
	answer := Shared(exchangePrimary)
	ConformanceTable("exchanges merchantId and secretKey for an access token",
		func(ctx SpecContext, rule func(tokenAnswer)) { rule(answer(ctx)) },
		ConformanceEntry("answers 200 in Envelope A whose data is the access token object", SpecID("auth.answers-200-envelope-data"), func(t tokenAnswer) {
			t.answer.ExpectEnvelopeA(schemas.TokenResponse, []string{"/data/accessToken", "/data/tokenType", "/data/expiresIn", "/data/environment", "/data/merchantId"})
			Expect(t.data).NotTo(BeNil(), "data is the access token object")
		}, Reqs("AUTH-01", "ENV-02")),
		// "accessToken (string, JWT)": a JWT in compact serialisation, a JWS
		// of three segments or a JWE of five (RFC 7519); the JOSE header is
		// decoded for a JWS only (a JWE's parts are the issuer's business).
		ConformanceEntry("gives accessToken as a JWT", SpecID("auth.gives-accesstoken-jwt"), func(t tokenAnswer) {
			t.answer.ExpectNoViolationUnder("/data/accessToken")
			tok, _ := t.data["accessToken"].(string)
			parts := strings.Split(tok, ".")
			Expect(len(parts)).To(BeElementOf(3, 5), "accessToken must be a JWT: a JWS of three dot-separated parts or a JWE of five, got %d", len(parts))
			if len(parts) == 3 {
				hdr, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(parts[0], "="))
				Expect(err).NotTo(HaveOccurred(), "JWT header is not base64url")
				Expect(json.Valid(hdr)).To(BeTrue(), "JWT header is not JSON")
			}
		}, Reqs("AUTH-02")),
		// The token type of HTTP bearer is case-insensitive (RFC 6749
		// section 5.1); exactly "Bearer" under strict.tokenTypeCase.
		ConformanceEntry("gives tokenType Bearer (in any case)", SpecID("auth.gives-tokentype-bearer"), func(t tokenAnswer) {
			if !t.present("tokenType") {
				return
			}
			tt, _ := t.data["tokenType"].(string)
			if Profile().Strict.TokenTypeCase {
				Expect(tt).To(Equal("Bearer"), "tokenType (profile strict.tokenTypeCase)")
			}
			Expect(strings.EqualFold(tt, "Bearer")).To(BeTrue(), "tokenType %q names the bearer token type", tt)
		}, Reqs("AUTH-03")),
		ConformanceEntry("gives expiresIn 900, the token's lifetime in seconds", SpecID("auth.gives-expiresin-900-token"), func(t tokenAnswer) {
			t.answer.ExpectNoViolationUnder("/data/expiresIn")
			if !t.present("expiresIn") {
				return
			}
			Expect(schemas.NumberIs(t.data["expiresIn"], 900)).To(BeTrue(), "expiresIn %v must be 900 (seconds)", t.data["expiresIn"])
		}, Reqs("AUTH-04")),
		// "merchantId (string)": that it repeats the request's merchantId is
		// the natural reading of the one name, not a stated rule
		// (strict.tokenMerchantIdEcho).
		ConformanceEntry("gives merchantId, a string (the merchantId of the exchange under strict.tokenMerchantIdEcho)", SpecID("auth.gives-merchantid-merchant"), func(t tokenAnswer) {
			t.answer.ExpectNoViolationUnder("/data/merchantId")
			if !t.present("merchantId") {
				return
			}
			Expect(t.data["merchantId"]).To(BeAssignableToTypeOf(""), "merchantId is a string")
			if Profile().Strict.TokenMerchantIDEcho {
				Expect(t.data["merchantId"]).To(Equal(Cfg().Primary.MerchantID), "merchantId names the merchant of the credentials (profile strict.tokenMerchantIdEcho)")
			}
		}, Reqs("AUTH-06")),
		// AUTH-21 is AUTH-05 for the sandbox's own keys (sk_test_ → TEST).
		ConformanceEntry("states the environment the credentials belong to: sk_test_ keys get TEST tokens", SpecID("auth.states-environment-credentials"), func(t tokenAnswer) {
			t.answer.ExpectNoViolationUnder("/data/environment")
			switch key := Cfg().Primary.SecretKey; {
			case strings.HasPrefix(key, "sk_test_"):
				Expect(t.data["environment"]).To(Equal("TEST"))
			case strings.HasPrefix(key, "sk_live_"):
				Expect(t.data["environment"]).To(Equal("LIVE"))
			default:
				Expect(t.data["environment"]).To(BeElementOf("TEST", "LIVE"))
			}
		}, Reqs("AUTH-05", "AUTH-21")),
	)
}

// tokenRefusalSpecs: the token exchange for LIVE keys and its refusals.
func tokenRefusalSpecs() {
	ConformanceIt("gives a LIVE key at KYB Tier 2+ a token whose environment is LIVE", SpecID("auth.gives-live-key-kyb"),
		Reqs("AUTH-22"), Needs(CapLiveTier2),
		func(ctx SpecContext) {
			d := Data(ExpectEnvelopeA(TokenFor(ctx, *Cfg().LiveTier2), schemas.TokenResponse))
			Expect(d["environment"]).To(Equal("LIVE"))
			if d["merchantId"] != nil && Profile().Strict.TokenMerchantIDEcho {
				Expect(d["merchantId"]).To(Equal(Cfg().LiveTier2.MerchantID), "merchantId (profile strict.tokenMerchantIdEcho)")
			}
		})

	ConformanceIt("refuses a wrong secret key with 401", SpecID("auth.refuses-wrong-secret-key"),
		Reqs("AUTH-07"),
		func(ctx SpecContext) {
			c := Cfg().Primary
			c.SecretKey += "x"
			ExpectError(TokenFor(ctx, c), http.StatusUnauthorized)
		})

	ConformanceIt("refuses an unknown merchant id with 401", SpecID("auth.refuses-unknown-merchant-id"),
		Reqs("AUTH-07"),
		func(ctx SpecContext) {
			c := Cfg().Primary
			c.MerchantID = Cfg().RunID + "_no_such_merchant"
			ExpectError(TokenFor(ctx, c), http.StatusUnauthorized)
		})

	ConformanceIt("refuses a token request missing merchantId or secretKey (400 or 401)", SpecID("auth.refuses-token-request-missing"),
		Reqs("AUTH-08"),
		func(ctx SpecContext) {
			for _, body := range []JSON{
				{"merchantId": Cfg().Primary.MerchantID},
				{"secretKey": Cfg().Primary.SecretKey},
				{},
			} {
				resp := Must(Anonymous().RawAuth().Post(ctx, client.TokenPath, body))
				Expect(resp.Status).To(BeElementOf(http.StatusBadRequest, http.StatusUnauthorized))
				ExpectError(resp, resp.Status)
			}
		})

	// "Where X-Merchant-Id is sent: not shown" (auth.merchantIdHeader): at
	// the token exchange under both or token; under either, a mismatch the
	// exchange serves must then be refused on an authenticated call (the
	// cells of the cross-cutting rules check every call under both and
	// requests).
	ConformanceIt("refuses a token request whose X-Merchant-Id does not match the credentials with 401 (or, under auth.merchantIdHeader either, the calls made with it)", SpecID("auth.refuses-token-request-x"),
		Reqs("AUTH-20"),
		func(ctx SpecContext) {
			h := Profile().Auth.MerchantIDHeader
			if h != "both" && h != "token" && h != "either" {
				Skip("the profile says the target does not check X-Merchant-Id at the token exchange (auth.merchantIdHeader: " + h + ")")
			}
			c := Cfg().Primary
			other := c.MerchantID + "_other"
			resp := Must(Anonymous().RawAuth().WithHeader("X-Merchant-Id", other).Post(ctx, client.TokenPath, client.TokenBody{MerchantID: c.MerchantID, SecretKey: c.SecretKey}))
			if h != "either" || resp.Status != http.StatusOK {
				ExpectError(resp, http.StatusUnauthorized)
				return
			}
			tok, _ := Data(ExpectEnvelopeA(resp, schemas.TokenResponse))["accessToken"].(string)
			call := Must(Anonymous().RawAuth().WithToken(tok).WithHeader("X-Merchant-Id", other).Get(ctx, "/cards/config", nil))
			By("the token exchange served the mismatch: an authenticated call with it must be refused (auth.merchantIdHeader either)")
			ExpectError(call, http.StatusUnauthorized)
		})
}

// tokenLifetimeTable: a token's lifetime on the sandbox clock; each entry
// starts from a token just issued and accepted.
func tokenLifetimeTable() {
	ConformanceTable("lives 900 seconds (sandbox clock)",
		func(ctx SpecContext, rule func(ctx SpecContext, tok string)) {
			tok := FreshToken(ctx)
			ExpectEnvelopeA(Must(Anonymous().WithToken(tok).Get(ctx, "/cards/config", nil)), schemas.ConfigResponse)
			rule(ctx, tok)
		},
		Needs(CapClock), Serial, Destructive,
		ConformanceEntry("accepts a token 14 minutes after its creation", SpecID("auth.accepts-token-14-minutes"), func(ctx SpecContext, tok string) {
			AdvanceClock(ctx, 14*60)
			ExpectEnvelopeA(Must(Anonymous().WithToken(tok).Get(ctx, "/cards/config", nil)), schemas.ConfigResponse)
		}, Reqs("AUTH-13")),
		ConformanceEntry("refuses a token with 401 once its 900 seconds have passed", SpecID("auth.refuses-token-401-once"), func(ctx SpecContext, tok string) {
			AdvanceClock(ctx, 901)
			c := Anonymous().WithToken(tok)
			ExpectError(Must(c.Get(ctx, "/cards/config", nil)), http.StatusUnauthorized)
			ExpectError(Must(c.Get(ctx, "/cards", nil)), http.StatusUnauthorized)
		}, Reqs("AUTH-12")),
		ConformanceEntry("issues a new token after expiry, and accepts it", SpecID("auth.issues-new-token-after"), func(ctx SpecContext, tok string) {
			AdvanceClock(ctx, 901)
			fresh := FreshToken(ctx)
			Expect(fresh).NotTo(Equal(tok), "a new token must be issued")
			ExpectEnvelopeA(Must(Anonymous().WithToken(fresh).Get(ctx, "/cards/config", nil)), schemas.ConfigResponse)
		}, Reqs("AUTH-14")),
	)
}

// tokenLifetimeSpecs: a token lives 900 seconds.
func tokenLifetimeSpecs() {
	tokenLifetimeTable()
	ConformanceIt("refuses a token with 401 once 900 real seconds have passed (waits out the expiry)", SpecID("auth.refuses-token-401-once-2"),
		Reqs("AUTH-12", "AUTH-14"), Slow, SpecTimeout(DefaultTimeoutConfig().SlowSpec),
		func(ctx SpecContext) {
			if Has(CapClock) {
				Skip("covered by the sandbox-clock expiry spec: the target offers the clock control")
			}
			if !Cfg().Slow {
				Skip("waits 15 minutes for real token expiry: set " + config.EnvSlow + "=1 (mph conform --slow) to run it")
			}
			tok := FreshToken(ctx)
			c := Anonymous().WithToken(tok)
			ExpectEnvelopeA(Must(c.Get(ctx, "/cards/config", nil)), schemas.ConfigResponse)
			select {
			case <-ctx.Done():
				HarnessError("interrupted while waiting for the token to expire")
			case <-time.After(Timeouts().TokenExpiry):
			}
			ExpectError(Must(c.Get(ctx, "/cards/config", nil)), http.StatusUnauthorized)
			ExpectEnvelopeA(Must(Anonymous().WithToken(FreshToken(ctx)).Get(ctx, "/cards/config", nil)), schemas.ConfigResponse)
		})
}

// accessRefusalSpecs: the IP whitelist refusing a token issued before it
// excluded the caller (the KYB tier and the whitelist on every route are
// cells of the cross-cutting rules, cross_access.go).
func accessRefusalSpecs() {
	// A merchant refused at the token exchange already says nothing about
	// the per-call check: this one is excluded after its token was issued.
	ConformanceIt("refuses with 403 an authenticated call from an IP outside the merchant's whitelist, also with a token obtained before the whitelist excluded the caller",
		SpecID("auth.ip-whitelist-after-token"), Reqs("AUTH-18", "ERR-09", "ERR-17"), Destructive, Serial, Needs(CapIPWhitelistCtl, CapSecondMerchant),
		func(ctx SpecContext) {
			sec := *Cfg().Secondary
			resp := TokenFor(ctx, sec)
			d := Data(ExpectEnvelopeA(resp, schemas.TokenResponse))
			tok, _ := d["accessToken"].(string)
			env, _ := d["environment"].(string)
			if tok == "" || env == "" {
				HarnessError("fixture: the second merchant's token answer has no accessToken or environment")
			}
			c := Anonymous().WithToken(tok)
			ExpectEnvelopeA(Must(c.Get(ctx, "/cards/config", nil)), schemas.ConfigResponse)

			// 203.0.113.10 is a documentation address (RFC 5737): never the caller's.
			if err := Controls().SetIPWhitelist(ctx, sec.MerchantID, env, []string{"203.0.113.10"}); err != nil {
				HarnessError("sandbox control ip-whitelist: %v", err)
			}
			DeferCleanup(func(ctx SpecContext) {
				if err := Controls().SetIPWhitelist(ctx, sec.MerchantID, env, nil); err != nil {
					HarnessError("restoring the ip whitelist: %v", err)
				}
			})
			for _, p := range []string{"/cards/config", "/cards"} {
				By("GET " + p + " from outside the whitelist")
				body := ExpectErrorWithPath(Must(c.Get(ctx, p, nil)), http.StatusForbidden)
				ExpectMessageMeans(body, "scenario 4: the IP address is not allowed", SaysIPNotAllowed)
			}
		})
}
