package variant

// Formats: the document names a standard (ISO 8601, JSON numbers, HTTP
// reason phrases, a media type) or shows one form by example; every form
// the standard allows under those words is a setting.
var (
	TimestampForm = declareDimension("timestamp-form", []string{"OPEN-TIMESTAMP-FORM", "OPEN-TIMESTAMP-PRECISION"},
		"How timestamps are written: every ISO 8601 representation of a date and time.",
		quote("timestamp (ISO 8601)", "ISO 8601 UTC timestamp"),
		"timestamps-extended-millis-z", "ISO 8601 extended format, milliseconds, Z (JavaScript's toISOString): 2026-11-22T03:16:18.123Z.")
	TsOffset = TimestampForm.setting("timestamps-utc-offset", "Timestamps end in +00:00 instead of Z.",
		`"ISO 8601 UTC timestamp" (+00:00 is UTC in ISO 8601)`, "", true)
	TsWholeSeconds = TimestampForm.setting("timestamps-whole-seconds", "Timestamps carry no fraction of a second.",
		`"ISO 8601 UTC timestamp" (no precision stated)`, "", true)
	TsMicros = TimestampForm.setting("timestamps-microseconds", "Timestamps carry microseconds (six fraction digits).",
		`"ISO 8601 UTC timestamp" (no precision stated)`, "", true)
	TsNanos = TimestampForm.setting("timestamps-nanoseconds", "Timestamps carry nanoseconds (nine fraction digits).",
		`"ISO 8601 UTC timestamp" (no precision stated)`, "", true)
	TsOffsetBasic = TimestampForm.setting("timestamps-offset-hhmm", "Timestamps end in +0000 (PHP's DATE_ISO8601, Java's yyyy-MM-dd'T'HH:mm:ssZ).",
		`"ISO 8601 UTC timestamp" (±hhmm is an ISO 8601 zone designator; +0000 is UTC)`, "", true)
	TsOffsetHours = TimestampForm.setting("timestamps-offset-hh", "Timestamps end in +00 (the ISO 8601 hours-only offset).",
		`"ISO 8601 UTC timestamp" (±hh is an ISO 8601 zone designator)`, "", true)
	TsComma = TimestampForm.setting("timestamps-comma-fraction", "Fractions of a second follow a comma, the decimal sign ISO 8601 prefers: 03:16:18,123Z.",
		`"ISO 8601" (ISO 8601 allows a comma or a full stop as the decimal sign)`, "", true)
	TsMinutes = TimestampForm.setting("timestamps-minute-precision", "Timestamps stop at the minute (reduced precision): 2026-11-22T03:16Z.",
		`"ISO 8601" (a time of reduced precision is ISO 8601; no precision is stated)`, "", true)
	TsBasic = TimestampForm.setting("timestamps-basic-format", "Timestamps are in the ISO 8601 basic format: 20261122T031618.123Z.",
		`"ISO 8601" (the basic format is ISO 8601 as much as the extended one)`, "", true)
	TsWeek = TimestampForm.setting("timestamps-week-date", "Timestamps give the date as an ISO week date: 2026-W47-7T03:16:18.123Z.",
		`"ISO 8601" (week dates are ISO 8601 dates)`, "", true)
	TsOrdinal = TimestampForm.setting("timestamps-ordinal-date", "Timestamps give the date as an ordinal date: 2026-326T03:16:18.123Z.",
		`"ISO 8601" (ordinal dates are ISO 8601 dates)`, "", true)

	EnvelopeZone = declareDimension("envelope-timestamp-zone", []string{"OPEN-TIMESTAMP-FORM"},
		"The zone of the envelopes' own timestamp (UTC is stated for resource timestamps only).",
		quote("timestamp (ISO 8601)", "ISO 8601 UTC timestamp"),
		"envelope-timestamp-utc", "Envelope timestamps are in UTC, like resource timestamps.")
	EnvTSLocal = EnvelopeZone.setting("envelope-timestamp-local-offset", "Envelope timestamps are in local time with an offset (+01:00); resource timestamps stay UTC.",
		`Envelopes: "timestamp (ISO 8601)" (UTC is stated for resource timestamps only)`, "", true)
	EnvTSWest = EnvelopeZone.setting("envelope-timestamp-negative-offset", "Envelope timestamps are in local time west of UTC (-05:00); resource timestamps stay UTC.",
		`Envelopes: "timestamp (ISO 8601)"`, "", true)
	EnvTSNoZone = EnvelopeZone.setting("envelope-timestamp-no-designator", "Envelope timestamps are local time without a zone designator (Python's datetime.utcnow().isoformat()); resource timestamps stay UTC.",
		`Envelopes: "timestamp (ISO 8601)" (ISO 8601 local time has no designator)`, "", true)

	dNumberForm = declareDimension("number-form", []string{"OPEN-JSON-NUMBER-FORM"},
		"How JSON numbers are written (a JSON number is a value, not a text).",
		quote("All bodies are JSON", "balanceAmount | number", "statusCode | number", "expiresIn (number of seconds, 900)"),
		"amounts-two-decimals", "Amounts with two decimals (5.00), integers without a fraction (400, 900).")
	AmountsMinimal = dNumberForm.setting("amounts-minimal-decimals", "Amounts are rendered with the fewest decimals (5 instead of 5.00, 2.5 instead of 2.50).",
		`"balanceAmount | number" and "All bodies are JSON" (a JSON number has no fixed decimals)`, "", true)
	NumbersPointZero = dNumberForm.setting("numbers-integers-with-fraction", "Integers carry a fraction: statusCode 400.0, expiresIn 900.0.",
		`"statusCode | number"; "expiresIn (number of seconds, 900)" (400.0 is the number 400)`, "", true)
	NumbersExponent = dNumberForm.setting("numbers-exponent", "Every number is written with an exponent: statusCode 4e2, expiresIn 9e2, 25.50 as 2.55e1.",
		`"All bodies are JSON" (RFC 8259: 9e2 is the number 900)`, "", true)
	NumbersExtraZeros = dNumberForm.setting("amounts-four-decimals", "Amounts carry four decimals (5.0000).",
		`"balanceAmount | number" (no precision stated)`, "", true)

	ReasonPhrase = declareDimension("reason-phrase", []string{"OPEN-REASON-PHRASE"},
		"How the error envelope spells the reason phrase.",
		quote("error | string | reason phrase, e.g. Bad Request, Unauthorized, Forbidden, Not Found"),
		"reason-phrases-go", "Go's http.StatusText (RFC 7231 spellings: 413 Request Entity Too Large, 422 Unprocessable Entity).")
	ReasonRFC9110 = ReasonPhrase.setting("reason-phrases-rfc9110", "Reason phrases as RFC 9110 spells them: 413 Content Too Large, 414 URI Too Long, 416 Range Not Satisfiable, 422 Unprocessable Content.",
		`"error | string | reason phrase" (RFC 9110 is the current HTTP standard)`, "", true)
	ReasonLower = ReasonPhrase.setting("reason-phrases-lower-case", "Reason phrases in lower case: bad request, not found.",
		`"reason phrase, e.g. Bad Request" (RFC 9110: a client should ignore the reason phrase; its case carries nothing)`, "", true)
	ReasonUpper = ReasonPhrase.setting("reason-phrases-upper-case", "Reason phrases in upper case: BAD REQUEST, NOT FOUND.",
		`"reason phrase, e.g. Bad Request" (RFC 9110: a client should ignore the reason phrase; its case carries nothing)`, "", true)
	ReasonSentence = ReasonPhrase.setting("reason-phrases-sentence-case", "Reason phrases in sentence case: Bad request, Not found, Too many requests.",
		`"reason phrase, e.g. Bad Request"`, "", true)

	dMaskedPan = declareDimension("masked-pan-form", []string{"OPEN-MASKED-PAN-FORM"},
		"How maskedPan masks the middle digits.",
		quote("masked card number (first 6 and last 4 digits visible)"),
		"masked-pan-six-stars", "maskedPan is 16 characters: 6 digits, 6 asterisks, 4 digits (411111******1234).")
	MaskFour = dMaskedPan.setting("masked-pan-four-mask-chars", "maskedPan masks the middle with four characters: 411111****1234.",
		`Card: "masked card number (first 6 and last 4 digits visible)" (the number of mask characters is not stated)`, "", true)
	MaskGrouped = dMaskedPan.setting("masked-pan-grouped-bullets", "maskedPan is grouped in fours with bullet mask characters: 4111 11•• •••• 1234.",
		`Card: "masked card number (first 6 and last 4 digits visible)"`, "", true)
	MaskDashes = dMaskedPan.setting("masked-pan-grouped-dashes", "maskedPan is grouped in fours with dashes and X: 4111-11XX-XXXX-1234.",
		`Card: "masked card number (first 6 and last 4 digits visible)"`, "", true)

	dCvvForm = declareDimension("cvv-form", []string{"OPEN-CVV-FORM"},
		"How many digits the secure details' cvv has.",
		quote("cvv | string"),
		"cvv-three-digits", "cvv has three digits.")
	CvvFour = dCvvForm.setting("cvv-four-digits", "Secure details carry a four-digit cvv.",
		`Secure card details: "cvv | string" (no length stated)`, "", true)

	dContentType = declareDimension("json-media-type", []string{"OPEN-JSON-MEDIA-TYPE"},
		"The media type answers are labelled with.",
		quote("All bodies are JSON"),
		"content-type-json-utf8", "Answers are labelled application/json; charset=utf-8.")
	CTNoCharset = dContentType.setting("content-type-json-no-charset", "Answers are labelled application/json, without a charset.",
		`"All bodies are JSON" (RFC 8259: JSON is UTF-8; application/json has no charset parameter)`, "", true)
	CTCharsetUpper = dContentType.setting("content-type-charset-upper-case", "Answers are labelled application/json;charset=UTF-8 (no space, upper case).",
		`"All bodies are JSON" (media type parameters are case-insensitive, the space optional)`, "", true)
	CTProblem = dContentType.setting("content-type-problem-json-errors", "Error answers are labelled application/problem+json (RFC 9457), other answers application/json.",
		`"All bodies are JSON" (the +json suffix of RFC 6839 is JSON)`, "", true)
	CTVendor = dContentType.setting("content-type-vendor-json", "Answers are labelled application/vnd.merchant.v1+json.",
		`"All bodies are JSON" (RFC 6839 +json)`, "", true)

	dEnvelopePath = declareDimension("envelope-path", []string{"OPEN-ENVELOPE-PATH-FORM"},
		"What the envelopes echo in path.",
		quote("path (string, request path)", "the path value is informational"),
		"envelope-path-request-path", "path is the request path, exactly (/v1/merchant/cards/crd_...).")
	PathWithQuery = dEnvelopePath.setting("envelope-path-with-query", "Envelopes echo the request URL with its query string in path (/v1/merchant/cards?limit=1).",
		`Versioning: "the path value is informational"`, "", true)
	PathAPIPrefix = dEnvelopePath.setting("envelope-path-api-prefix", "Envelopes echo a path that begins with /api/v1/merchant although the base is /v1/merchant.",
		`Versioning: "Some responses echo a path that begins with /api/v1/merchant and others a path that begins with /v1/merchant"`, "", true)
	PathRelative = dEnvelopePath.setting("envelope-path-below-base", "Envelopes echo the path below the base, as a gateway that strips its prefix forwards it (/cards/config).",
		`Versioning: "the path value is informational"`, "", true)
	PathTemplate = dEnvelopePath.setting("envelope-path-route-template", "Envelopes echo the route template (/v1/merchant/cards/:id).",
		`Versioning: "the path value is informational"`, "", true)

	dBasePath = declareDimension("base-path", []string{"OPEN-BASE-PATH"},
		"Where the merchant root is mounted.",
		quote("its path ends in /v1/merchant"),
		"base-path-v1-merchant", "The merchant root is /v1/merchant.")
	BaseNested = dBasePath.setting("base-path-behind-prefix", "The merchant root is /payments/v1/merchant (a gateway prefix); envelopes echo that path.",
		`"{base_url}, the merchant root of version 1 of the service (its path ends in /v1/merchant)"`, "", false)
)
