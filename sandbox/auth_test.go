package sandbox

import (
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/merchant-harness/mph/sandbox/token"
	"github.com/merchant-harness/mph/sandbox/wording"
)

func TestToken(t *testing.T) {
	h := newSbx(t, Options{})
	tests := []struct {
		name          string
		merchant, key string
		hdr           []string
		code          int
		msg, env      string
	}{
		{"alpha test", alpha, alphaTest, nil, 200, "", "TEST"},
		{"alpha live", alpha, alphaLive, nil, 200, "", "LIVE"},
		{"bravo live below tier 2 still gets a token", bravo, bravoLive, nil, 200, "", "LIVE"},
		{"matching X-Merchant-Id", alpha, alphaTest, []string{"X-Merchant-Id: " + alpha}, 200, "", "TEST"},
		{"wrong key", alpha, "sk_test_nope", nil, 401, wording.BadCreds, ""},
		{"key of another merchant", alpha, bravoTest, nil, 401, wording.BadCreds, ""},
		{"unknown merchant", "mer_x", alphaTest, nil, 401, wording.BadCreds, ""},
		{"mismatching X-Merchant-Id", alpha, alphaTest, []string{"X-Merchant-Id: " + bravo}, 401, wording.MerchantHdr, ""},
		{"delta from loopback", delta, deltaTest, nil, 403, "IP address 127.0.0.1 is not allowed for this merchant account", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h.t = t
			r := h.api("POST", "/auth/token", "", map[string]string{"merchantId": tt.merchant, "secretKey": tt.key}, tt.hdr...)
			if tt.code != 200 {
				r.wantError(tt.code, tt.msg)
				return
			}
			r.want(200)
			if r.s("status") != "success" || r.s("path") != "/v1/merchant/auth/token" || r.s("timestamp") != "2026-03-15T12:00:00.000Z" {
				t.Fatalf("envelope A: %s", r.body)
			}
			if r.s("data.tokenType") != "Bearer" || r.num("data.expiresIn") != "900" ||
				r.s("data.environment") != tt.env || r.s("data.merchantId") != tt.merchant {
				t.Fatalf("token data: %s", r.body)
			}
			if strings.Count(r.s("data.accessToken"), ".") != 2 {
				t.Fatalf("not a JWT: %s", r.body)
			}
		})
	}
}

func TestTokenValidation(t *testing.T) {
	h := newSbx(t, Options{})
	tests := []struct{ name, body, msg string }{
		{"missing both", `{}`, "merchantId should not be empty"},
		{"missing secret", `{"merchantId":"mer_demo_alpha"}`, "secretKey should not be empty"},
		{"wrong type", `{"merchantId":1,"secretKey":"x"}`, "merchantId must be a string"},
		{"empty string", `{"merchantId":"","secretKey":"x"}`, "merchantId should not be empty"},
		{"long string", `{"merchantId":"` + strings.Repeat("a", 300) + `","secretKey":"x"}`, "shorter than or equal to 255"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h.t = t
			h.api("POST", "/auth/token", "", tt.body).wantValidation(tt.msg)
		})
	}
}

func TestTokenClaims(t *testing.T) {
	h := newSbx(t, Options{JWTSecret: []byte("fixed")})
	raw := h.token(alpha, alphaTest)
	var c token.Claims
	if _, err := jwt.ParseWithClaims(raw, &c, func(*jwt.Token) (any, error) { return []byte("fixed"), nil },
		jwt.WithTimeFunc(func() time.Time { return t0 })); err != nil {
		t.Fatalf("parse with --jwt-secret: %v", err)
	}
	if c.Subject != alpha || c.Env != "TEST" || c.Issuer != "mph-sandbox" || c.ID == "" ||
		c.ExpiresAt.Sub(c.IssuedAt.Time) != 900*time.Second {
		t.Fatalf("claims: %+v", c)
	}
}

