package suites

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/url"
	"sort"
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

// protectedEndpoint is one endpoint that requires a bearer token.
type protectedEndpoint struct {
	req    string // requirement of the endpoint itself (for the area label)
	method string
	path   func(card Card) string
	query  url.Values
	body   func(ctx context.Context) any
}

func cardPath(suffix string) func(Card) string {
	return func(c Card) string { return "/cards/" + client.Seg(c.ID) + suffix }
}

func fixed(p string) func(Card) string { return func(Card) string { return p } }

// protectedEndpoints lists endpoints 2-17 of the document and card issuance.
func protectedEndpoints() map[string]protectedEndpoint {
	giftRef := func(Card) string { return "/gift-cards/verify/" + client.Seg(Cfg().RunID+"-no-such-order") }
	return map[string]protectedEndpoint{
		"GET /cards/config":                 {"CONFIG-01", http.MethodGet, fixed("/cards/config"), nil, nil},
		"POST /cards/customers":             {"CUST-01", http.MethodPost, fixed("/cards/customers"), nil, func(context.Context) any { return CustomerBody() }},
		"GET /cards/customers":              {"CUST-07", http.MethodGet, fixed("/cards/customers"), nil, nil},
		"GET /cards":                        {"LIST-01", http.MethodGet, fixed("/cards"), nil, nil},
		"GET /cards/{id}":                   {"GET-01", http.MethodGet, cardPath(""), nil, nil},
		"GET /cards/{id}/secure":            {"SECURE-01", http.MethodGet, cardPath("/secure"), nil, nil},
		"POST /cards/{id}/withdraw":         {"WITHDRAW-01", http.MethodPost, cardPath("/withdraw"), nil, func(context.Context) any { return JSON{"amount": M("0.10").JSON()} }},
		"PUT /cards/{id}/spend-limits":      {"LIMITS-01", http.MethodPut, cardPath("/spend-limits"), nil, func(context.Context) any { return JSON{"transactionLimit": M("10.00").JSON()} }},
		"PATCH /cards/{id}/status":          {"STATUS-01", http.MethodPatch, cardPath("/status"), nil, func(context.Context) any { return JSON{"status": "FROZEN"} }},
		"PATCH /cards/{id}/contact":         {"CONTACT-01", http.MethodPatch, cardPath("/contact"), nil, func(context.Context) any { return JSON{"email": "nobody@example.com"} }},
		"POST /cards/{id}/simulate-webhook": {"WEBHOOK-01", http.MethodPost, cardPath("/simulate-webhook"), nil, func(context.Context) any { return JSON{"event_type": "authorization"} }},
		"GET /gift-cards/quote":             {"QUOTE-01", http.MethodGet, fixed("/gift-cards/quote"), nil, nil},
		"POST /gift-cards/purchase": {"GIFT-01", http.MethodPost, fixed("/gift-cards/purchase"), nil, func(context.Context) any {
			return JSON{"amount": M(Profile().GiftCards.FaceValue).JSON(), "recipientEmail": "nobody@example.com", "recipientName": "Nobody"}
		}},
		"GET /gift-cards/verify/{reference}": {"GIFT-05", http.MethodGet, giftRef, nil, nil},
		"GET /gift-cards/transactions/{ref}": {"GIFT-17", http.MethodGet, fixed("/gift-cards/transactions/" + "GCT_mph_no_such"), nil, nil},
		"GET /betting/quote":                 {"QUOTE-02", http.MethodGet, fixed("/betting/quote"), nil, nil},
		"POST /cards (issuance)":             {"ISSUE-01", http.MethodPost, nil, nil, nil},
	}
}

// authGiftQuery is a valid gift quote query per the profile.
func authGiftQuery() url.Values {
	g := Profile().GiftCards
	q := url.Values{}
	for k, v := range g.Quote.Params {
		v = strings.ReplaceAll(v, "{productCode}", g.ProductCode)
		v = strings.ReplaceAll(v, "{amount}", g.FaceValue)
		q.Set(k, v)
	}
	return q
}

// authBettingQuery is a valid betting quote query per the profile.
func authBettingQuery() url.Values {
	q := url.Values{}
	for k, v := range Profile().Betting.Quote.Params {
		q.Set(k, v)
	}
	return q
}

func endpointRequest(ctx context.Context, e protectedEndpoint, card Card) client.Request {
	r := client.Request{Method: e.method, Query: e.query}
	if e.path == nil { // issuance: path and body from the profile
		cus := "cus_" + Cfg().RunID + "nosuchcustomer"
		if !LiveRefused() {
			cus = SharedCustomer(ctx)
		}
		r.Path = Profile().Issuance.Path
		r.Body = IssuanceBody(cus, "Ada Harness", M("1.00"), Ref("card"))
		return r
	}
	r.Path = e.path(card)
	if e.body != nil {
		r.Body = e.body(ctx)
	}
	return r
}

