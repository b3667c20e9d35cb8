package cross

// The authentication rules on every endpoint but the token exchange: each
// cell sends the endpoint's valid request to a real resource with spoilt
// credentials and expects 401 in the error envelope.

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/merchant-harness/mph/api"
	"github.com/merchant-harness/mph/client"
	"github.com/merchant-harness/mph/config"
	"github.com/merchant-harness/mph/schemas"
	. "github.com/merchant-harness/mph/suites/expect"
	. "github.com/merchant-harness/mph/suites/framework"
	. "github.com/merchant-harness/mph/suites/specsupport"
)

// credential is one spoilt way of presenting credentials.
type credential struct {
	what   string
	header http.Header // sent as is; no Authorization member: none is sent
}

func bearerValue(what, tok string) credential {
	return credential{what: what, header: http.Header{"Authorization": {"Bearer " + tok}}}
}

// authRule is a rule refusing spoilt credentials with 401 on every bearer
// endpoint; spoil returns the credentials a cell presents.
func authRule(id, title, cite string, reqs []string, spoil func(ctx SpecContext) []credential) crossRule {
	return crossRule{id: id, title: title, reqs: reqs, cite: cite, applies: bearer,
		check: func(ctx SpecContext, e api.Endpoint) {
			p := newProbe(ctx, e)
			for _, c := range spoil(ctx) {
				By(c.what)
				resp := p.do(ctx, Anonymous(), func(r *client.Request) { r.Header = c.header.Clone() })
				p.judge(resp, c.what, false, http.StatusUnauthorized)
			}
		}}
}

func authRules() []crossRule {
	expired := authRule("auth.expired", "refuses a token past its 900 seconds with 401",
		"A token is valid for 900 seconds (15 minutes) from creation. After expiry, requests get 401", []string{"AUTH-12"},
		func(ctx SpecContext) []credential {
			return []credential{bearerValue("a token past its 900 seconds", agedToken(ctx))}
		})
	// One real wait of 15 minutes without the clock control: Slow.
	expired.parts = func(api.Endpoint) []any { return []any{Slow, Serial, SpecTimeout(DefaultTimeoutConfig().SlowSpec)} }
	return []crossRule{
		authRule("auth.no-header", "refuses a call without an Authorization header with 401",
			"Send `Authorization: Bearer <ACCESS_TOKEN>` on every other request.", []string{"AUTH-09"},
			func(SpecContext) []credential {
				return []credential{{what: "no Authorization header", header: http.Header{}}}
			}),
		authRule("auth.other-scheme", "refuses credentials in another scheme than Bearer (Basic, Token) with 401",
			"The only scheme is bearer tokens (HTTP bearer, JWT).", []string{"AUTH-10"}, otherSchemes),
		expired,
		authRule("auth.forged-signature", "refuses a token whose signature does not verify with 401",
			"401 | secret key or token missing, wrong or expired", []string{"AUTH-11"},
			func(ctx SpecContext) []credential {
				return []credential{bearerValue("a token with a flipped signature", forge(ctx, "signature"))}
			}),
		authRule("auth.tampered", "refuses a token whose payload was changed after signing with 401",
			"401 | secret key or token missing, wrong or expired", []string{"AUTH-11"},
			func(ctx SpecContext) []credential {
				return []credential{bearerValue("a token whose expiry was pushed a day on, signature kept", forge(ctx, "payload"))}
			}),
		authRule("auth.alg-none", "refuses an unsigned token (alg none) with 401",
			"The only scheme is bearer tokens (HTTP bearer, JWT).", []string{"AUTH-11"},
			func(ctx SpecContext) []credential {
				return []credential{bearerValue("an unsigned token (alg none) with the genuine claims", forge(ctx, "none"))}
			}),
		authRule("auth.malformed-token", "refuses a bearer value that is not a JWT with 401",
			"401 | secret key or token missing, wrong or expired", []string{"AUTH-11"}, malformedTokens),
		merchantHeaderRule(),
	}
}

// otherSchemes are the merchant's credentials in the Basic scheme and a
// genuine token in a scheme other than Bearer.
func otherSchemes(ctx SpecContext) []credential {
	c := Cfg().Primary
	basic := base64.StdEncoding.EncodeToString([]byte(c.MerchantID + ":" + c.SecretKey))
	return []credential{
		{what: "Basic with the merchant id and secret key", header: http.Header{"Authorization": {"Basic " + basic}}},
		{what: "a genuine token in the Token scheme", header: http.Header{"Authorization": {"Token " + genuineToken(ctx)}}},
	}
}

func malformedTokens(SpecContext) []credential {
	return []credential{
		bearerValue("a bearer value that is not a JWT", "not-a-jwt"),
		bearerValue("three segments that are not base64url JSON", "a.b.c"),
		bearerValue("a bare JWT header", "eyJhbGciOiJIUzI1NiJ9"),
		bearerValue("an oversized bearer value", strings.Repeat("x", 2048)),
		{what: "Bearer without a token", header: http.Header{"Authorization": {"Bearer"}}},
	}
}