func forge(t testing.TB, key any, method jwt.SigningMethod, c jwt.Claims) string {
	s, err := jwt.NewWithClaims(method, c).SignedString(key)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestBearer(t *testing.T) {
	h := newSbx(t, Options{JWTSecret: []byte("real-key")})
	good := h.token(alpha, alphaTest)
	claims := func(iss string, exp time.Time) token.Claims {
		return token.Claims{Env: "TEST", RegisteredClaims: jwt.RegisteredClaims{
			Subject: alpha, Issuer: iss, IssuedAt: jwt.NewNumericDate(t0), ExpiresAt: jwt.NewNumericDate(exp)}}
	}
	forged := forge(t, []byte("other-key"), jwt.SigningMethodHS256, claims("mph-sandbox", t0.Add(time.Hour)))
	none := forge(t, jwt.UnsafeAllowNoneSignatureType, jwt.SigningMethodNone, claims("mph-sandbox", t0.Add(time.Hour)))
	wrongIss := forge(t, []byte("real-key"), jwt.SigningMethodHS256, claims("someone", t0.Add(time.Hour)))
	hs512 := forge(t, []byte("real-key"), jwt.SigningMethodHS512, claims("mph-sandbox", t0.Add(time.Hour)))
	unknownMerchant := forge(t, []byte("real-key"), jwt.SigningMethodHS256, token.Claims{Env: "TEST",
		RegisteredClaims: jwt.RegisteredClaims{Subject: "mer_ghost", Issuer: "mph-sandbox", ExpiresAt: jwt.NewNumericDate(t0.Add(time.Hour))}})
	tests := []struct {
		name string
		hdr  []string
		code int
		msg  string
	}{
		{"valid", []string{"Authorization: Bearer " + good}, 200, ""},
		{"lower-case scheme", []string{"Authorization: bearer " + good}, 200, ""},
		{"missing header", nil, 401, wording.Bearer},
		{"basic scheme", []string{"Authorization: Basic YTpi"}, 401, wording.Bearer},
		{"bearer without token", []string{"Authorization: Bearer "}, 401, wording.Bearer},
		{"garbage", []string{"Authorization: Bearer abc.def.ghi"}, 401, wording.Bearer},
		{"secret key in bearer position", []string{"Authorization: Bearer " + alphaTest}, 401, wording.Bearer},
		{"forged signature", []string{"Authorization: Bearer " + forged}, 401, wording.Bearer},
		{"alg none", []string{"Authorization: Bearer " + none}, 401, wording.Bearer},
		{"wrong issuer", []string{"Authorization: Bearer " + wrongIss}, 401, wording.Bearer},
		{"HS512", []string{"Authorization: Bearer " + hs512}, 401, wording.Bearer},
		{"unknown merchant", []string{"Authorization: Bearer " + unknownMerchant}, 401, wording.Bearer},
		{"X-Merchant-Id matches", []string{"Authorization: Bearer " + good, "X-Merchant-Id: " + alpha}, 200, ""},
		{"X-Merchant-Id mismatch", []string{"Authorization: Bearer " + good, "X-Merchant-Id: " + bravo}, 401, wording.MerchantHdr},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h.t = t
			r := h.raw("GET", "/v1/merchant/cards", "", tt.hdr...)
			if tt.code == 200 {
				r.want(200)
			} else {
				r.wantError(tt.code, tt.msg)
			}
		})
	}
}

// Messages travel unescaped: "<ACCESS_TOKEN>", not "\u003cACCESS_TOKEN\u003e".
func TestMessagesNotHTMLEscaped(t *testing.T) {
	h := newSbx(t, Options{})
	r := h.raw("GET", "/v1/merchant/cards", "")
	if !strings.Contains(string(r.body), "Bearer <ACCESS_TOKEN>") {
		t.Fatalf("escaped body: %s", r.body)
	}
}

func TestTokenExpiry(t *testing.T) {
	h := newSbx(t, Options{})
	tok := h.token(alpha, alphaTest)
	h.ctl("POST", "/clock/advance", `{"seconds":899}`).want(200)
	h.api("GET", "/cards", tok, nil).want(200)
	h.ctl("POST", "/clock/advance", `{"seconds":1}`).want(200)
	h.api("GET", "/cards", tok, nil).wantError(401, wording.Expired)
	// A fresh token works again.
	h.api("GET", "/cards", h.token(alpha, alphaTest), nil).want(200)
}

func TestIPWhitelistAndKYB(t *testing.T) {
	h := newSbx(t, Options{})
	// Delta is refused from loopback but served from its whitelisted address.
	h.ip = "203.0.113.10:5555"
	dtok := h.token(delta, deltaTest)
	h.api("GET", "/cards", dtok, nil).want(200)
	h.ip = "127.0.0.1:5555"
	h.api("GET", "/cards", dtok, nil).wantError(403, "IP address 127.0.0.1 is not allowed")
	h.ip = "[::ffff:203.0.113.10]:5555" // IPv4-mapped IPv6 is the same caller
	h.api("GET", "/cards", dtok, nil).want(200)

	// KYB: bravo LIVE gets a token, then 403 everywhere; alpha LIVE works.
	h.ip = "127.0.0.1:5555"
	btok := h.token(bravo, bravoLive)
	for _, p := range []string{"/cards", "/cards/config", "/cards/customers", "/betting/quote?amount=100"} {
		h.api("GET", p, btok, nil).wantError(403, wording.KYB)
	}
	atok := h.token(alpha, alphaLive)
	r := h.api("GET", "/cards/config", atok, nil).want(200)
	if r.s("data.environment") != "LIVE" {
		t.Fatalf("alpha LIVE config: %s", r.body)
	}
	// bravo TEST is unaffected by its tier.
	h.api("GET", "/cards", h.token(bravo, bravoTest), nil).want(200)

	// A whitelist set through the controls applies at once to alpha.
	atest := h.token(alpha, alphaTest)
	h.ctl("PUT", "/merchants/mer_demo_alpha/ip-whitelist", `{"environment":"TEST","ips":["198.51.100.7"]}`).want(200)
	h.api("GET", "/cards", atest, nil).wantError(403, "IP address 127.0.0.1 is not allowed for this merchant account")
	h.api("POST", "/auth/token", "", map[string]string{"merchantId": alpha, "secretKey": alphaTest}).wantError(403, "not allowed")
	h.api("GET", "/cards", atok, nil).want(200) // LIVE has its own (empty) whitelist
	h.ctl("PUT", "/merchants/mer_demo_alpha/ip-whitelist", `{"environment":"TEST","ips":[]}`).want(200)
	h.api("GET", "/cards", atest, nil).want(200)
}
