// Package redact masks secrets and card data before anything reaches a log,
// a console, a report or a results file, and escapes target bytes before a
// terminal or a text report (escape.go).
//
// Secrets are found three ways: by value (the registry of configured secret
// keys, admin key, webhook secret and URL passwords, in every encoding:
// registry.go), by position (JSON members named like secrets, at any
// nesting: fields.go) and by pattern (PANs, JWTs, sk_/whsec_/sbx_admin_
// keys, Authorization values of any scheme, URL userinfo passwords).
//
// PANs keep their first 6 and last 4 digits, the form the API itself uses for
// maskedPan; voucher codes keep their last 4; every other secret is replaced
// whole, keeping only a recognisable prefix or scheme ("Bearer ***") so a
// reader can tell which kind of value was there.
package redact

import (
	"bytes"
	"encoding/base64"
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
	// A JWT, whole or cut: base64url starting with eyJ ({"), up to three
	// dot-separated segments.
	jwtRe = regexp.MustCompile(`eyJ[A-Za-z0-9_-]{6,}(?:\.[A-Za-z0-9_-]*){0,2}`)
	// Secret keys of the API (sk_test_, sk_live_), webhook secrets and admin keys.
	keyRe = regexp.MustCompile(`\b(sk_(?:test|live)_|whsec_|sbx_admin_)[A-Za-z0-9_]+`)
	// "<scheme> <credential>" in free text. Only values shaped like a
	// credential are masked, so prose such as "bearer token." survives.
	schemeRe = regexp.MustCompile(`(?i)\b(bearer|basic|token|apikey)(\s+)([A-Za-z0-9._~+/=:-]+)`)
	// An Authorization header (any name ending in Authorization) rendered as
	// text, as JSON or as a Go map: the value up to a quote, bracket,
	// backslash (an escaped line break) or end of line, whatever its scheme.
	authRe = regexp.MustCompile(`(?i)(authorization["']?\s*[:=]\s*\[?["']?)([^"'\r\n\]\\]*)`)
	// URL userinfo with a password: scheme://user:password@host.
	userinfoRe = regexp.MustCompile(`(?i)\b([a-z][a-z0-9+.-]*://)([^\s/?#@:"'<>\\]*):([^\s/?#@"'<>\\]+)@`)
	// A voucher's code in JSON met as text (cut, invalid or quoted).
	voucherCodeRe = regexp.MustCompile(`(?i)("vouchers?"\s*:\s*\[?\s*\{[^{}]*?"code"\s*:\s*")((?:[^"\\]|\\.)*)"`)
	// A JSON member met as text whose name may be a secret's (classify
	// decides): cvv, pin, secretKey, accessToken, voucherCode...
	secretFieldRe = regexp.MustCompile(`"([A-Za-z0-9_-]*(?i:pin|cvv|cvv2|cvc|cvc2|cvn|csc|otp|password|passwd|passphrase|secret|key|token|tokens|cookie|authorization|voucher_?code|gift_?code|gift_?card_?code|redemption_?code|claim_?code|activation_?code|security_?code|security_?number|verification_?value|verification_?code|verification_?number))"(\s*:\s*)("(?:[^"\\]|\\.)*"|-?[0-9][0-9.eE+-]*)`)
)

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

// Text masks every secret found in free text: registered values in every
// encoding, URL passwords, Authorization values of any scheme, JWTs, secret
// keys, PANs, JSON members and form pairs named like secrets (cvv, pin,
// secretKey, voucher code...), verification values named in prose or
// standing near a card number (card.go), and all of these inside base64 or
// hex text, twice deep (encoded.go).
func Text(s string) string { return textDepth(s, maxNesting) }