var _ = Describe("Authentication", func() {
	Describe("POST /auth/token", func() {
		ConformanceIt("exchanges merchantId and secretKey for a Bearer JWT access token valid 900 seconds, in Envelope A",
			Reqs("AUTH-01", "AUTH-02", "AUTH-03", "AUTH-04", "AUTH-06", "ENV-01", "ENV-02", "ENV-05", "ENV-07", "ENV-08"),
			func(ctx SpecContext) {
				resp := tokenFor(ctx, Cfg().Primary)
				d := Data(ExpectEnvelopeA(resp, schemas.TokenResponse))
				tok, _ := d["accessToken"].(string)
				parts := strings.Split(tok, ".")
				Expect(parts).To(HaveLen(3), "accessToken must be a JWT (three dot-separated parts)")
				hdr, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(parts[0], "="))
				Expect(err).NotTo(HaveOccurred(), "JWT header is not base64url")
				Expect(json.Valid(hdr)).To(BeTrue(), "JWT header is not JSON")
				Expect(d["tokenType"]).To(Equal("Bearer"))
				Expect(Num(d["expiresIn"])).To(Equal("900"), "expiresIn")
				Expect(d["merchantId"]).To(Equal(Cfg().Primary.MerchantID), "merchantId names the merchant of the credentials")
			})

		ConformanceIt("states the environment the credentials belong to: sk_test_ keys get TEST tokens",
			Reqs("AUTH-05", "AUTH-21"),
			func(ctx SpecContext) {
				d := Data(ExpectEnvelopeA(tokenFor(ctx, Cfg().Primary), schemas.TokenResponse))
				switch {
				case strings.HasPrefix(Cfg().Primary.SecretKey, "sk_test_"):
					Expect(d["environment"]).To(Equal("TEST"))
				case strings.HasPrefix(Cfg().Primary.SecretKey, "sk_live_"):
					Expect(d["environment"]).To(Equal("LIVE"))
				default:
					Expect(d["environment"]).To(BeElementOf("TEST", "LIVE"))
				}
			})

		ConformanceIt("gives a LIVE key at KYB Tier 2+ a token whose environment is LIVE",
			Reqs("AUTH-22", "AUTH-05"), Needs(CapLiveTier2),
			func(ctx SpecContext) {
				d := Data(ExpectEnvelopeA(tokenFor(ctx, *Cfg().LiveTier2), schemas.TokenResponse))
				Expect(d["environment"]).To(Equal("LIVE"))
				Expect(d["merchantId"]).To(Equal(Cfg().LiveTier2.MerchantID))
			})

		ConformanceIt("refuses a wrong secret key with 401",
			Reqs("AUTH-07", "ERR-08"),
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
	})

	Describe("bearer token on every protected endpoint", func() {
		eps := protectedEndpoints()
		names := make([]string, 0, len(eps))
		for n := range eps {
			names = append(names, n)
		}
		sort.Strings(names) // the same tree in every ginkgo -p process
		for _, name := range names {
			e := eps[name]
			ConformanceIt("refuses "+name+" without an Authorization header with 401",
				Reqs("AUTH-09", "ERR-01", "ERR-02", "ERR-03", "ERR-08", e.req),
				func(ctx SpecContext) {
					// A real card, so that a server checking existence before
					// auth cannot hide a bypass; with LIVE credentials (and no
					// --allow-live) nothing is issued: an unknown id is used.
					card := Card{ID: "crd_" + Cfg().RunID + "nosuchcard"}
					if !LiveRefused() {
						card = SharedCard(ctx)
					}
					r := endpointRequest(ctx, e, card)
					if name == "GET /gift-cards/quote" {
						r.Query = authGiftQuery()
					}
					if name == "GET /betting/quote" {
						r.Query = authBettingQuery()
					}
					ExpectError(Must(Anonymous().Do(ctx, r)), http.StatusUnauthorized)
				})
		}

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
	})

	Describe("token lifetime", func() {
		ConformanceIt("accepts a token 14 minutes after creation, refuses it with 401 after 900 seconds, and accepts a new token (sandbox clock)",
			Reqs("AUTH-12", "AUTH-13", "AUTH-14", "ERR-08"), Needs(CapClock), Serial, Destructive,
			func(ctx SpecContext) {
				tok := freshToken(ctx)
				c := Anonymous().WithToken(tok)
				ExpectEnvelopeA(Must(c.Get(ctx, "/cards/config", nil)), schemas.ConfigResponse)
				if _, err := Controls().AdvanceClock(ctx, 14*60); err != nil {
					HarnessError("advancing the sandbox clock: %v", err)
				}
				ExpectEnvelopeA(Must(c.Get(ctx, "/cards/config", nil)), schemas.ConfigResponse)
				if _, err := Controls().AdvanceClock(ctx, 61); err != nil {
					HarnessError("advancing the sandbox clock: %v", err)
				}
				ExpectError(Must(c.Get(ctx, "/cards/config", nil)), http.StatusUnauthorized)
				ExpectError(Must(c.Get(ctx, "/cards", nil)), http.StatusUnauthorized)
				fresh := freshToken(ctx)
				Expect(fresh).NotTo(Equal(tok), "a new token must be issued")
				ExpectEnvelopeA(Must(Anonymous().WithToken(fresh).Get(ctx, "/cards/config", nil)), schemas.ConfigResponse)
			})

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
	})

	Describe("access refusals", func() {
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
				ExpectError(Must(c.Post(ctx, "/cards/customers", CustomerBody())), http.StatusForbidden)
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
	})
})
