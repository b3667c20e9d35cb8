package sandbox

import "net/http"

// The fault catalogue of docs/faults.md beyond the sandbox's first faults
// (faults.go). Each fault breaks exactly one rule the API document states
// explicitly; its bool is read only at the point of the logic it corrupts.

// moreFaults is embedded in faultSet: one plain bool per fault.
type moreFaults struct {
	// envelopes and errors
	envAStatusOK        bool
	envBSuccessString   bool
	envPathNoRoot       bool
	giftVerifyEnveloped bool
	jsonAsTextPlain     bool
	errReasonWrong      bool
	validationNotArray  bool
	malformedJSON422    bool
	bearerMsgVague      bool

	// authentication
	authForgedAccepted   bool
	authQuotesNoToken    bool
	authWrongSecret      bool
	authKYBSkipped       bool
	authIPPerCallSkipped bool
	tokenLifetime600     bool
	tokenNoEnvironment   bool

	// configuration and customers
	configVaultStale    bool
	configEnvAlwaysTest bool
	custEmailOptional   bool
	custListDropsNewest bool
	custListTenantLeak  bool

	// issuance
	issueMinOffByCent      bool
	issueNoCreationFee     bool
	issueVaultExclFee      bool
	issueVaultExactRefused bool
	issueVaultMsgNoTotal   bool
	issueUnknownCustomer   bool
	issueDupRef            bool

	// listing, get, secure
	listNoDefaultLimit      bool
	listStatusIgnored       bool
	listSearchNoLast4       bool
	listTenantLeak          bool
	refLookupBroken         bool
	secureExpMismatch       bool
	cardCrossMerchantFreeze bool

	// withdrawal, status, limits, transactions
	withdrawMinOffByCent       bool
	withdrawNotPersisted       bool
	statusFreezeNotPersisted   bool
	statusUnfreezeNotPersisted bool
	statusFreezeSweeps         bool
	limitsNotApplied           bool
	limitAtLimitDeclined       bool
	limitDailyNotCumulative    bool
	limitDailyNeverResets      bool
	limitAllTimeResetsMonthly  bool
	txnFrozenDeclineDebits     bool
	txnUnfreezeStillDeclines   bool

	// contact and webhooks
	contactPlusRefused     bool
	contactLiveRefused     bool
	webhookReversalKind    bool
	webhookRefPrefix       bool
	webhookLiveAllowed     bool
	webhookDeliveredKind   bool
	webhookTxnNotDelivered bool

	// gift cards and quotes
	giftNeverReconciles  bool
	giftVerifyByTxnID404 bool
	giftNotDebited       bool
	giftNameOptional     bool
	giftCostDiffers      bool
	giftHoldIgnored      bool
	giftVerifyTenantLeak bool
	bettingQuoteMissing  bool

	// rate limits
	rateLimitNever    bool
	rateLimitNoRefill bool
}

func fault(name, desc string, reqs []string, set func(*faultSet)) faultDef {
	return faultDef{Fault{name, desc, reqs}, set}
}

func reqs(ids ...string) []string { return ids }