// textDepth is Text looking into encoded runs depth levels deep.
func textDepth(s string, depth int) string {
	if s == "" {
		return s
	}
	s = replaceRegistered(s)
	// Each pattern runs only when its trigger is present: Go's regexp is
	// slow, and most text holds no secret at all.
	lower := strings.ToLower(s)
	has := func(words ...string) bool {
		for _, w := range words {
			if strings.Contains(lower, w) {
				return true
			}
		}
		return false
	}
	if strings.Contains(s, "://") && strings.Contains(s, "@") {
		s = userinfoRe.ReplaceAllString(s, "${1}${2}:"+Mask+"@")
	}
	if has(fieldTriggers...) {
		s = replaceSubmatch(secretFieldRe, s, maskMemberText)
	}
	if has(`"voucher`) {
		s = replaceSubmatch(voucherCodeRe, s, func(sub []string) string {
			learn(sub[2])
			return sub[1] + KeepLast4(sub[2]) + `"`
		})
	}
	if has("authorization") {
		s = replaceSubmatch(authRe, s, func(sub []string) string {
			return sub[1] + Authorization(sub[2])
		})
	}
	if has("bearer", "basic", "token", "apikey") {
		s = replaceSubmatch(schemeRe, s, func(sub []string) string {
			if !credentialLike(sub[3]) && !(strings.EqualFold(sub[1], "basic") && basicPair(sub[3])) {
				return sub[0]
			}
			return sub[1] + sub[2] + Mask
		})
	}
	if strings.Contains(s, "eyJ") {
		s = jwtRe.ReplaceAllString(s, "eyJ"+Mask)
	}
	if has("sk_", "whsec_", "sbx_admin_") {
		s = keyRe.ReplaceAllString(s, "${1}"+Mask)
	}
	if has(cvvTriggers...) {
		s = maskCVVWords(s)
	}
	if hasDigitRun(s, 13) {
		s = maskPANs(maskNearPAN(s, panSpans(s)))
	}
	if strings.IndexByte(s, '=') >= 0 && has(formTriggers...) {
		s = maskFormPairs(s)
	}
	return maskEncoded(s, depth)
}

// fieldTriggers: a member named like a secret ends in one of these, then ".
var fieldTriggers = []string{
	`pin"`, `cvv"`, `cvv2"`, `cvc"`, `cvc2"`, `otp"`, `password"`, `passwd"`, `passphrase"`,
	`secret"`, `key"`, `token"`, `tokens"`, `cookie"`, `authorization"`,
	`vouchercode"`, `voucher_code"`, `giftcode"`, `gift_code"`, `giftcardcode"`, `gift_card_code"`,
	`redemptioncode"`, `redemption_code"`, `claimcode"`, `claim_code"`, `activationcode"`,
	`activation_code"`, `securitycode"`, `security_code"`, `cvn"`, `csc"`, `securitynumber"`, `security_number"`,
	`verificationvalue"`, `verification_value"`, `verificationcode"`, `verification_code"`,
	`verificationnumber"`, `verification_number"`,
}

// hasDigitRun reports whether s holds n digits in a row, single spaces or
// dashes between them allowed (the shape of a card number).
func hasDigitRun(s string, n int) bool {
	run := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			run++
			if run >= n {
				return true
			}
		case (c == ' ' || c == '-') && run > 0 && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9':
		default:
			run = 0
		}
	}
	return false
}

// replaceSubmatch replaces every match of re in s by f(submatches), in one
// pass (ReplaceAllStringFunc would match each twice).
func replaceSubmatch(re *regexp.Regexp, s string, f func(sub []string) string) string {
	idx := re.FindAllStringSubmatchIndex(s, -1)
	if idx == nil {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	last := 0
	for _, m := range idx {
		sub := make([]string, len(m)/2)
		for i := range sub {
			if m[2*i] >= 0 {
				sub[i] = s[m[2*i]:m[2*i+1]]
			}
		}
		b.WriteString(s[last:m[0]])
		b.WriteString(f(sub))
		last = m[1]
	}
	b.WriteString(s[last:])
	return b.String()
}

// maskMemberText masks one `"name": value` of JSON met in text.
func maskMemberText(sub []string) string {
	m, name, sep, val := sub[0], sub[1], sub[2], sub[3]
	raw := strings.Trim(val, `"`)
	var masked string
	switch classify("", name) {
	case secretMember:
		learn(raw)
		masked = Mask
	case authMember:
		masked = Authorization(raw)
	case tailMember:
		learn(raw)
		masked = KeepLast4(raw)
	default:
		return m
	}
	if raw == "" || raw == masked {
		return m
	}
	return `"` + name + `"` + sep + `"` + masked + `"`
}

// basicPair reports whether v is base64 of "user:password".
func basicPair(v string) bool {
	for _, e := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if b, err := e.DecodeString(v); err == nil && bytes.IndexByte(b, ':') > 0 {
			return true
		}
	}
	return false
}

