package variant

// Authentication and rate limits: the token is "a JWT", the X-Merchant-Id
// placement, the scope of "live operations" and what a limiter in front of
// the API answers are open.
var (
	dTokenForm = declareDimension("token-form", []string{"OPEN-JWT-FORM"},
		"Which JWT serialisation the access token uses.",
		quote("accessToken (string, JWT)", "The only scheme is bearer tokens (HTTP bearer, JWT)"),
		"token-jws-compact", "A signed JWT (JWS compact: three segments).")
	TokenJWE = dTokenForm.setting("token-jwe-compact", "The access token is an encrypted JWT (JWE compact: five segments, alg dir, enc A256GCM).",
		`"accessToken (string, JWT)" (RFC 7519: a JWT is a JWS or a JWE)`, "", false)

	dTokenType = declareDimension("token-type-case", []string{"OPEN-TOKEN-TYPE-CASE"},
		"How tokenType spells Bearer.",
		quote("tokenType (Bearer)"),
		"token-type-bearer", "tokenType Bearer.")
	TokenTypeLower = dTokenType.setting("token-type-lower-case", "tokenType is \"bearer\" (RFC 6749 §5.1: the token type is case-insensitive).",
		`"tokenType (Bearer)"; "HTTP bearer" (RFC 6750 and 6749: case-insensitive)`, "", true)

	dBearerChallenge = declareDimension("bearer-challenge", []string{"OPEN-BEARER-CHALLENGE"},
		"Whether a 401 carries a WWW-Authenticate challenge.",
		quote("The only scheme is bearer tokens (HTTP bearer, JWT)"),
		"bearer-challenge-absent", "No WWW-Authenticate header.")
	BearerChallenge = dBearerChallenge.setting("bearer-challenge-header", "Every 401 carries WWW-Authenticate: Bearer realm=\"merchant\", error=\"invalid_token\" (RFC 6750).",
		`"HTTP bearer" (RFC 6750 defines the challenge; the document shows none)`, "", true)

	dTokenMerchant = declareDimension("token-merchant-id", []string{"OPEN-TOKEN-MERCHANT-ID"},
		"Which merchant id the token answer carries.",
		quote("merchantId (string)"),
		"token-merchant-id-as-given", "The merchantId of the exchange.")
	TokenMerchantInternal = dTokenMerchant.setting("token-merchant-id-internal", "The token answer carries the merchant's internal id (mch_ and 8 digits), not the merchantId of the exchange.",
		`"merchantId (string)" (that it repeats the request's value is not stated)`, "", true)

	dTokenMembers = declareDimension("token-answer-members", []string{"OPEN-TOKEN-FIELD-PRESENCE"},
		"Which members of the access token answer are present.",
		quote("accessToken (string, JWT), tokenType (Bearer), expiresIn (number of seconds, 900), environment (TEST or LIVE), merchantId (string)"),
		"token-answer-all-members", "All five members.")
	TokenNoMerchantID = dTokenMembers.setting("token-answer-without-merchant-id", "The token answer omits merchantId (environment, which the document says it states, stays).",
		`the access token's members are listed without saying which are always present; only environment is stated`, "", true)

	dSecretBearer = declareDimension("secret-key-bearer", []string{"OPEN-SECRET-KEY-AS-BEARER"},
		"Whether the secret key works in the bearer position where the document's examples put it.",
		quote("Two endpoint examples (contact update, webhook simulation) show a secret key in the bearer position instead of an access token"),
		"secret-key-bearer-refused", "Only access tokens are accepted.")
	SecretBearer = dSecretBearer.setting("secret-key-bearer-accepted", "PATCH contact and POST simulate-webhook also accept the merchant's secret key as the bearer value, as the document's examples show.",
		`"Two endpoint examples ... show a secret key in the bearer position"`, "", false)

	dIPScope = declareDimension("ip-whitelist-scope", []string{"OPEN-IP-WHITELIST"},
		"Where the IP whitelist refuses a caller.",
		quote("Access can also be refused with 403 when the caller's IP address is not in the merchant's IP whitelist for that environment"),
		"ip-whitelist-everywhere", "At the token exchange and on every call.")
	IPCallsOnly = dIPScope.setting("ip-whitelist-calls-only", "The token exchange is open to any address; every authenticated call from outside the whitelist is refused with 403.",
		`"Access can also be refused with 403 when the caller's IP address is not in the merchant's IP whitelist" (at which calls is not stated)`, "", false)

	dTokenMissing = declareDimension("token-missing-member", []string{"OPEN-TOKEN-MISSING-MEMBER"},
		"The refusal of a token exchange missing merchantId or secretKey.",
		quote("merchantId (string), secretKey (string), both required", "Wrong credentials give 401", "400 | missing parameters"),
		"token-missing-member-400", "400 with a constraint-violation array.")
	TokenMissing401 = dTokenMissing.setting("token-missing-member-401", "A token exchange missing merchantId or secretKey is refused with 401 \"Invalid credentials\".",
		`"Wrong credentials give 401"; "400 | missing parameters" (both readings are documented)`, "", true)

	dMerchantHeader = declareDimension("merchant-header", []string{"OPEN-MERCHANT-ID-HEADER"},
		"Where X-Merchant-Id is checked.",
		quote("Where X-Merchant-Id is sent: not shown"),
		"merchant-header-everywhere", "A mismatching X-Merchant-Id is refused at the token exchange and on every call.")
	MerchantHdrUnchecked = dMerchantHeader.setting("merchant-header-unchecked", "X-Merchant-Id is not checked anywhere.",
		`"Where X-Merchant-Id is sent: not shown"`,
		"auth:\n  merchantIdHeader: none\n", false)
	MerchantHdrToken = dMerchantHeader.setting("merchant-header-token-only", "X-Merchant-Id is checked at the token exchange only.",
		`"Where X-Merchant-Id is sent: not shown"`, "auth:\n  merchantIdHeader: token\n", false)
	MerchantHdrRequests = dMerchantHeader.setting("merchant-header-requests-only", "X-Merchant-Id is checked on authenticated calls only.",
		`"Where X-Merchant-Id is sent: not shown"`, "auth:\n  merchantIdHeader: requests\n", false)

	dKYBScope = declareDimension("access-refusal-point", []string{"OPEN-KYB-SCOPE"},
		"Which LIVE calls need KYB Tier 2.",
		quote("Live operations require KYB Tier 2 or higher"),
		"kyb-every-live-call", "Every LIVE call of a merchant below Tier 2 is refused with 403.")
	KYBAtExchange = dKYBScope.setting("kyb-at-token-exchange", "A LIVE merchant below Tier 2 is refused with 403 at the token exchange already.",
		`"Live operations require KYB Tier 2 or higher" (where the refusal comes is not stated)`, "", false)
	KYBWritesOnly = dKYBScope.setting("kyb-writes-only", "A merchant below Tier 2 may read (GET) in LIVE; every LIVE write is refused with 403.",
		`"Live operations require KYB Tier 2 or higher" (whether a read is an operation is not stated)`, "", false)

	dLockout = declareDimension("credential-lockout", []string{"OPEN-CREDENTIAL-LOCKOUT"},
		"Whether repeated wrong credentials lock a merchant out.",
		quote("Wrong credentials give 401", "other failure conditions: not shown"),
		"token-no-lockout", "Wrong credentials are refused with 401, however often.")
	Lockout = dLockout.setting("token-lockout-after-10-failures", "After 10 failed exchanges naming one merchant within 10 minutes, that merchant's exchanges are refused with 429 for 60 seconds.",
		`"Wrong credentials give 401"; a lockout is another failure condition, not shown`, "", false)

	dRateLimitForm = declareDimension("rate-limit-answer", []string{"OPEN-GATEWAY-429"},
		"What a 429 carries (a gateway in front of the API answers its own).",
		quote("429 | rate limit exceeded; retry with exponential backoff", "Exceeding the API rate limits gives 429"),
		"rate-limit-error-envelope", "The error envelope.")
	RL429Text = dRateLimitForm.setting("rate-limit-gateway-plain-text", "429 answers are text/plain \"Too Many Requests\" (a gateway's own answer).",
		`"Exceeding the API rate limits gives 429" (which component answers, and its body, are not stated)`, "", true)
	RL429JSON = dRateLimitForm.setting("rate-limit-gateway-json-message", "429 answers are {\"message\":\"Too Many Requests\"} (AWS API Gateway's answer).",
		`"Exceeding the API rate limits gives 429"`, "", true)
	RL429HTML = dRateLimitForm.setting("rate-limit-gateway-html", "429 answers are a small text/html page (a CDN's answer).",
		`"Exceeding the API rate limits gives 429"`, "", true)

	dRateLimitKey = declareDimension("rate-limit-key", []string{"OPEN-RATE-LIMIT-POLICY"},
		"What a rate limit counts calls by.",
		quote("Numeric rate limits: not shown"),
		"rate-limit-per-merchant", "Calls are counted per merchant and group.")
	RateLimitPerIP = dRateLimitKey.setting("rate-limit-per-client-ip", "Calls are counted per client IP address (a gateway's limiter), whatever the merchant.",
		`"Numeric rate limits: not shown"`, "", false)

	dRetryHint = declareDimension("rate-limit-window", []string{"OPEN-RETRY-AFTER"},
		"How a 429 says when to retry.",
		quote("429 | rate limit exceeded; retry with exponential backoff", "Numeric rate limits: not shown"),
		"retry-after-seconds", "Retry-After in seconds, with X-RateLimit-Limit, -Remaining and -Reset.")
	RetryAfterLong = dRetryHint.setting("rate-limit-long-retry-after", "429 answers ask for Retry-After: 60 (a 60-second window).",
		`"429 | rate limit exceeded; retry with exponential backoff"; "Numeric rate limits: not shown"`, "", true)
	NoRetryAfter = dRetryHint.setting("rate-limit-no-retry-after", "429 answers carry no Retry-After header.",
		`"429 | rate limit exceeded; retry with exponential backoff" (no header is stated)`, "", true)
	RetryAfterDate = dRetryHint.setting("retry-after-http-date", "Retry-After is an HTTP date (RFC 9110 allows a date or seconds).",
		`"retry with exponential backoff" (no header is stated)`, "", true)
	RateLimitDraft = dRetryHint.setting("ratelimit-reset-headers", "429 answers carry RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset (the IETF draft) and no Retry-After.",
		`"retry with exponential backoff" (no header is stated)`, "", true)
)