var moreCatalogue = []faultDef{
	// envelopes and errors
	fault("envelope-a-status-ok", "Envelope A carries status \"ok\" instead of \"success\".", reqs("ENV-01"),
		func(f *faultSet) { f.envAStatusOK = true }),
	fault("envelope-b-success-string", "Envelope B carries success as the string \"true\" instead of a boolean.", reqs("ENV-03"),
		func(f *faultSet) { f.envBSuccessString = true }),
	fault("envelope-path-no-version-root", "Envelope A echoes the path below the base (/cards/...), without /v1/merchant.", reqs("ENV-08", "VER-03"),
		func(f *faultSet) { f.envPathNoRoot = true }),
	fault("gift-verify-enveloped", "Gift order verification wraps the order in Envelope A data instead of answering flat.", reqs("ENV-04"),
		func(f *faultSet) { f.giftVerifyEnveloped = true }),
	fault("envelope-json-as-text-plain", "JSON answers are labelled Content-Type text/plain instead of application/json.", reqs("ENV-07"),
		func(f *faultSet) { f.jsonAsTextPlain = true }),
	fault("error-reason-phrase-wrong", "The error envelope's error is \"Bad Request\" whatever the HTTP status.", reqs("ERR-03"),
		func(f *faultSet) { f.errReasonWrong = true }),
	fault("validation-message-not-array", "Payload validation failures carry one joined string instead of an array of strings.", reqs("ERR-04"),
		func(f *faultSet) { f.validationNotArray = true }),
	fault("malformed-json-422", "A request body that is not valid JSON is answered 422 instead of 400.", reqs("ERR-22", "ERR-07"),
		func(f *faultSet) { f.malformedJSON422 = true }),
	fault("bearer-401-message-vague", "The 401 for a missing or invalid bearer token says Unauthorized without asking for the bearer token.", reqs("ERR-15"),
		func(f *faultSet) { f.bearerMsgVague = true }),

	// authentication
	fault("auth-forged-signature-accepted", "A token whose signature does not verify (tampered, alg none) is accepted on its claims.", reqs("AUTH-11"),
		func(f *faultSet) { f.authForgedAccepted = true }),
	fault("auth-quotes-without-token", "GET /gift-cards/quote and GET /betting/quote answer without a bearer token.", reqs("AUTH-09"),
		func(f *faultSet) { f.authQuotesNoToken = true }),
	fault("auth-wrong-secret-accepted", "The token exchange checks only that the merchant id exists, not its secret key.", reqs("AUTH-07", "ERR-16"),
		func(f *faultSet) { f.authWrongSecret = true }),
	fault("auth-kyb-check-skipped", "LIVE operations of a merchant below KYB Tier 2 are served.", reqs("AUTH-19", "ERR-09"),
		func(f *faultSet) { f.authKYBSkipped = true }),
	fault("auth-ip-whitelist-per-call-skipped", "The IP whitelist is checked at the token exchange only, not on authenticated calls.", reqs("AUTH-18"),
		func(f *faultSet) { f.authIPPerCallSkipped = true }),
	fault("token-no-environment", "The token answer omits environment (it still carries the access token).", reqs("AUTH-05"),
		func(f *faultSet) { f.tokenNoEnvironment = true }),
	fault("token-lifetime-600s", "Access tokens say expiresIn 900 but expire after 600 seconds.", reqs("AUTH-13"),
		func(f *faultSet) { f.tokenLifetime600 = true }),

	// configuration and customers
	fault("config-vault-stale", "GET /cards/config reports the seed vault balance, never the live one.", reqs("CONFIG-08"),
		func(f *faultSet) { f.configVaultStale = true }),
	fault("config-environment-always-test", "GET /cards/config says environment TEST also to LIVE credentials.", reqs("CONFIG-09", "CONFIG-02"),
		func(f *faultSet) { f.configEnvAlwaysTest = true }),
	fault("customer-email-optional", "A customer registration without email is accepted.", reqs("CUST-02"),
		func(f *faultSet) { f.custEmailOptional = true }),
	fault("customer-list-drops-newest", "GET /cards/customers leaves out the most recent registration.", reqs("CUST-07"),
		func(f *faultSet) { f.custListDropsNewest = true }),
	fault("customer-list-tenant-leak", "GET /cards/customers also lists other merchants' customers.", reqs("ISO-05"),
		func(f *faultSet) { f.custListTenantLeak = true }),

	// issuance
	fault("issue-min-funding-off-by-cent", "Card issuance accepts an initial funding of 0.99 USD (minimum off by one cent).", reqs("ISSUE-03", "ISSUE-09"),
		func(f *faultSet) { f.issueMinOffByCent = true }),
	fault("issue-no-creation-fee", "Card issuance debits the vault the funding amount only, without the creation fee.", reqs("ISSUE-04"),
		func(f *faultSet) { f.issueNoCreationFee = true }),
	fault("issue-vault-check-excludes-fee", "Vault sufficiency at issuance compares the funding alone, not funding plus fee (the vault can go negative).", reqs("ISSUE-05"),
		func(f *faultSet) { f.issueVaultExclFee = true }),
	fault("issue-vault-exact-refused", "Issuance is refused when the vault equals funding plus fee exactly (off by one cent).", reqs("ISSUE-05", "ISSUE-04"),
		func(f *faultSet) { f.issueVaultExactRefused = true }),
	fault("issue-vault-message-no-total", "The vault shortfall 400 states only the available amount, not the required total.", reqs("ERR-14", "ISSUE-05"),
		func(f *faultSet) { f.issueVaultMsgNoTotal = true }),
	fault("issue-unknown-customer-accepted", "Card issuance for a customer that does not exist creates a card.", reqs("ISSUE-07"),
		func(f *faultSet) { f.issueUnknownCustomer = true }),
	fault("issue-duplicate-reference-accepted", "A second card with an existing merchant reference is issued instead of 409.", reqs("ERR-11"),
		func(f *faultSet) { f.issueDupRef = true }),

	// listing, get, secure
	fault("card-list-no-default-limit", "GET /cards without limit returns every card instead of at most 50.", reqs("LIST-09"),
		func(f *faultSet) { f.listNoDefaultLimit = true }),
	fault("card-list-status-filter-ignored", "GET /cards?status=ACTIVE or FROZEN returns cards of both statuses.", reqs("LIST-02", "LIST-03"),
		func(f *faultSet) { f.listStatusIgnored = true }),
	fault("card-list-search-ignores-last4", "GET /cards?search matches name and reference but not the last 4 digits of the PAN.", reqs("LIST-07"),
		func(f *faultSet) { f.listSearchNoLast4 = true }),
	fault("card-list-tenant-leak", "GET /cards also lists other merchants' cards of the same environment.", reqs("ISO-04"),
		func(f *faultSet) { f.listTenantLeak = true }),
	fault("card-reference-lookup-broken", "Cards can be addressed by id only: a card's reference in the path gives 404.", reqs("GET-02"),
		func(f *faultSet) { f.refLookupBroken = true }),
	fault("secure-expiration-date-mismatch", "Secure details' expirationDate is MM/YY of the issuance year, disagreeing with expiryYear.", reqs("SECURE-09"),
		func(f *faultSet) { f.secureExpMismatch = true }),
	fault("card-cross-merchant-freeze", "PATCH /cards/{id}/status finds and changes another merchant's card by id.", reqs("ISO-02"),
		func(f *faultSet) { f.cardCrossMerchantFreeze = true }),

	// withdrawal, status, limits, transactions
	fault("withdraw-min-off-by-cent", "A withdrawal of 0.09 USD is accepted (minimum off by one cent).", reqs("WITHDRAW-03"),
		func(f *faultSet) { f.withdrawMinOffByCent = true }),
	fault("withdraw-not-persisted", "A withdrawal answers the lowered balance but the card keeps its old balance.", reqs("WITHDRAW-04", "GET-03"),
		func(f *faultSet) { f.withdrawNotPersisted = true }),
	fault("status-freeze-not-persisted", "PATCH status=FROZEN answers FROZEN but the card stays ACTIVE.", reqs("STATUS-03"),
		func(f *faultSet) { f.statusFreezeNotPersisted = true }),
	fault("status-unfreeze-not-persisted", "PATCH status=ACTIVE answers ACTIVE but a FROZEN card stays FROZEN.", reqs("STATUS-04"),
		func(f *faultSet) { f.statusUnfreezeNotPersisted = true }),
	fault("status-freeze-sweeps-balance", "Freezing a card sweeps its balance to the vault instead of keeping it.", reqs("STATUS-05"),
		func(f *faultSet) { f.statusFreezeSweeps = true }),
	fault("limits-not-applied", "Spend limits are echoed but never stored, so no transaction is declined for them.", reqs("LIMITS-04", "TXN-04"),
		func(f *faultSet) { f.limitsNotApplied = true }),
	fault("limit-at-limit-declined", "A transaction exactly at the transactionLimit is declined (off by one cent).", reqs("TXN-04"),
		func(f *faultSet) { f.limitAtLimitDeclined = true }),
	fault("limit-daily-not-cumulative", "The dailyLimit is compared with the single amount, not the day's total.", reqs("TXN-05"),
		func(f *faultSet) { f.limitDailyNotCumulative = true }),
	fault("limit-daily-never-resets", "The day's spent total is never reset on a new calendar day.", reqs("TXN-06"),
		func(f *faultSet) { f.limitDailyNeverResets = true }),
	fault("limit-alltime-resets-monthly", "The all-time spent total restarts with each calendar month.", reqs("TXN-09"),
		func(f *faultSet) { f.limitAllTimeResetsMonthly = true }),
	fault("txn-frozen-decline-debits", "A FROZEN card's transaction is declined but still taken from the card balance.", reqs("TXN-02"),
		func(f *faultSet) { f.txnFrozenDeclineDebits = true }),
	fault("txn-unfreeze-still-declines", "A card unfrozen after FROZEN keeps declining transactions.", reqs("TXN-03"),
		func(f *faultSet) { f.txnUnfreezeStillDeclines = true }),

	// contact and webhooks
	fault("contact-plus-mobile-refused", "PATCH contact refuses a mobile in international form with a leading +.", reqs("CONTACT-04"),
		func(f *faultSet) { f.contactPlusRefused = true }),
	fault("contact-live-refused", "PATCH contact is refused with 403 for LIVE credentials.", reqs("CONTACT-08"),
		func(f *faultSet) { f.contactLiveRefused = true }),
	fault("webhook-reversal-kind-wrong", "Simulating reversal dispatches virtualcard.transaction.reversal instead of .reversed.", reqs("WEBHOOK-05"),
		func(f *faultSet) { f.webhookReversalKind = true }),
	fault("webhook-reference-prefix-wrong", "Simulation references start with SIM_ instead of SIMULATE_.", reqs("WEBHOOK-07"),
		func(f *faultSet) { f.webhookRefPrefix = true }),
	fault("webhook-live-allowed", "Webhook simulation with LIVE credentials is served instead of refused.", reqs("WEBHOOK-11"),
		func(f *faultSet) { f.webhookLiveAllowed = true }),
	fault("webhook-delivered-kind-wrong", "Delivered webhooks carry a bare kind (e.g. authorization) although the answer names the documented one.", reqs("WEBHOOK-09", "WEBHOOK-03"),
		func(f *faultSet) { f.webhookDeliveredKind = true }),
	fault("webhook-txn-not-delivered", "Card transactions and settlements send no webhook to the configured URL.", reqs("WEBHOOK-12"),
		func(f *faultSet) { f.webhookTxnNotDelivered = true }),

	// gift cards and quotes
	fault("gift-verify-never-reconciles", "Verify leaves a PROCESSING gift order PROCESSING with the voucher locked.", reqs("GIFT-11"),
		func(f *faultSet) { f.giftNeverReconciles = true }),
	fault("gift-verify-by-txn-id-404", "Verify finds gift orders by client reference only; the transactionId gives 404.", reqs("GIFT-12"),
		func(f *faultSet) { f.giftVerifyByTxnID404 = true }),
	fault("gift-purchase-not-debited", "A gift card purchase does not debit the test NGN balance.", reqs("GIFT-03"),
		func(f *faultSet) { f.giftNotDebited = true }),
	fault("gift-recipient-name-optional", "A gift card purchase without recipientName is accepted.", reqs("GIFT-02"),
		func(f *faultSet) { f.giftNameOptional = true }),
	fault("gift-cost-differs-from-quote", "Gift purchases charge (and report as costNgn) the quote's subtotal without its fee.", reqs("QUOTE-03"),
		func(f *faultSet) { f.giftCostDiffers = true }),
	fault("gift-hold-ignored", "Verify completes an order whose upstream reconciliation has not completed (held).", reqs("GIFT-15"),
		func(f *faultSet) { f.giftHoldIgnored = true }),
	fault("gift-verify-tenant-leak", "Verify finds (and reconciles) another merchant's gift order.", reqs("ISO-03"),
		func(f *faultSet) { f.giftVerifyTenantLeak = true }),
	fault("betting-quote-missing", "GET /betting/quote does not exist (404 Cannot GET).", reqs("QUOTE-02"),
		func(f *faultSet) { f.bettingQuoteMissing = true }),

	// rate limits
	fault("rate-limit-never", "The rate limiter never refuses a call: no 429 however fast the calls come.", reqs("RATE-01"),
		func(f *faultSet) { f.rateLimitNever = true }),
	fault("rate-limit-no-refill", "Once refused, a caller stays refused: backing off never helps.", reqs("RATE-03"),
		func(f *faultSet) { f.rateLimitNoRefill = true }),
}

// textPlainWriter relabels every answer text/plain (fault envelope-json-as-text-plain).
type textPlainWriter struct{ http.ResponseWriter }

func (w textPlainWriter) WriteHeader(code int) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.ResponseWriter.WriteHeader(code)
}