// credentialLike reports whether a word after "Bearer" looks like a token
// rather than prose: 6+ characters with a digit or an inner dot, or 20+.
func credentialLike(v string) bool {
	if v == Mask || jwtRe.MatchString(v) || keyRe.MatchString(v) {
		return false // already masked, or left to the JWT and key patterns (they keep a hint)
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

// JSON masks a JSON document structurally (members named like secrets at
// any nesting, PAN members, voucher codes, Authorization members, and
// secrets inside any string), falling back to Text when it is not JSON.
// The output is compact JSON. Values met in secret members are learned, so
// they are masked later wherever they appear in free text.
func JSON(b []byte) []byte {
	v, ok := decodeDoc(b)
	if !ok {
		return []byte(Text(string(b)))
	}
	prelearn("", "", v) // a secret restated elsewhere in the document, encoded or not, is known before the walk meets it
	out, err := json.Marshal(walk("", "", v))
	if err != nil {
		return []byte(Text(string(b)))
	}
	return out
}

// LearnJSON learns the values of a JSON document's secret members as JSON
// does, without masking it: a caller that masks the document only when it
// is shown (or never) still has those values masked wherever they appear
// in free text from now on. Anything but a JSON object or array is ignored.
func LearnJSON(b []byte) {
	if v, ok := decodeDoc(b); ok {
		prelearn("", "", v)
	}
}

// decodeDoc decodes one JSON object or array, numbers kept as written.
func decodeDoc(b []byte) (any, bool) {
	trimmed := bytes.TrimSpace(b)
	if len(trimmed) == 0 || (trimmed[0] != '{' && trimmed[0] != '[') {
		return nil, false
	}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil || dec.More() {
		return nil, false
	}
	return v, true
}

// Value masks a decoded JSON value (maps, slices, strings, json.Number)
// in place, as JSON does.
func Value(v any) any {
	prelearn("", "", v)
	return walk("", "", v)
}

// prelearn learns the values of a document's secret members before any of
// it is masked.
func prelearn(parent, key string, v any) {
	switch t := v.(type) {
	case map[string]any:
		for mk, mv := range t {
			prelearn(key, mk, mv)
		}
	case []any:
		for _, x := range t {
			prelearn(parent, key, x)
		}
	case string:
		if k := classify(parent, key); k == secretMember || k == tailMember {
			learn(t)
		}
	}
}

func walk(parent, key string, v any) any {
	kind := classify(parent, key)
	switch t := v.(type) {
	case map[string]any:
		if kind == secretMember {
			return Mask // {"secret": {...}}: nothing inside is shown
		}
		maskCVVLike(t)
		renamed := map[string]string{}
		for mk, mv := range t {
			t[mk] = walk(key, mk, mv)
			if sk := Text(mk); sk != mk {
				renamed[mk] = sk
			}
		}
		for from, to := range renamed {
			t[to] = t[from]
			delete(t, from)
		}
		return t
	case []any:
		for i := range t {
			t[i] = walk(parent, key, t[i])
		}
		return t
	case string:
		return maskString(kind, t)
	case json.Number:
		switch {
		case kind == secretMember || kind == authMember || kind == tailMember:
			return Mask
		case kind == panMember || len(t.String()) >= 13 && len(t.String()) <= 19 && !strings.ContainsAny(t.String(), ".eE-"):
			return PAN(t.String())
		}
		return t
	}
	return v
}

func maskString(kind memberKind, s string) string {
	if s == "" || s == Mask {
		return s
	}
	switch kind {
	case secretMember:
		learn(s)
		return Mask
	case authMember:
		return Authorization(s)
	case tailMember:
		learn(s)
		return KeepLast4(s)
	case panMember:
		return PAN(s)
	}
	return Text(s)
}

// Header returns a copy of h with credentials masked: any header whose name
// ends in Authorization keeps its scheme ("Basic ***"), cookies and headers
// named like a key, secret, token or password are replaced whole, and every
// other value goes through Text.
func Header(h http.Header) http.Header {
	out := make(http.Header, len(h))
	for k, vs := range h {
		cp := make([]string, len(vs))
		for i, v := range vs {
			switch {
			case strings.HasSuffix(normName(k), "authorization"):
				cp[i] = Authorization(v)
			case sensitiveHeader(k):
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
