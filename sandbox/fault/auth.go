package fault

// Faults of the area "Authentication" (the registry: fault.go).

var (
	AuthExpiredAccepted = declare("Authentication", "auth-expired-token-accepted", "Bearer tokens are accepted after their 900 s lifetime.",
		"AUTH-12", "ERR-15")
	AuthForgedAccepted = declare("Authentication", "auth-forged-signature-accepted", "A token whose signature does not verify (tampered, alg none) is accepted on its claims.",
		"AUTH-11")
	AuthIgnoreMerchantHdr = declare("Authentication", "auth-ignore-merchant-header", "A mismatching X-Merchant-Id header is ignored instead of answering 401.",
		"AUTH-20", "ERR-08")
	AuthIPPerCallSkipped = declare("Authentication", "auth-ip-whitelist-per-call-skipped", "The IP whitelist is checked at the token exchange only, not on authenticated calls.",
		"AUTH-18")
	AuthKYBSkipped = declare("Authentication", "auth-kyb-check-skipped", "LIVE operations of a merchant below KYB Tier 2 are served.",
		"AUTH-19", "ERR-09")
	TokenNoEnvironment = declare("Authentication", "token-no-environment", "The token answer omits environment (it still carries the access token).",
		"AUTH-05")
	AuthQuotesNoToken = declare("Authentication", "auth-quotes-without-token", "GET /gift-cards/quote and GET /betting/quote answer without a bearer token.",
		"AUTH-09")
	AuthWrongSecret = declare("Authentication", "auth-wrong-secret-accepted", "The token exchange checks only that the merchant id exists, not its secret key.",
		"AUTH-07", "ERR-16")
	AuthNoHeaderServed = declare("Authentication", "auth-missing-header-served", "A request without an Authorization header is served as the main demo merchant (a development shortcut left on).",
		"AUTH-09")
	TokenBearerPrefixed = declare("Authentication", "token-bearer-prefixed", "The token answer's accessToken is \"Bearer <JWT>\", not the JWT itself (accepted back either way).",
		"AUTH-02")
	TokenTypeLowercase = declare("Authentication", "token-type-lowercase", "The token answer says tokenType \"bearer\" instead of \"Bearer\".",
		"AUTH-03")
	TokenExpiresInMillis = declare("Authentication", "token-expires-in-millis", "The token answer gives expiresIn in milliseconds (900000) instead of seconds.",
		"AUTH-04")
	TokenNoMerchantID = declare("Authentication", "token-no-merchant-id", "The token answer omits merchantId.",
		"AUTH-06")
	TokenIssuedOnce = declare("Authentication", "token-issued-once", "The token exchange issues a merchant's first token again (its issue time and expiry), also once it has expired.",
		"AUTH-14")
	TokenLifetime600 = declare("Authentication", "token-lifetime-600s", "Access tokens say expiresIn 900 but expire after 600 seconds.",
		"AUTH-13")
)
