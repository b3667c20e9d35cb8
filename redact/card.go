package redact

import (
	"encoding/json"
	"regexp"
	"strings"
)

// Card verification values whatever their name. A CVV is three or four
// digits: by its shape alone it cannot be told from an amount or a year, so
// it is found by what surrounds it. In JSON, every member of an object that
// also holds a full card number whose value is three or four digits is a
// CVV-like value, whatever the member's name (cvv, card_verification_value,
// sc...), unless the name says it is part of a date (expiryYear). In free
// text, three or four digits after a word naming a verification value
// ("CVV 123", "security code: 1234", "card_verification_value=123") are
// masked, and so are those standing alone close after a card number.

// cvvShape reports whether v is three or four digits.
func cvvShape(v string) bool {
	if len(v) < 3 || len(v) > 4 {
		return false
	}
	for i := 0; i < len(v); i++ {
		if v[i] < '0' || v[i] > '9' {
			return false
		}
	}
	return true
}

// datePart reports whether a member name says its value is part of a date.
func datePart(name string) bool {
	n := normName(name)
	for _, w := range []string{"exp", "year", "month", "date", "time", "valid"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

// holdsCard reports whether a JSON object carries a full card number: a
// member named like one, or a string member shaped like one.
func holdsCard(m map[string]any) bool {
	for k, v := range m {
		s, ok := v.(string)
		if !ok {
			if n, isNum := v.(json.Number); isNum {
				s = n.String()
			}
		}
		if s == "" || s == Mask {
			continue
		}
		if classify("", k) == panMember || panShape(s) {
			return true
		}
	}
	return false
}

// panShape reports whether s is a card number and nothing else: 13 to 19
// digits, single spaces or dashes between them allowed.
func panShape(s string) bool {
	d := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			d++
		case (c == ' ' || c == '-') && i > 0 && i+1 < len(s):
		default:
			return false
		}
	}
	return d >= 13 && d <= 19 && luhnish(s)
}

// maskCVVLike masks, in an object that holds a card number, every member
// whose value has a CVV's shape (see above). Call it before the members
// themselves are masked (the card number must still be recognisable).
func maskCVVLike(m map[string]any) {
	if !holdsCard(m) {
		return
	}
	for k, v := range m {
		var s string
		switch t := v.(type) {
		case string:
			s = t
		case json.Number:
			s = t.String()
		default:
			continue
		}
		if cvvShape(s) && !datePart(k) {
			m[k] = Mask
		}
	}
}

var (
	// A word naming a card verification value, then its value.
	cvvWordRe = regexp.MustCompile(`(?i)\b(cvv2?|cvc2?|cvn|csc|card[\s_-]*(?:verification|security)[\s_-]*(?:value|code|number)|security[\s_-]*(?:code|number)|verification[\s_-]*(?:value|code|number))\b([^0-9A-Za-z\n]{0,6}(?:(?:is|was|of)\s+)?[^0-9A-Za-z\n]{0,3})([0-9]{3,4})\b`)
	// Three or four digits standing alone (not part of a date, a time or a
	// number), or as a JSON member's value.
	lonelyDigitsRe = regexp.MustCompile(`(^|[^0-9A-Za-z/.:,-]|"\s*:\s*)([0-9]{3,4})($|[^0-9A-Za-z/.:-])`)
)

// A word naming a PIN or a one-time code, then its digits.
var pinWordRe = regexp.MustCompile(`(?i)\b(pin|pin[\s_-]*code|passcode|otp)\b([^0-9A-Za-z\n]{0,6}(?:(?:is|was|of)\s+)?[^0-9A-Za-z\n]{0,3})([0-9]{4,12})\b`)

// cvvTriggers gate cvvWordRe and pinWordRe (Go's regexp is slow; most text
// names none).
var cvvTriggers = []string{"cvv", "cvc", "cvn", "csc", "verification", "security", "pin", "passcode", "otp"}

// maskCVVWords masks the value after a word naming a verification value, a
// PIN or a one-time code ("CVV 123", "the PIN is 4821").
func maskCVVWords(s string) string {
	mask := func(sub []string) string { return sub[1] + sub[2] + Mask }
	return replaceSubmatch(pinWordRe, replaceSubmatch(cvvWordRe, s, mask), mask)
}

// nearPAN is how many characters after a card number a lone CVV-like
// number is masked.
const nearPAN = 40

// panSpans are the spans of the card numbers in s.
func panSpans(s string) [][2]int {
	var out [][2]int
	for _, m := range panRe.FindAllStringSubmatchIndex(s, -1) {
		if luhnish(s[m[4]:m[5]]) {
			out = append(out, [2]int{m[4], m[5]})
		}
	}
	return out
}

// maskNearPAN masks lone three- or four-digit numbers within nearPAN
// characters after each card number of s (its CVV restated in a sentence;
// an expiry written 12/29 is kept). spans are the card numbers' spans.
func maskNearPAN(s string, spans [][2]int) string {
	if len(spans) == 0 {
		return s
	}
	var b strings.Builder
	last := 0
	for _, sp := range spans {
		from, to := max(sp[1], last), min(len(s), sp[1]+nearPAN)
		if from >= to {
			continue
		}
		b.WriteString(s[last:from])
		b.WriteString(replaceSubmatch(lonelyDigitsRe, s[from:to], func(sub []string) string {
			return sub[1] + Mask + sub[3]
		}))
		last = to
	}
	b.WriteString(s[last:])
	return b.String()
}
