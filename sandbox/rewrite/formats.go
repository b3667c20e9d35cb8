package rewrite

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/merchant-harness/mph/sandbox/variant"
)

// echoPath is the path an envelope echoes for request r.
func (s *Rewriter) echoPath(r *http.Request, p string) string {
	v := &s.variants
	switch {
	case v.On(variant.PathAPIPrefix) && strings.HasPrefix(p, "/v1/merchant"):
		p = "/api" + p
	case v.On(variant.PathRelative) && strings.HasPrefix(p, s.base):
		p = strings.TrimPrefix(p, s.base)
	case v.On(variant.PathTemplate):
		p = routeTemplate(s.base, p)
	}
	if v.On(variant.PathWithQuery) && r.URL.RawQuery != "" {
		p += "?" + r.URL.RawQuery
	}
	return p
}

// routeTemplate replaces the identifier segment of a card or gift path by
// :id (/v1/merchant/cards/crd_1/secure -> /v1/merchant/cards/:id/secure).
func routeTemplate(base, p string) string {
	rest, ok := strings.CutPrefix(p, base)
	if !ok {
		return p
	}
	segs := strings.Split(rest, "/")
	switch {
	case len(segs) >= 3 && segs[1] == "cards" && segs[2] != "config" && segs[2] != "customers":
		segs[2] = ":id"
	case len(segs) >= 4 && segs[1] == "gift-cards" && (segs[2] == "verify" || segs[2] == "transactions"):
		segs[3] = ":reference"
	}
	return base + strings.Join(segs, "/")
}

// reasonPhrase is the error envelope's reason phrase for code.
func (s *Rewriter) reasonPhrase(code int) string {
	v := &s.variants
	p := http.StatusText(code)
	if v.On(variant.ReasonRFC9110) {
		if alt, ok := rfc9110Phrases[code]; ok {
			p = alt
		}
	}
	switch {
	case v.On(variant.ReasonLower):
		return strings.ToLower(p)
	case v.On(variant.ReasonUpper):
		return strings.ToUpper(p)
	case v.On(variant.ReasonSentence) && len(p) > 1:
		return p[:1] + strings.ToLower(p[1:])
	}
	return p
}

// rewriteNumber writes n in the number form the settings choose.
func (s *Rewriter) rewriteNumber(n json.Number) json.Number {
	v := &s.variants
	str := n.String()
	switch {
	case strings.ContainsAny(str, "eE"):
		return n
	case v.On(variant.AmountsMinimal):
		return minimalNumber(n)
	case v.On(variant.NumbersPointZero) && !strings.Contains(str, "."):
		return json.Number(str + ".0")
	case v.On(variant.NumbersExtraZeros) && strings.Contains(str, "."):
		return json.Number(str + "00")
	case v.On(variant.NumbersExponent):
		return exponentNumber(str)
	}
	return n
}

// minimalNumber drops trailing zeros of a decimal: 5.00 -> 5, 2.50 -> 2.5.
func minimalNumber(n json.Number) json.Number {
	s := n.String()
	if !strings.Contains(s, ".") || strings.ContainsAny(s, "eE") {
		return n
	}
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	return json.Number(s)
}

// exponentNumber writes a plain decimal with an exponent and one digit
// before the point, exactly: 400 -> 4e2, 25.50 -> 2.55e1, 0.05 -> 5e-2.
func exponentNumber(s string) json.Number {
	sign := ""
	if strings.HasPrefix(s, "-") {
		sign, s = "-", s[1:]
	}
	intPart, frac, _ := strings.Cut(s, ".")
	digits := strings.TrimLeft(intPart+frac, "0")
	if digits == "" {
		return json.Number(sign + "0e0")
	}
	// The value is 0.<all digits> * 10^len(intPart); leading zeros of the
	// digits lower the exponent.
	exp := len(intPart) - (len(intPart+frac) - len(digits)) - 1
	digits = strings.TrimRight(digits, "0")
	m := digits[:1]
	if len(digits) > 1 {
		m += "." + digits[1:]
	}
	return json.Number(fmt.Sprintf("%s%se%d", sign, m, exp))
}

// timestampsRewritten reports whether a timestamp setting is on.
func (s *Rewriter) timestampsRewritten() bool {
	return s.variants.Varies(variant.TimestampForm) || s.variants.Varies(variant.EnvelopeZone)
}

