// Package redact masks secrets and card data before anything reaches a log,
// a console or a report: secret keys, bearer tokens (JWTs), full PANs, CVVs,
// voucher PINs and the sandbox admin key.
//
// PANs keep their first 6 and last 4 digits, the form the API itself uses for
// maskedPan; every other secret is replaced whole, keeping only a short
// recognisable prefix so a reader can tell which kind of value was there.
package redact

import (
	"bytes"
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
)

// Mask is what replaces a secret value.
const Mask = "***"

var (
	// A PAN: 13 to 19 digits, optionally grouped by single spaces or dashes,
	// not glued to other digits or letters.
	panRe = regexp.MustCompile(`(^|[^0-9A-Za-z])([0-9](?:[ -]?[0-9]){12,18})($|[^0-9A-Za-z])`)
	// A JWT: three base64url segments, the first starting with eyJ ({").
	jwtRe = regexp.MustCompile(`eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*`)
	// Secret keys of the API (sk_test_, sk_live_), webhook secrets and admin keys.
	keyRe = regexp.MustCompile(`\b(sk_(?:test|live)_|whsec_|sbx_admin_)[A-Za-z0-9_]+`)
	// "Bearer <credential>" in free text (an Authorization header rendered as
	// text). Only values shaped like a credential are masked, so prose such as
	// "bearer token." survives: 6+ characters with a digit or an inner dot, or 20+.
	bearerRe = regexp.MustCompile(`(?i)(bearer\s+)([A-Za-z0-9._~+/=-]+)`)
	// JSON string members whose value is secret whatever it looks like.
	secretFieldRe = regexp.MustCompile(`(?i)("(?:cvv|cvc|cvv2|pin|secretKey|secret_key|secret|accessToken|access_token|token|adminKey|password)"\s*:\s*)(?:"(?:[^"\\]|\\.)*"|-?[0-9][0-9.eE+-]*)`)
)

// secretFields are JSON member names whose string values are always masked.
var secretFields = map[string]bool{
	"cvv": true, "cvc": true, "cvv2": true, "pin": true,
	"secretkey": true, "secret_key": true, "secret": true,
	"accesstoken": true, "access_token": true, "token": true,
	"adminkey": true, "password": true,
}

// panFields hold a full card number: masked to first 6 / last 4 whatever
// their grouping.
var panFields = map[string]bool{"cardnumber": true, "pan": true, "card_number": true}

// SecretField reports whether a JSON member of this name (any case) holds a
// secret whatever its value looks like: cvv, pin, secretKey, accessToken...
func SecretField(name string) bool { return secretFields[strings.ToLower(name)] }

// PANField reports whether a JSON member of this name holds a full card
// number (cardNumber, pan).
func PANField(name string) bool { return panFields[strings.ToLower(name)] }

// PAN masks one card number to its first 6 and last 4 digits, keeping the
// length so the shape stays recognisable: "4242 4242 4242 4242" becomes
// "424242******4242". Strings with fewer than 11 digits are masked whole.
func PAN(s string) string {
	digits := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] >= '0' && s[i] <= '9' {
			digits = append(digits, s[i])
		}
	}
	if len(digits) < 11 {
		return Mask
	}
	return string(digits[:6]) + strings.Repeat("*", len(digits)-10) + string(digits[len(digits)-4:])
}

// Text masks every secret found in free text: PANs, JWTs, bearer tokens,
// secret keys and JSON members named like secrets (cvv, pin, secretKey...).
func Text(s string) string {
	if s == "" {
		return s
	}
	s = secretFieldRe.ReplaceAllString(s, `$1"`+Mask+`"`)
	s = jwtRe.ReplaceAllString(s, "eyJ"+Mask)
	s = keyRe.ReplaceAllString(s, "${1}"+Mask)
	s = bearerRe.ReplaceAllStringFunc(s, func(m string) string {
		sub := bearerRe.FindStringSubmatch(m)
		if !credentialLike(sub[2]) {
			return m
		}
		return sub[1] + Mask
	})
	s = maskPANs(s)
	return s
}

