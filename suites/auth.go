package suites

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/merchant-harness/mph/client"
	"github.com/merchant-harness/mph/schemas"
	. "github.com/merchant-harness/mph/suites/framework"
	"github.com/merchant-harness/mph/target"
)

// tokenFor exchanges credentials through the raw client and returns the
// answer (schema-checked by the caller).
func tokenFor(ctx context.Context, c target.Credentials) *client.Response {
	return Must(Anonymous().RawAuth().Post(ctx, client.TokenPath, client.TokenBody{MerchantID: c.MerchantID, SecretKey: c.SecretKey}))
}

// freshToken obtains a new token for the primary credentials (a harness
// error if it cannot).
func freshToken(ctx context.Context) string {
	GinkgoHelper()
	resp := tokenFor(ctx, Cfg().Primary)
	if resp.Status != http.StatusOK {
		HarnessError("token exchange for the primary merchant answered HTTP %d", resp.Status)
	}
	tok, _ := Data(resp.Map())["accessToken"].(string)
	if tok == "" {
		HarnessError("token exchange answered no accessToken")
	}
	return tok
}

var _ = Describe("Authentication", func() {
	Describe("POST /auth/token", func() {
		tokenAnswerTable()
		tokenRefusalSpecs()
	})

	Describe("bearer token on every protected endpoint", func() {
		noBearerTable()
		bearerValueSpecs()
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

func exchangePrimary(ctx SpecContext) tokenAnswer {
	a := ReadAnswer(tokenFor(ctx, Cfg().Primary), schemas.TokenResponse)
	return tokenAnswer{answer: a, data: Data(a.Body)}
}

func tokenAnswerTable() {
	answer := Shared(exchangePrimary)
	ConformanceTable("exchanges merchantId and secretKey for an access token",
		func(ctx SpecContext, rule func(tokenAnswer)) { rule(answer(ctx)) },
		ConformanceEntry("answers 200 in Envelope A whose data is the access token object", func(t tokenAnswer) {
			t.answer.ExpectEnvelopeA(schemas.TokenResponse, []string{"/data/accessToken", "/data/tokenType", "/data/expiresIn", "/data/environment", "/data/merchantId"})
			Expect(t.data).NotTo(BeNil(), "data is the access token object")
		}, Reqs("AUTH-01", "ENV-02")),
		ConformanceEntry("gives accessToken as a JWT", func(t tokenAnswer) {
			t.answer.ExpectNoViolationUnder("/data/accessToken")
			tok, _ := t.data["accessToken"].(string)
			parts := strings.Split(tok, ".")
			Expect(parts).To(HaveLen(3), "accessToken must be a JWT (three dot-separated parts)")
			hdr, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(parts[0], "="))
			Expect(err).NotTo(HaveOccurred(), "JWT header is not base64url")
			Expect(json.Valid(hdr)).To(BeTrue(), "JWT header is not JSON")
		}, Reqs("AUTH-02")),
		ConformanceEntry("gives tokenType Bearer", func(t tokenAnswer) {
			Expect(t.data["tokenType"]).To(Equal("Bearer"))
		}, Reqs("AUTH-03")),
		ConformanceEntry("gives expiresIn 900, the token's lifetime in seconds", func(t tokenAnswer) {
			t.answer.ExpectNoViolationUnder("/data/expiresIn")
			Expect(Num(t.data["expiresIn"])).To(Equal("900"), "expiresIn")
		}, Reqs("AUTH-04")),
		ConformanceEntry("gives merchantId, the merchant the credentials belong to", func(t tokenAnswer) {
			Expect(t.data["merchantId"]).To(Equal(Cfg().Primary.MerchantID), "merchantId names the merchant of the credentials")
		}, Reqs("AUTH-06")),
		// AUTH-21 is AUTH-05 for the sandbox's own keys (sk_test_ → TEST).
		ConformanceEntry("states the environment the credentials belong to: sk_test_ keys get TEST tokens", func(t tokenAnswer) {
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
	ConformanceIt("gives a LIVE key at KYB Tier 2+ a token whose environment is LIVE",
		Reqs("AUTH-22"), Needs(CapLiveTier2),
		func(ctx SpecContext) {
			d := Data(ExpectEnvelopeA(tokenFor(ctx, *Cfg().LiveTier2), schemas.TokenResponse))
			Expect(d["environment"]).To(Equal("LIVE"))
			Expect(d["merchantId"]).To(Equal(Cfg().LiveTier2.MerchantID))
		})

	ConformanceIt("refuses a wrong secret key with 401",
		Reqs("AUTH-07"),
		func(ctx SpecContext) {
			c := Cfg().Primary
			c.SecretKey += "x"
			ExpectError(tokenFor(ctx, c), http.StatusUnauthorized)
		})

	ConformanceIt("refuses an unknown merchant id with 401",
		Reqs("AUTH-07"),
		func(ctx SpecContext) {
			c := Cfg().Primary
			c.MerchantID = Cfg().RunID + "_no_such_merchant"
			ExpectError(tokenFor(ctx, c), http.StatusUnauthorized)
		})

	ConformanceIt("refuses a token request missing merchantId or secretKey (400 or 401)",
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

	ConformanceIt("refuses a token request whose X-Merchant-Id does not match the credentials with 401",
		Reqs("AUTH-20"),
		func(ctx SpecContext) {
			if h := Profile().Auth.MerchantIDHeader; h != "both" && h != "token" {
				Skip("the profile says the target does not check X-Merchant-Id at the token exchange (auth.merchantIdHeader: " + h + ")")
			}
			c := Cfg().Primary
			resp := Must(Anonymous().RawAuth().WithHeader("X-Merchant-Id", c.MerchantID+"_other").Post(ctx, client.TokenPath, client.TokenBody{MerchantID: c.MerchantID, SecretKey: c.SecretKey}))
			ExpectError(resp, http.StatusUnauthorized)
		})
}

// bearerValueSpecs: bearer values other than a valid token are refused.
func bearerValueSpecs() {
	ConformanceIt("refuses a non-Bearer scheme (Basic with the merchant credentials) with 401",
		Reqs("AUTH-10"),
		func(ctx SpecContext) {
			c := Cfg().Primary
			basic := base64.StdEncoding.EncodeToString([]byte(c.MerchantID + ":" + c.SecretKey))
			resp := Must(Anonymous().Do(ctx, client.Request{Method: http.MethodGet, Path: "/cards", Header: http.Header{"Authorization": {"Basic " + basic}}}))
			ExpectError(resp, http.StatusUnauthorized)
		})

	ConformanceIt("refuses malformed bearer values (not a JWT, a bare JWT header, oversized, empty) with 401",
		Reqs("AUTH-11"),
		func(ctx SpecContext) {
			for _, bad := range []string{"not-a-jwt", "a.b.c", "eyJhbGciOiJIUzI1NiJ9", strings.Repeat("x", 2048)} {
				resp := Must(Anonymous().WithToken(bad).Get(ctx, "/cards", nil))
				ExpectError(resp, http.StatusUnauthorized)
			}
			resp := Must(Anonymous().Do(ctx, client.Request{Method: http.MethodGet, Path: "/cards", Header: http.Header{"Authorization": {"Bearer"}}}))
			ExpectError(resp, http.StatusUnauthorized)
		})

	ConformanceIt("refuses a forged token (valid token with a tampered signature, payload or alg none) with 401",
		Reqs("AUTH-11"),
		func(ctx SpecContext) {
			tok := freshToken(ctx)
			parts := strings.Split(tok, ".")
			if len(parts) != 3 {
				HarnessError("the access token is not a JWT; cannot forge one")
			}
			// Flip the signature.
			sig := []byte(parts[2])
			if sig[0] == 'A' {
				sig[0] = 'B'
			} else {
				sig[0] = 'A'
			}
			tamperedSig := parts[0] + "." + parts[1] + "." + string(sig)
			// Change the payload (push exp a day later) and keep the signature.
			payload, _ := base64.RawURLEncoding.DecodeString(parts[1])
			var claims map[string]any
			_ = json.Unmarshal(payload, &claims)
			if claims == nil {
				claims = map[string]any{}
			}
			claims["exp"] = time.Now().Add(24 * time.Hour).Unix()
			claims["iat"] = time.Now().Unix()
			nb, _ := json.Marshal(claims)
			tamperedPayload := parts[0] + "." + base64.RawURLEncoding.EncodeToString(nb) + "." + parts[2]
			none := base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"none","typ":"JWT"}`)) + "." + base64.RawURLEncoding.EncodeToString(nb) + "."
			for _, forged := range []string{tamperedSig, tamperedPayload, none} {
				ExpectError(Must(Anonymous().WithToken(forged).Get(ctx, "/cards", nil)), http.StatusUnauthorized)
			}
			// The genuine token is accepted (the refusals were about the forgery).
			ExpectEnvelopeA(Must(Anonymous().WithToken(tok).Get(ctx, "/cards/config", nil)), schemas.ConfigResponse)
		})

	ConformanceIt("refuses an authenticated request whose X-Merchant-Id does not match the token's merchant with 401",
		Reqs("AUTH-20"),
		func(ctx SpecContext) {
			if h := Profile().Auth.MerchantIDHeader; h != "both" && h != "requests" {
				Skip("the profile says the target does not check X-Merchant-Id on authenticated requests (auth.merchantIdHeader: " + h + ")")
			}
			tok := freshToken(ctx)
			c := Anonymous().WithToken(tok)
			ExpectError(Must(c.WithHeader("X-Merchant-Id", Cfg().Primary.MerchantID+"_other").Get(ctx, "/cards/config", nil)), http.StatusUnauthorized)
			ExpectEnvelopeA(Must(c.WithHeader("X-Merchant-Id", Cfg().Primary.MerchantID).Get(ctx, "/cards/config", nil)), schemas.ConfigResponse)
		})
}

// tokenLifetimeTable: a token's lifetime on the sandbox clock; each entry
// starts from a token just issued and accepted.
func tokenLifetimeTable() {
	ConformanceTable("lives 900 seconds (sandbox clock)",
		func(ctx SpecContext, rule func(ctx SpecContext, tok string)) {
			tok := freshToken(ctx)
			ExpectEnvelopeA(Must(Anonymous().WithToken(tok).Get(ctx, "/cards/config", nil)), schemas.ConfigResponse)
			rule(ctx, tok)
		},
		Needs(CapClock), Serial, Destructive,
		ConformanceEntry("accepts a token 14 minutes after its creation", func(ctx SpecContext, tok string) {
			advanceClock(ctx, 14*60)
			ExpectEnvelopeA(Must(Anonymous().WithToken(tok).Get(ctx, "/cards/config", nil)), schemas.ConfigResponse)
		}, Reqs("AUTH-13")),
		ConformanceEntry("refuses a token with 401 once its 900 seconds have passed", func(ctx SpecContext, tok string) {
			advanceClock(ctx, 901)
			c := Anonymous().WithToken(tok)
			ExpectError(Must(c.Get(ctx, "/cards/config", nil)), http.StatusUnauthorized)
			ExpectError(Must(c.Get(ctx, "/cards", nil)), http.StatusUnauthorized)
		}, Reqs("AUTH-12")),
		ConformanceEntry("issues a new token after expiry, and accepts it", func(ctx SpecContext, tok string) {
			advanceClock(ctx, 901)
			fresh := freshToken(ctx)
			Expect(fresh).NotTo(Equal(tok), "a new token must be issued")
			ExpectEnvelopeA(Must(Anonymous().WithToken(fresh).Get(ctx, "/cards/config", nil)), schemas.ConfigResponse)
		}, Reqs("AUTH-14")),
	)
}

// tokenLifetimeSpecs: a token lives 900 seconds.
func tokenLifetimeSpecs() {
	tokenLifetimeTable()
	ConformanceIt("refuses a token with 401 once 900 real seconds have passed (waits out the expiry)",
		Reqs("AUTH-12", "AUTH-14"), Slow, SpecTimeout(DefaultTimeoutConfig().SlowSpec),
		func(ctx SpecContext) {
			if Has(CapClock) {
				Skip("covered by the sandbox-clock expiry spec: the target offers the clock control")
			}
			if !Cfg().Slow {
				Skip("waits 15 minutes for real token expiry: set " + target.EnvSlow + "=1 (mph conform --slow) to run it")
			}
			tok := freshToken(ctx)
			c := Anonymous().WithToken(tok)
			ExpectEnvelopeA(Must(c.Get(ctx, "/cards/config", nil)), schemas.ConfigResponse)
			select {
			case <-ctx.Done():
				HarnessError("interrupted while waiting for the token to expire")
			case <-time.After(Timeouts().TokenExpiry):
			}
			ExpectError(Must(c.Get(ctx, "/cards/config", nil)), http.StatusUnauthorized)
			ExpectEnvelopeA(Must(Anonymous().WithToken(freshToken(ctx)).Get(ctx, "/cards/config", nil)), schemas.ConfigResponse)
		})
}

// accessRefusalSpecs: the 403 refusals (KYB tier, IP whitelist).
func accessRefusalSpecs() {
	ConformanceIt("refuses live operations of a merchant below KYB Tier 2 with 403",
		Reqs("AUTH-19", "ERR-09"), Needs(CapLiveLowKYB),
		func(ctx SpecContext) {
			resp := tokenFor(ctx, *Cfg().LiveLowKYB)
			if resp.Status == http.StatusForbidden {
				ExpectError(resp, http.StatusForbidden)
				return
			}
			d := Data(ExpectEnvelopeA(resp, schemas.TokenResponse))
			Expect(d["environment"]).To(Equal("LIVE"))
			tok, _ := d["accessToken"].(string)
			c := Anonymous().WithToken(tok)
			for _, p := range []string{"/cards/config", "/cards", "/cards/customers"} {
				ExpectError(Must(c.Get(ctx, p, nil)), http.StatusForbidden)
			}
		})

	// A registration with a LIVE token is a LIVE write: a target that wrongly
	// accepts it registers a real customer, so it needs --allow-live.
	ConformanceIt("refuses a customer registration by a merchant below KYB Tier 2 with 403",
		Reqs("AUTH-19", "ERR-09"), Destructive, Needs(CapLiveLowKYB),
		func(ctx SpecContext) {
			resp := tokenFor(ctx, *Cfg().LiveLowKYB)
			if resp.Status == http.StatusForbidden {
				ExpectError(resp, http.StatusForbidden)
				return
			}
			tok, _ := Data(ExpectEnvelopeA(resp, schemas.TokenResponse))["accessToken"].(string)
			ExpectError(Must(Anonymous().WithToken(tok).Post(ctx, "/cards/customers", CustomerBody())), http.StatusForbidden)
		})

	ConformanceIt("refuses a caller whose IP address is not whitelisted with 403",
		Reqs("AUTH-18", "ERR-09"), Needs(CapNotWhitelisted),
		func(ctx SpecContext) {
			resp := tokenFor(ctx, *Cfg().NotWhitelisted)
			if resp.Status == http.StatusForbidden {
				ExpectError(resp, http.StatusForbidden)
				return
			}
			d := Data(ExpectEnvelopeA(resp, schemas.TokenResponse))
			tok, _ := d["accessToken"].(string)
			c := Anonymous().WithToken(tok)
			for _, p := range []string{"/cards/config", "/cards"} {
				ExpectError(Must(c.Get(ctx, p, nil)), http.StatusForbidden)
			}
		})

	// A merchant refused at the token exchange already says nothing about
	// the per-call check: this one is excluded after its token was issued.
	ConformanceIt("refuses with 403 an authenticated call from an IP outside the merchant's whitelist, also with a token obtained before the whitelist excluded the caller",
		SpecID("auth.87e762"), Reqs("AUTH-18", "ERR-09", "ERR-17"), Destructive, Serial, Needs(CapIPWhitelistCtl, CapSecondMerchant),
		func(ctx SpecContext) {
			sec := *Cfg().Secondary
			resp := tokenFor(ctx, sec)
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
				Expect(lowerMsg(body)).To(ContainSubstring("ip"), "the message says the IP address is not allowed")
			}
		})
}