// maskPan rewrites a 16-character maskedPan in the form the settings choose.
func (s *Rewriter) maskPan(mp string) string {
	v := &s.variants
	if len(mp) < 10 {
		return mp
	}
	first6, last4 := mp[:6], mp[len(mp)-4:]
	switch {
	case v.On(variant.MaskFour):
		return first6 + "****" + last4
	case v.On(variant.MaskGrouped):
		return first6[:4] + " " + first6[4:] + "•• •••• " + last4
	case v.On(variant.MaskDashes):
		return first6[:4] + "-" + first6[4:] + "XX-XXXX-" + last4
	}
	return mp
}

// renderTS writes t in the timestamp form and zone the settings choose;
// envelope marks an envelope's own timestamp (its zone may differ).
func (s *Rewriter) renderTS(t time.Time, envelope bool) string {
	v := &s.variants
	zone, named := time.UTC, false
	if envelope {
		switch {
		case v.On(variant.EnvTSLocal):
			zone, named = time.FixedZone("", 3600), true
		case v.On(variant.EnvTSWest):
			zone, named = time.FixedZone("", -5*3600), true
		}
	}
	t = t.In(zone)
	date, clock := t.Format("2006-01-02"), t.Format("15:04:05")
	switch {
	case v.On(variant.TsBasic):
		date, clock = t.Format("20060102"), t.Format("150405")
	case v.On(variant.TsWeek):
		y, w := t.ISOWeek()
		date = fmt.Sprintf("%04d-W%02d-%d", y, w, (int(t.Weekday())+6)%7+1)
	case v.On(variant.TsOrdinal):
		date = fmt.Sprintf("%04d-%03d", t.Year(), t.YearDay())
	}
	frac := t.Format(".000")
	switch {
	case v.On(variant.TsWholeSeconds):
		frac = ""
	case v.On(variant.TsMicros):
		frac = t.Format(".000000")
	case v.On(variant.TsNanos):
		frac = t.Format(".000000000")
	case v.On(variant.TsComma):
		frac = "," + frac[1:]
	case v.On(variant.TsMinutes):
		clock, frac = clock[:5], ""
	}
	out := date + "T" + clock + frac
	if envelope && v.On(variant.EnvTSNoZone) {
		return out
	}
	return out + s.zoneDesignator(t, named)
}

// zoneDesignator writes t's offset in the form the settings choose; UTC is
// Z unless a setting writes it as an offset.
func (s *Rewriter) zoneDesignator(t time.Time, named bool) string {
	v := &s.variants
	_, off := t.Zone()
	if !named && !v.OnAny(variant.TsOffset, variant.TsOffsetBasic, variant.TsOffsetHours) {
		return "Z"
	}
	sign := "+"
	if off < 0 {
		sign, off = "-", -off
	}
	hh, mm := off/3600, off%3600/60
	switch {
	case v.On(variant.TsOffsetHours) && mm == 0:
		return fmt.Sprintf("%s%02d", sign, hh)
	case v.OnAny(variant.TsOffsetBasic, variant.TsBasic):
		return fmt.Sprintf("%s%02d%02d", sign, hh, mm)
	}
	return fmt.Sprintf("%s%02d:%02d", sign, hh, mm)
}

// contentType is the media type of an answer under the settings; isErr
// marks an error answer.
func (s *Rewriter) contentType(ct string, isErr bool) string {
	v := &s.variants
	if !strings.HasPrefix(ct, "application/json") {
		return ct
	}
	switch {
	case v.On(variant.CTNoCharset):
		return "application/json"
	case v.On(variant.CTCharsetUpper):
		return "application/json;charset=UTF-8"
	case v.On(variant.CTProblem) && isErr:
		return "application/problem+json"
	case v.On(variant.CTVendor):
		return "application/vnd.merchant.v1+json"
	}
	return ct
}

// rfc9110Phrases are the reason phrases RFC 9110 spells otherwise than Go.
var rfc9110Phrases = map[int]string{
	http.StatusRequestEntityTooLarge:        "Content Too Large",
	http.StatusRequestURITooLong:            "URI Too Long",
	http.StatusRequestedRangeNotSatisfiable: "Range Not Satisfiable",
	http.StatusUnprocessableEntity:          "Unprocessable Content",
}
