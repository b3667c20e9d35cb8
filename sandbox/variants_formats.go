package sandbox

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// Formats: the document names a standard (ISO 8601, JSON numbers, HTTP
// reason phrases, a media type) or shows one form by example; every form
// the standard allows under those words is a setting.
var (
	dTimestampForm = declareDimension("timestamp-form", []string{"OPEN-TIMESTAMP-FORM", "OPEN-TIMESTAMP-PRECISION"},
		"How timestamps are written: every ISO 8601 representation of a date and time.",
		quote("timestamp (ISO 8601)", "ISO 8601 UTC timestamp"),
		"timestamps-extended-millis-z", "ISO 8601 extended format, milliseconds, Z (JavaScript's toISOString): 2026-11-22T03:16:18.123Z.")
	vTsOffset = dTimestampForm.setting("timestamps-utc-offset", "Timestamps end in +00:00 instead of Z.",
		`"ISO 8601 UTC timestamp" (+00:00 is UTC in ISO 8601)`, "", true)
	vTsWholeSeconds = dTimestampForm.setting("timestamps-whole-seconds", "Timestamps carry no fraction of a second.",
		`"ISO 8601 UTC timestamp" (no precision stated)`, "", true)
	vTsMicros = dTimestampForm.setting("timestamps-microseconds", "Timestamps carry microseconds (six fraction digits).",
		`"ISO 8601 UTC timestamp" (no precision stated)`, "", true)
	vTsNanos = dTimestampForm.setting("timestamps-nanoseconds", "Timestamps carry nanoseconds (nine fraction digits).",
		`"ISO 8601 UTC timestamp" (no precision stated)`, "", true)
	vTsOffsetBasic = dTimestampForm.setting("timestamps-offset-hhmm", "Timestamps end in +0000 (PHP's DATE_ISO8601, Java's yyyy-MM-dd'T'HH:mm:ssZ).",
		`"ISO 8601 UTC timestamp" (±hhmm is an ISO 8601 zone designator; +0000 is UTC)`, "", true)
	vTsOffsetHours = dTimestampForm.setting("timestamps-offset-hh", "Timestamps end in +00 (the ISO 8601 hours-only offset).",
		`"ISO 8601 UTC timestamp" (±hh is an ISO 8601 zone designator)`, "", true)
	vTsComma = dTimestampForm.setting("timestamps-comma-fraction", "Fractions of a second follow a comma, the decimal sign ISO 8601 prefers: 03:16:18,123Z.",
		`"ISO 8601" (ISO 8601 allows a comma or a full stop as the decimal sign)`, "", true)
	vTsMinutes = dTimestampForm.setting("timestamps-minute-precision", "Timestamps stop at the minute (reduced precision): 2026-11-22T03:16Z.",
		`"ISO 8601" (a time of reduced precision is ISO 8601; no precision is stated)`, "", true)
	vTsBasic = dTimestampForm.setting("timestamps-basic-format", "Timestamps are in the ISO 8601 basic format: 20261122T031618.123Z.",
		`"ISO 8601" (the basic format is ISO 8601 as much as the extended one)`, "", true)
	vTsWeek = dTimestampForm.setting("timestamps-week-date", "Timestamps give the date as an ISO week date: 2026-W47-7T03:16:18.123Z.",
		`"ISO 8601" (week dates are ISO 8601 dates)`, "", true)
	vTsOrdinal = dTimestampForm.setting("timestamps-ordinal-date", "Timestamps give the date as an ordinal date: 2026-326T03:16:18.123Z.",
		`"ISO 8601" (ordinal dates are ISO 8601 dates)`, "", true)

	dEnvelopeZone = declareDimension("envelope-timestamp-zone", []string{"OPEN-TIMESTAMP-FORM"},
		"The zone of the envelopes' own timestamp (UTC is stated for resource timestamps only).",
		quote("timestamp (ISO 8601)", "ISO 8601 UTC timestamp"),
		"envelope-timestamp-utc", "Envelope timestamps are in UTC, like resource timestamps.")
	vEnvTSLocal = dEnvelopeZone.setting("envelope-timestamp-local-offset", "Envelope timestamps are in local time with an offset (+01:00); resource timestamps stay UTC.",
		`Envelopes: "timestamp (ISO 8601)" (UTC is stated for resource timestamps only)`, "", true)
	vEnvTSWest = dEnvelopeZone.setting("envelope-timestamp-negative-offset", "Envelope timestamps are in local time west of UTC (-05:00); resource timestamps stay UTC.",
		`Envelopes: "timestamp (ISO 8601)"`, "", true)
	vEnvTSNoZone = dEnvelopeZone.setting("envelope-timestamp-no-designator", "Envelope timestamps are local time without a zone designator (Python's datetime.utcnow().isoformat()); resource timestamps stay UTC.",
		`Envelopes: "timestamp (ISO 8601)" (ISO 8601 local time has no designator)`, "", true)

	dNumberForm = declareDimension("number-form", []string{"OPEN-JSON-NUMBER-FORM"},
		"How JSON numbers are written (a JSON number is a value, not a text).",
		quote("All bodies are JSON", "balanceAmount | number", "statusCode | number", "expiresIn (number of seconds, 900)"),
		"amounts-two-decimals", "Amounts with two decimals (5.00), integers without a fraction (400, 900).")
	vAmountsMinimal = dNumberForm.setting("amounts-minimal-decimals", "Amounts are rendered with the fewest decimals (5 instead of 5.00, 2.5 instead of 2.50).",
		`"balanceAmount | number" and "All bodies are JSON" (a JSON number has no fixed decimals)`, "", true)
	vNumbersPointZero = dNumberForm.setting("numbers-integers-with-fraction", "Integers carry a fraction: statusCode 400.0, expiresIn 900.0.",
		`"statusCode | number"; "expiresIn (number of seconds, 900)" (400.0 is the number 400)`, "", true)
	vNumbersExponent = dNumberForm.setting("numbers-exponent", "Every number is written with an exponent: statusCode 4e2, expiresIn 9e2, 25.50 as 2.55e1.",
		`"All bodies are JSON" (RFC 8259: 9e2 is the number 900)`, "", true)
	vNumbersExtraZeros = dNumberForm.setting("amounts-four-decimals", "Amounts carry four decimals (5.0000).",
		`"balanceAmount | number" (no precision stated)`, "", true)

	dReasonPhrase = declareDimension("reason-phrase", []string{"OPEN-REASON-PHRASE"},
		"How the error envelope spells the reason phrase.",
		quote("error | string | reason phrase, e.g. Bad Request, Unauthorized, Forbidden, Not Found"),
		"reason-phrases-go", "Go's http.StatusText (RFC 7231 spellings: 413 Request Entity Too Large, 422 Unprocessable Entity).")
	vReasonRFC9110 = dReasonPhrase.setting("reason-phrases-rfc9110", "Reason phrases as RFC 9110 spells them: 413 Content Too Large, 414 URI Too Long, 416 Range Not Satisfiable, 422 Unprocessable Content.",
		`"error | string | reason phrase" (RFC 9110 is the current HTTP standard)`, "", true)
	vReasonLower = dReasonPhrase.setting("reason-phrases-lower-case", "Reason phrases in lower case: bad request, not found.",
		`"reason phrase, e.g. Bad Request" (RFC 9110: a client should ignore the reason phrase; its case carries nothing)`, "", true)
	vReasonUpper = dReasonPhrase.setting("reason-phrases-upper-case", "Reason phrases in upper case: BAD REQUEST, NOT FOUND.",
		`"reason phrase, e.g. Bad Request" (RFC 9110: a client should ignore the reason phrase; its case carries nothing)`, "", true)
	vReasonSentence = dReasonPhrase.setting("reason-phrases-sentence-case", "Reason phrases in sentence case: Bad request, Not found, Too many requests.",
		`"reason phrase, e.g. Bad Request"`, "", true)

	dMaskedPan = declareDimension("masked-pan-form", []string{"OPEN-MASKED-PAN-FORM"},
		"How maskedPan masks the middle digits.",
		quote("masked card number (first 6 and last 4 digits visible)"),
		"masked-pan-six-stars", "maskedPan is 16 characters: 6 digits, 6 asterisks, 4 digits (411111******1234).")
	vMaskFour = dMaskedPan.setting("masked-pan-four-mask-chars", "maskedPan masks the middle with four characters: 411111****1234.",
		`Card: "masked card number (first 6 and last 4 digits visible)" (the number of mask characters is not stated)`, "", true)
	vMaskGrouped = dMaskedPan.setting("masked-pan-grouped-bullets", "maskedPan is grouped in fours with bullet mask characters: 4111 11•• •••• 1234.",
		`Card: "masked card number (first 6 and last 4 digits visible)"`, "", true)
	vMaskDashes = dMaskedPan.setting("masked-pan-grouped-dashes", "maskedPan is grouped in fours with dashes and X: 4111-11XX-XXXX-1234.",
		`Card: "masked card number (first 6 and last 4 digits visible)"`, "", true)

	dCvvForm = declareDimension("cvv-form", []string{"OPEN-CVV-FORM"},
		"How many digits the secure details' cvv has.",
		quote("cvv | string"),
		"cvv-three-digits", "cvv has three digits.")
	vCvvFour = dCvvForm.setting("cvv-four-digits", "Secure details carry a four-digit cvv.",
		`Secure card details: "cvv | string" (no length stated)`, "", true)

	dContentType = declareDimension("json-media-type", []string{"OPEN-JSON-MEDIA-TYPE"},
		"The media type answers are labelled with.",
		quote("All bodies are JSON"),
		"content-type-json-utf8", "Answers are labelled application/json; charset=utf-8.")
	vCTNoCharset = dContentType.setting("content-type-json-no-charset", "Answers are labelled application/json, without a charset.",
		`"All bodies are JSON" (RFC 8259: JSON is UTF-8; application/json has no charset parameter)`, "", true)
	vCTCharsetUpper = dContentType.setting("content-type-charset-upper-case", "Answers are labelled application/json;charset=UTF-8 (no space, upper case).",
		`"All bodies are JSON" (media type parameters are case-insensitive, the space optional)`, "", true)
	vCTProblem = dContentType.setting("content-type-problem-json-errors", "Error answers are labelled application/problem+json (RFC 9457), other answers application/json.",
		`"All bodies are JSON" (the +json suffix of RFC 6839 is JSON)`, "", true)
	vCTVendor = dContentType.setting("content-type-vendor-json", "Answers are labelled application/vnd.merchant.v1+json.",
		`"All bodies are JSON" (RFC 6839 +json)`, "", true)

	dEnvelopePath = declareDimension("envelope-path", []string{"OPEN-ENVELOPE-PATH-FORM"},
		"What the envelopes echo in path.",
		quote("path (string, request path)", "the path value is informational"),
		"envelope-path-request-path", "path is the request path, exactly (/v1/merchant/cards/crd_...).")
	vPathWithQuery = dEnvelopePath.setting("envelope-path-with-query", "Envelopes echo the request URL with its query string in path (/v1/merchant/cards?limit=1).",
		`Versioning: "the path value is informational"`, "", true)
	vPathAPIPrefix = dEnvelopePath.setting("envelope-path-api-prefix", "Envelopes echo a path that begins with /api/v1/merchant although the base is /v1/merchant.",
		`Versioning: "Some responses echo a path that begins with /api/v1/merchant and others a path that begins with /v1/merchant"`, "", true)
	vPathRelative = dEnvelopePath.setting("envelope-path-below-base", "Envelopes echo the path below the base, as a gateway that strips its prefix forwards it (/cards/config).",
		`Versioning: "the path value is informational"`, "", true)
	vPathTemplate = dEnvelopePath.setting("envelope-path-route-template", "Envelopes echo the route template (/v1/merchant/cards/:id).",
		`Versioning: "the path value is informational"`, "", true)

	dBasePath = declareDimension("base-path", []string{"OPEN-BASE-PATH"},
		"Where the merchant root is mounted.",
		quote("its path ends in /v1/merchant"),
		"base-path-v1-merchant", "The merchant root is /v1/merchant.")
	vBaseNested = dBasePath.setting("base-path-behind-prefix", "The merchant root is /payments/v1/merchant (a gateway prefix); envelopes echo that path.",
		`"{base_url}, the merchant root of version 1 of the service (its path ends in /v1/merchant)"`, "", false)
)

