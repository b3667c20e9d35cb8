// Package token is the sandbox's access tokens: HS256 JWTs signed and
// verified on the sandbox clock, encrypted as compact JWEs under the
// setting token-jwe-compact.
package token

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/merchant-harness/mph/clock"
)

// Lifetime is how long an access token lives (expiresIn: 900).
const Lifetime = 900 * time.Second

const jwtIssuer = "mph-sandbox"

// Claims are an access token's: its merchant (Subject) and environment.
type Claims struct {
	Env string `json:"env"`
	jwt.RegisteredClaims
}

// Issuer signs and verifies access tokens. The key and the parsers are
// built once: the token endpoint and every authenticated call are hot paths.
type Issuer struct {
	key     []byte
	jwe     bool // token-jwe-compact: tokens are encrypted JWTs
	clk     clock.Clock
	parser  *jwt.Parser
	lenient *jwt.Parser // fault auth-expired-token-accepted: signature only
}

// New returns the issuer signing with key, judging expiry on clk; jwe
// encrypts its tokens (token-jwe-compact).
func New(key []byte, clk clock.Clock, jwe bool) *Issuer {
	return &Issuer{
		key: key,
		jwe: jwe,
		clk: clk,
		parser: jwt.NewParser(
			jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}),
			jwt.WithIssuer(jwtIssuer),
			jwt.WithExpirationRequired(),
			jwt.WithTimeFunc(clk.Now), // expiry is judged on the sandbox clock
		),
		lenient: jwt.NewParser(
			jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}),
			jwt.WithoutClaimsValidation(),
		),
	}
}

// Issue signs a token of merchantID in env (TEST or LIVE) issued at now.
func (t *Issuer) Issue(merchantID, env string, now time.Time) (string, error) {
	iat := now.Truncate(time.Second)
	c := Claims{
		Env: env,
		RegisteredClaims: jwt.RegisteredClaims{
			Subject:   merchantID,
			Issuer:    jwtIssuer,
			IssuedAt:  jwt.NewNumericDate(iat),
			ExpiresAt: jwt.NewNumericDate(iat.Add(Lifetime)),
			ID:        randomHex(8),
		},
	}
	tok, err := jwt.NewWithClaims(jwt.SigningMethodHS256, c).SignedString(t.key)
	if err == nil && t.jwe {
		return sealJWE(t.key, tok)
	}
	return tok, err
}

func (t *Issuer) keyFunc(*jwt.Token) (any, error) { return t.key, nil }

// ErrExpired is Verify's error for a token past its expiry.
var ErrExpired = errors.New("expired")

// Verify returns the claims of a valid token; lenient checks the signature
// only (the fault auth-expired-token-accepted).
func (t *Issuer) Verify(raw string, lenient bool) (*Claims, error) {
	p := t.parser
	if lenient {
		p = t.lenient
	}
	if t.jwe && strings.Count(raw, ".") == 4 {
		inner, err := openJWE(t.key, raw)
		if err != nil {
			return nil, err
		}
		raw = inner
	}
	var c Claims
	if _, err := p.ParseWithClaims(raw, &c, t.keyFunc); err != nil {
		if errors.Is(err, jwt.ErrTokenExpired) {
			return nil, ErrExpired
		}
		return nil, err
	}
	return &c, nil
}

// Decode returns a token's claims without verifying its signature.
func Decode(raw string) (*Claims, error) {
	var c Claims
	if _, _, err := jwt.NewParser().ParseUnverified(raw, &c); err != nil {
		return nil, err
	}
	return &c, nil
}

// randomHex returns 2n random hex digits (a token's id).
func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b) // never fails (crypto/rand)
	return hex.EncodeToString(b)
}
