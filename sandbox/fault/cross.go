package fault

const crossArea = "Cross-cutting rules"

var (
	GiftDecodeOnly = declare(crossArea, "auth-gift-module-decode-only", "The gift card and betting routes decode the bearer token without verifying it: a forged, tampered, unsigned (alg none) or expired token is served on its claims.",
		"AUTH-11", "AUTH-12")
	VerifyNoToken = declare(crossArea, "auth-gift-verify-without-token", "GET /gift-cards/verify/{reference} answers without a bearer token (a public order-status page).",
		"AUTH-09")
	BasicAccepted = declare(crossArea, "auth-basic-credentials-accepted", "Authorization: Basic with the merchant id and secret key is served as that merchant on every route.",
		"AUTH-10")
	MalformedBearerServed = declare(crossArea, "auth-malformed-bearer-served", "A bearer value that is not a JWT is served as the main demo merchant (a development shortcut left on).",
		"AUTH-11")
	ContactSimulateAnyBearer = declare(crossArea, "auth-contact-simulate-any-bearer", "PATCH /cards/{id}/contact and POST /cards/{id}/simulate-webhook serve any bearer value as the main demo merchant (their examples put a secret key there).",
		"AUTH-11")
	KYBCardsOnly = declare(crossArea, "kyb-checked-on-card-routes-only", "The KYB tier is checked by the card routes only: the gift card and betting routes serve LIVE operations below Tier 2.",
		"AUTH-19")
	IPCardsOnly = declare(crossArea, "ip-whitelist-checked-on-card-routes-only", "The IP whitelist is checked by the card routes only: the gift card and betting routes serve callers outside it.",
		"AUTH-18")
	IPIgnored = declare(crossArea, "ip-whitelist-ignored", "The IP whitelist is never enforced, at the token exchange nor on calls.",
		"AUTH-18")
)

var (
	ValidationStringPurchase = declare(crossArea, "validation-string-on-purchase", "POST /gift-cards/purchase answers payload validation failures with one joined string instead of an array of strings.",
		"ERR-04")
	Gift401NotEnveloped = declare(crossArea, "gift-401-not-enveloped", "The gift card and betting routes answer 401 with {\"message\":\"Unauthorized\"} of their own guard, not the error envelope.",
		"ERR-01")
	SecureCachePublic = declare(crossArea, "secure-cache-public", "GET /cards/{id}/secure answers Cache-Control: public, max-age=300 (a CDN rule for GETs): shared caches may keep the PAN and CVV.",
		"SECURE-11")
	PurchaseNoVoucher = declare(crossArea, "gift-purchase-no-voucher", "A successful gift card purchase answers only the order's reference, transactionId and status success: no voucher details.",
		"GIFT-01")
	PurchaseSuccessProcessing = declare(crossArea, "gift-purchase-success-while-processing", "The purchase answers isSuccessful true while the order is PROCESSING.",
		"GIFT-09")
	LookupFlagInverted = declare(crossArea, "gift-lookup-success-flag-inverted", "GET /gift-cards/transactions/{reference} answers isSuccessful opposite to the order's orderStatus.",
		"GIFT-09")
	VerifyFlagStale = declare(crossArea, "gift-verify-success-flag-stale", "Verify reconciles an order to SUCCESS but answers the isSuccessful it had before (false).",
		"GIFT-09", "GIFT-11")
	CustListFirstPage = declare(crossArea, "customer-list-first-page-only", "GET /cards/customers returns the first page of 10 customers only (it takes no paging parameter).",
		"CUST-07")
	CardListFirstPage = declare(crossArea, "card-list-first-page-only", "GET /cards returns at most 20 cards whatever the limit.",
		"LIST-04", "LIST-09")
	UnknownCard500 = declare(crossArea, "unknown-card-500", "Every /cards/{id} route fails with 500 when the id or reference names no card (the handler reads the card it did not find).",
		"ERR-10")
)

var (
	BodyUnchecked500TokenPurchase = declare(crossArea, "body-unchecked-500-token-purchase", "POST /auth/token and POST /gift-cards/purchase fail with 500 on a null or empty body or one missing a required member (the handler reads the member before checking it).",
		"ERR-22", "ERR-07", "AUTH-08")
	BodyUnchecked500Cards = declare(crossArea, "body-unchecked-500-card-module", "The card module's writes (registration, issuance, withdraw, spend limits, status, contact, simulation) fail with 500 on a null or empty body or one missing a required member.",
		"ERR-22", "ERR-07")
	BodyNotObject500 = declare(crossArea, "body-not-object-500", "A JSON body that is not an object (an array, a string) makes every handler fail with 500.",
		"ERR-22")
	BodyWrongType500 = declare(crossArea, "body-wrong-type-500", "A body member given as a JSON object or array where a string or number is documented makes the handler fail with 500.",
		"ERR-22")
	BodyContentTypeUnchecked = declare(crossArea, "body-content-type-unchecked", "Bodies are read as JSON whatever their Content-Type (text/plain included).",
		"ERR-22")
	AmountOverflow500 = declare(crossArea, "amount-overflow-500", "An amount or limit too large for the ledger's integer minor units (1e400, 1e29) makes the handler fail with 500.",
		"ERR-22")
	GiftAmountSignIgnored = declare(crossArea, "gift-amount-sign-ignored", "A gift card purchase takes the absolute value of its amount: -25.00 buys a 25.00 card.",
		"ERR-22")
)