// forge derives a token from a genuine one: its signature flipped, its
// payload changed (expiry a day on) under the old signature, or unsigned.
func forge(ctx SpecContext, how string) string {
	GinkgoHelper()
	tok := genuineToken(ctx)
	parts := strings.Split(tok, ".")
	if len(parts) != 3 {
		notApplicable("the access token is not a signed JWT in compact form (three segments): there is nothing to forge")
	}
	payload, _ := base64.RawURLEncoding.DecodeString(parts[1])
	var claims map[string]any
	if json.Unmarshal(payload, &claims) != nil || claims == nil {
		notApplicable("the access token's payload is not a JSON object: there is nothing to tamper with")
	}
	exp, _ := claims["exp"].(float64)
	claims["exp"] = int64(exp) + 86400
	nb, _ := json.Marshal(claims)
	changed := base64.RawURLEncoding.EncodeToString(nb)
	switch how {
	case "signature":
		sig := []byte(parts[2])
		if sig[0] == 'A' {
			sig[0] = 'B'
		} else {
			sig[0] = 'A'
		}
		return parts[0] + "." + parts[1] + "." + string(sig)
	case "payload":
		return parts[0] + "." + changed + "." + parts[2]
	}
	return base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"none","typ":"JWT"}`)) + "." + changed + "."
}

// agedToken is a genuine token past its 900 seconds, one per process: the
// sandbox clock moved on once, or (--slow) one real wait.
var agedToken = Shared(func(ctx SpecContext) string {
	if !Has(CapClock) && !Cfg().Slow {
		Skip("waits 15 minutes for a token to expire (no sandbox clock): set " + config.EnvSlow + "=1 (mph conform --slow) to run it")
	}
	tok := FreshToken(ctx)
	ExpectEnvelopeA(Must(Anonymous().WithToken(tok).Get(ctx, "/cards/config", nil)), schemas.ConfigResponse)
	if Has(CapClock) {
		AdvanceClock(ctx, int64(Timeouts().TokenExpiry/time.Second))
		forgetGenuineToken()
		return tok
	}
	select {
	case <-ctx.Done():
		HarnessError("interrupted while waiting for the token to expire")
	case <-time.After(Timeouts().TokenExpiry):
	}
	return tok
})

// merchantHeaderRule: a mismatching X-Merchant-Id on authenticated calls,
// where the profile says the target checks it ("Where X-Merchant-Id is
// sent: not shown"). Under auth.merchantIdHeader: either, a call served
// with it passes when the token exchange refuses the mismatch (the target
// checks it there): one of the two places must.
func merchantHeaderRule() crossRule {
	return crossRule{id: "auth.merchant-header", title: "refuses a call whose X-Merchant-Id does not match the token's merchant with 401 (or, as the profile allows, the token exchange refuses it)",
		reqs: []string{"AUTH-20"}, cite: "The 401 description refers to a merchant id header named `X-Merchant-Id` that must match the secret key.", applies: bearer,
		check: func(ctx SpecContext, e api.Endpoint) {
			h := Profile().Auth.MerchantIDHeader
			if h != "both" && h != "requests" && h != "either" {
				notApplicable("the profile says the target does not check X-Merchant-Id on authenticated calls (auth.merchantIdHeader: %s)", h)
			}
			p := newProbe(ctx, e)
			c := bearerValue("a genuine token with another merchant's X-Merchant-Id", FreshToken(ctx))
			c.header.Set("X-Merchant-Id", Cfg().Primary.MerchantID+"_other")
			resp := p.do(ctx, Anonymous(), func(r *client.Request) { r.Header = c.header.Clone() })
			if h == "either" && resp.Status >= 200 && resp.Status < 300 {
				Expect(exchangeRefusesMerchantHeader(ctx)).To(BeTrue(),
					"%s served a call with a mismatching X-Merchant-Id, and the token exchange does not refuse the mismatch either (auth.merchantIdHeader: either: one of them must answer 401)", e.Key())
				return
			}
			p.judge(resp, c.what, false, http.StatusUnauthorized)
		}}
}

// exchangeRefusesMerchantHeader reports whether the token exchange refuses
// the primary credentials with a mismatching X-Merchant-Id (401 in the
// error envelope), asked once per process: every wrong attempt may count
// towards a lockout (other failure conditions are not shown).
var exchangeRefusesMerchantHeader = Shared(func(ctx SpecContext) bool {
	c := Cfg().Primary
	resp := Must(Anonymous().RawAuth().WithHeader("X-Merchant-Id", c.MerchantID+"_other").Post(ctx, client.TokenPath, client.TokenBody{MerchantID: c.MerchantID, SecretKey: c.SecretKey}))
	if resp.Status != http.StatusUnauthorized {
		return false
	}
	ExpectError(resp, http.StatusUnauthorized)
	return true
})

// forgetGenuineToken drops the cached genuine token (the clock moved past it).
func forgetGenuineToken() {
	genuine.mu.Lock()
	genuine.tok = ""
	genuine.mu.Unlock()
}

// lowKYBToken is the LIVE token of the merchant below KYB Tier 2, one per
// process; "" when the token exchange itself refused it with 403.
var lowKYBToken = Shared(func(ctx SpecContext) string {
	resp := TokenFor(ctx, *Cfg().LiveLowKYB)
	if resp.Status == http.StatusForbidden {
		ExpectError(resp, http.StatusForbidden)
		return ""
	}
	d := Data(ExpectEnvelopeA(resp, schemas.TokenResponse))
	if d["environment"] != "LIVE" {
		HarnessError("the credentials below KYB Tier 2 (%s) got a token for environment %v, not LIVE", config.EnvLowKYBMerchantID, d["environment"])
	}
	tok, _ := d["accessToken"].(string)
	return tok
})