// nestedBasePath is the merchant root under base-path-behind-prefix.
const nestedBasePath = "/payments" + DefaultBasePath

// renderTS writes t in the timestamp form and zone the settings choose;
// envelope marks an envelope's own timestamp (its zone may differ).
func (s *Server) renderTS(t time.Time, envelope bool) string {
	v := &s.variants
	zone, named := time.UTC, false
	if envelope {
		switch {
		case v.on(vEnvTSLocal):
			zone, named = time.FixedZone("", 3600), true
		case v.on(vEnvTSWest):
			zone, named = time.FixedZone("", -5*3600), true
		}
	}
	t = t.In(zone)
	date, clock := t.Format("2006-01-02"), t.Format("15:04:05")
	switch {
	case v.on(vTsBasic):
		date, clock = t.Format("20060102"), t.Format("150405")
	case v.on(vTsWeek):
		y, w := t.ISOWeek()
		date = fmt.Sprintf("%04d-W%02d-%d", y, w, (int(t.Weekday())+6)%7+1)
	case v.on(vTsOrdinal):
		date = fmt.Sprintf("%04d-%03d", t.Year(), t.YearDay())
	}
	frac := t.Format(".000")
	switch {
	case v.on(vTsWholeSeconds):
		frac = ""
	case v.on(vTsMicros):
		frac = t.Format(".000000")
	case v.on(vTsNanos):
		frac = t.Format(".000000000")
	case v.on(vTsComma):
		frac = "," + frac[1:]
	case v.on(vTsMinutes):
		clock, frac = clock[:5], ""
	}
	out := date + "T" + clock + frac
	if envelope && v.on(vEnvTSNoZone) {
		return out
	}
	return out + s.zoneDesignator(t, named)
}

