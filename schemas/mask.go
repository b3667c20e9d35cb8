package schemas

import (
	"encoding/json"
	"github.com/merchant-harness/mph/redact"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Masking of values and messages in a ValidationError. A validation report
// ends up in test output, JUnit and JSON reports: it must never carry a full
// PAN, a CVV, a PIN, a token or a secret key.

const (
	mask        = redact.Mask
	maxValueLen = 120 // bytes of a rendered Value before truncation
)

// 13 to 19 digits, optionally separated by single spaces or dashes.
var digitRunRe = regexp.MustCompile(`[0-9](?:[ -]?[0-9]){12,18}`)

// isSensitive reports whether the member key (under parent) holds a secret,
// by the redact package's lists. A gift voucher's code is a bearer
// credential too.
func isSensitive(parent, key string) bool {
	return redact.SecretField(key) || redact.PANField(key) ||
		(strings.EqualFold(key, "code") && strings.EqualFold(parent, "voucher"))
}

// maskPAN keeps the first 6 and last 4 digits of a card number:
// "4111 1111 1111 1234" becomes "411111[6 digits masked]1234". The marker
// is deliberately unlike a maskedPan, so that a report about a maskedPan
// that shows every digit does not look like a valid maskedPan.
func maskPAN(s string) string {
	d := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] >= '0' && s[i] <= '9' {
			d = append(d, s[i])
		}
	}
	if len(d) < 11 {
		return mask
	}
	return string(d[:6]) + "[" + strconv.Itoa(len(d)-10) + " digits masked]" + string(d[len(d)-4:])
}

// panLike reports whether s is a card number: only digits, spaces and
// dashes, with 13 to 19 digits.
func panLike(s string) bool {
	n := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			n++
		case c == ' ' || c == '-':
		default:
			return false
		}
	}
	return n >= 13 && n <= 19
}

// maskText masks every PAN, JWT, secret key and bearer credential in free
// text. PANs get this package's own marker first (see maskPAN); the rest is
// the redact package's.
func maskText(s string) string {
	return redact.Text(digitRunRe.ReplaceAllStringFunc(s, maskPAN))
}

// maskSecret masks the value of a sensitive member.
func maskSecret(v any) any {
	switch x := v.(type) {
	case string:
		if panLike(x) {
			return maskPAN(x)
		}
	case json.Number:
		if panLike(x.String()) {
			return maskPAN(x.String())
		}
	case nil, bool:
		return v // null/true/false reveal nothing
	}
	return mask
}

// maskValue returns a copy of an instance value with every secret masked;
// key and parent name the member holding v ("" for array items and the root).
func maskValue(v any, parent, key string) any {
	if isSensitive(parent, key) {
		return maskSecret(v)
	}
	switch x := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = maskValue(e, key, k)
		}
		return m
	case []any:
		a := make([]any, len(x))
		for i, e := range x {
			a[i] = maskValue(e, parent, key) // items inherit their array's name
		}
		return a
	case string:
		return maskText(x)
	case json.Number:
		if panLike(x.String()) {
			return maskPAN(x.String())
		}
	}
	return v
}

// renderValue renders an instance value as masked, truncated JSON.
func renderValue(v any, parent, key string) string {
	b, err := json.Marshal(maskValue(v, parent, key))
	if err != nil {
		return mask
	}
	return truncate(string(b), maxValueLen)
}

// truncate cuts s to at most n bytes on a rune boundary, marking the cut.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
