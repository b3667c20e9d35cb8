package redact

import "strings"

// What a JSON member (or header) name says about its value. Names are
// compared case-insensitively, with '_' and '-' ignored, at any nesting.
type memberKind int

const (
	plainMember  memberKind = iota
	secretMember            // masked whole: cvv, pin, password, secretKey, voucherPin...
	panMember               // a full card number: first 6 / last 4 kept
	tailMember              // a voucher code: last 4 kept
	authMember              // an Authorization value: scheme kept
)

var (
	secretNames = map[string]bool{
		"cvv": true, "cvc": true, "cvv2": true, "cvc2": true, "pin": true, "otp": true,
		"secret": true, "password": true, "passwd": true, "passphrase": true,
		"token": true, "tokens": true, "secretkey": true, "adminkey": true, "apikey": true,
	}
	// secretSuffixes: voucherPin, securityCode, card_verification_value,
	// webhookSecret, accessToken...
	secretSuffixes = []string{
		"pin", "cvv", "cvc", "cvn", "csc", "securitycode", "securitynumber",
		"verificationvalue", "verificationcode", "verificationnumber", "password", "passwd", "passphrase",
		"secret", "secretkey", "token", "apikey", "adminkey", "privatekey", "accesskey", "cookie",
	}
	panNames  = map[string]bool{"cardnumber": true, "pan": true, "primaryaccountnumber": true}
	tailNames = map[string]bool{
		"vouchercode": true, "giftcode": true, "giftcardcode": true,
		"redemptioncode": true, "claimcode": true, "activationcode": true,
	}
)

// nameSeparators drops the separators of a member name. A Replacer builds
// its tables on first use: one shared value builds them once (safe for
// concurrent use), where one per call rebuilt them for every member name.
var nameSeparators = strings.NewReplacer("_", "", "-", "")

func normName(s string) string {
	return nameSeparators.Replace(strings.ToLower(s))
}

// classify says how the value of member name (inside member parent) is masked.
func classify(parent, name string) memberKind {
	n := normName(name)
	switch {
	case n == "":
		return plainMember
	case strings.HasSuffix(n, "authorization"):
		return authMember
	case panNames[n]:
		return panMember
	case tailNames[n] || n == "code" && strings.HasPrefix(normName(parent), "voucher"):
		return tailMember
	case secretNames[n]:
		return secretMember
	}
	for _, s := range secretSuffixes {
		if strings.HasSuffix(n, s) {
			return secretMember
		}
	}
	return plainMember
}

// SecretField reports whether a JSON member of this name (any case, any
// nesting) holds a secret whatever its value looks like: cvv, pin,
// voucherPin, securityCode, password, secretKey, accessToken, Authorization...
func SecretField(name string) bool {
	k := classify("", name)
	return k == secretMember || k == authMember
}

// PANField reports whether a JSON member of this name holds a full card
// number (cardNumber, pan).
func PANField(name string) bool { return classify("", name) == panMember }

// KeepLast4 masks a voucher code but its last 4 characters ("***WXYZ");
// codes of 8 characters or fewer are masked whole.
func KeepLast4(s string) string {
	if strings.HasPrefix(s, Mask) {
		return s // already masked
	}
	r := []rune(s)
	if len(r) <= 8 {
		return Mask
	}
	return Mask + string(r[len(r)-4:])
}

// Authorization masks a credential but keeps its scheme: "Basic ***",
// "Bearer ***", "***" when there is no scheme. Shell placeholders
// ("Bearer $TOKEN", "<token>") are kept as they are.
func Authorization(v string) string {
	t := strings.TrimSpace(v)
	if t == "" || placeholder(t) {
		return v
	}
	scheme, rest, ok := strings.Cut(t, " ")
	if !ok || !schemeWord(scheme) {
		return Mask
	}
	if rest = strings.TrimSpace(rest); placeholder(rest) || rest == Mask {
		return scheme + " " + rest
	}
	return scheme + " " + Mask
}

func placeholder(s string) bool {
	return strings.HasPrefix(s, "$") || strings.HasPrefix(s, "<") || s == Mask
}

func schemeWord(s string) bool {
	if s == "" || len(s) > 20 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '-') {
			return false
		}
	}
	return true
}

// sensitiveHeader reports whether a header's value is a credential: any
// *Authorization* (scheme kept), cookies, and names carrying a key, secret,
// token or password (X-Sandbox-Admin-Key, X-Api-Key...). Idempotency-Key is
// an identifier, not a credential.
func sensitiveHeader(name string) bool {
	n := normName(name)
	if n == "idempotencykey" {
		return false
	}
	for _, s := range []string{"cookie", "secret", "token", "password", "passwd", "apikey", "adminkey", "accesskey", "privatekey"} {
		if strings.Contains(n, s) {
			return true
		}
	}
	return false
}