// credentialLike reports whether a word after "Bearer" looks like a token
// rather than prose: 6+ characters with a digit or an inner dot, or 20+.
func credentialLike(v string) bool {
	if v == Mask || strings.HasPrefix(v, "eyJ") {
		return true
	}
	inner := strings.Trim(v, ".")
	return len(v) >= 20 || len(v) >= 6 && (strings.ContainsAny(v, "0123456789") || strings.Contains(inner, "."))
}

func maskPANs(s string) string {
	// The regexp consumes its delimiters, so adjacent PANs need a second pass.
	for i := 0; i < 2; i++ {
		s = panRe.ReplaceAllStringFunc(s, func(m string) string {
			sub := panRe.FindStringSubmatch(m)
			if !luhnish(sub[2]) {
				return m
			}
			return sub[1] + PAN(sub[2]) + sub[3]
		})
	}
	return s
}

// luhnish reports whether a digit run is worth masking as a PAN. Every
// 13-19 digit run is masked (a test PAN need not be Luhn-valid), except
// runs that are plainly not card numbers: all one digit repeated.
func luhnish(run string) bool {
	d := strings.NewReplacer(" ", "", "-", "").Replace(run)
	return strings.Trim(d, d[:1]) != ""
}

// JSON masks a JSON document structurally (secret members, PAN members, and
// secrets inside any string), falling back to Text when it is not JSON.
// The output is compact JSON.
func JSON(b []byte) []byte {
	trimmed := bytes.TrimSpace(b)
	if len(trimmed) == 0 || (trimmed[0] != '{' && trimmed[0] != '[') {
		return []byte(Text(string(b)))
	}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return []byte(Text(string(b)))
	}
	out, err := json.Marshal(walk("", v))
	if err != nil {
		return []byte(Text(string(b)))
	}
	return out
}

func walk(key string, v any) any {
	k := strings.ToLower(key)
	switch t := v.(type) {
	case map[string]any:
		for mk, mv := range t {
			t[mk] = walk(mk, mv)
		}
		return t
	case []any:
		for i := range t {
			t[i] = walk(key, t[i])
		}
		return t
	case string:
		switch {
		case secretFields[k]:
			if t == "" {
				return t
			}
			return Mask
		case panFields[k]:
			return PAN(t)
		}
		return Text(t)
	case json.Number:
		if secretFields[k] {
			return Mask
		}
		if panFields[k] || len(t.String()) >= 13 && !strings.ContainsAny(t.String(), ".eE-") {
			return PAN(t.String())
		}
		return t
	}
	return v
}

// sensitiveHeaders are replaced whole.
var sensitiveHeaders = map[string]bool{
	"Authorization":       true,
	"X-Sandbox-Admin-Key": true,
	"Cookie":              true,
	"Set-Cookie":          true,
	"X-Api-Key":           true,
}

// Header returns a copy of h with credentials masked. An Authorization header
// keeps its scheme: "Bearer ***".
func Header(h http.Header) http.Header {
	out := make(http.Header, len(h))
	for k, vs := range h {
		ck := http.CanonicalHeaderKey(k)
		cp := make([]string, len(vs))
		for i, v := range vs {
			switch {
			case ck == "Authorization":
				if scheme, _, ok := strings.Cut(v, " "); ok {
					cp[i] = scheme + " " + Mask
				} else {
					cp[i] = Mask
				}
			case sensitiveHeaders[ck]:
				cp[i] = Mask
			default:
				cp[i] = Text(v)
			}
		}
		out[k] = cp
	}
	return out
}

// ID shortens an identifier for load-test results, where ids are not secret
// but should not make results files a card inventory: "crd_8f3a…41c2".
func ID(s string) string {
	prefix := ""
	if i := strings.IndexByte(s, '_'); i >= 0 && i < 8 {
		prefix, s = s[:i+1], s[i+1:]
	}
	if len(s) <= 8 {
		return prefix + Mask
	}
	return prefix + s[:4] + "…" + s[len(s)-4:]
}