// zoneDesignator writes t's offset in the form the settings choose; UTC is
// Z unless a setting writes it as an offset.
func (s *Server) zoneDesignator(t time.Time, named bool) string {
	v := &s.variants
	_, off := t.Zone()
	if !named && !v.onAny(vTsOffset, vTsOffsetBasic, vTsOffsetHours) {
		return "Z"
	}
	sign := "+"
	if off < 0 {
		sign, off = "-", -off
	}
	hh, mm := off/3600, off%3600/60
	switch {
	case v.on(vTsOffsetHours) && mm == 0:
		return fmt.Sprintf("%s%02d", sign, hh)
	case v.onAny(vTsOffsetBasic, vTsBasic):
		return fmt.Sprintf("%s%02d%02d", sign, hh, mm)
	}
	return fmt.Sprintf("%s%02d:%02d", sign, hh, mm)
}

// timestampsRewritten reports whether a timestamp setting is on.
func (s *Server) timestampsRewritten() bool {
	return s.variants.onAny(dTimestampForm.settings[1:]...) || s.variants.onAny(dEnvelopeZone.settings[1:]...)
}

// rewriteNumber writes n in the number form the settings choose.
func (s *Server) rewriteNumber(n json.Number) json.Number {
	v := &s.variants
	str := n.String()
	switch {
	case strings.ContainsAny(str, "eE"):
		return n
	case v.on(vAmountsMinimal):
		return minimalNumber(n)
	case v.on(vNumbersPointZero) && !strings.Contains(str, "."):
		return json.Number(str + ".0")
	case v.on(vNumbersExtraZeros) && strings.Contains(str, "."):
		return json.Number(str + "00")
	case v.on(vNumbersExponent):
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

// reasonPhrase is the error envelope's reason phrase for code.
func (s *Server) reasonPhrase(code int) string {
	v := &s.variants
	p := http.StatusText(code)
	if v.on(vReasonRFC9110) {
		if alt, ok := rfc9110Phrases[code]; ok {
			p = alt
		}
	}
	switch {
	case v.on(vReasonLower):
		return strings.ToLower(p)
	case v.on(vReasonUpper):
		return strings.ToUpper(p)
	case v.on(vReasonSentence) && len(p) > 1:
		return p[:1] + strings.ToLower(p[1:])
	}
	return p
}

// rfc9110Phrases are the reason phrases RFC 9110 spells otherwise than Go.
var rfc9110Phrases = map[int]string{
	http.StatusRequestEntityTooLarge:        "Content Too Large",
	http.StatusRequestURITooLong:            "URI Too Long",
	http.StatusRequestedRangeNotSatisfiable: "Range Not Satisfiable",
	http.StatusUnprocessableEntity:          "Unprocessable Content",
}

// maskPan rewrites a 16-character maskedPan in the form the settings choose.
func (s *Server) maskPan(mp string) string {
	v := &s.variants
	if len(mp) < 10 {
		return mp
	}
	first6, last4 := mp[:6], mp[len(mp)-4:]
	switch {
	case v.on(vMaskFour):
		return first6 + "****" + last4
	case v.on(vMaskGrouped):
		return first6[:4] + " " + first6[4:] + "•• •••• " + last4
	case v.on(vMaskDashes):
		return first6[:4] + "-" + first6[4:] + "XX-XXXX-" + last4
	}
	return mp
}

// contentType is the media type of an answer under the settings; isErr
// marks an error answer.
func (s *Server) contentType(ct string, isErr bool) string {
	v := &s.variants
	if !strings.HasPrefix(ct, "application/json") {
		return ct
	}
	switch {
	case v.on(vCTNoCharset):
		return "application/json"
	case v.on(vCTCharsetUpper):
		return "application/json;charset=UTF-8"
	case v.on(vCTProblem) && isErr:
		return "application/problem+json"
	case v.on(vCTVendor):
		return "application/vnd.merchant.v1+json"
	}
	return ct
}

// echoPath is the path an envelope echoes for request r.
func (s *Server) echoPath(r *http.Request, p string) string {
	v := &s.variants
	switch {
	case v.on(vPathAPIPrefix) && strings.HasPrefix(p, "/v1/merchant"):
		p = "/api" + p
	case v.on(vPathRelative) && strings.HasPrefix(p, s.base):
		p = strings.TrimPrefix(p, s.base)
	case v.on(vPathTemplate):
		p = routeTemplate(s.base, p)
	}
	if v.on(vPathWithQuery) && r.URL.RawQuery != "" {
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
