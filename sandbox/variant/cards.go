package variant

// Card behaviours the document leaves open: where fees fall, how a PUT of
// spend limits merges, and the business rules a card program may have.
var (
	dWithdrawalFee = declareDimension("withdrawal-fee", []string{"OPEN-WITHDRAWAL-FEE-SIDE"},
		"Which side pays the withdrawal fee.",
		quote("withdrawalFee | number | fee charged when balance is swept back to the vault"),
		"withdraw-fee-from-vault-credit", "The card pays the amount; the vault receives the amount less withdrawalFee.")
	WithdrawFullCredit = dWithdrawalFee.setting("withdraw-credits-full-amount", "A withdrawal credits the vault the whole amount (the fee is waived).",
		`"withdrawalFee | fee charged when balance is swept back to the vault" (how it applies is not shown)`,
		"cards:\n  withdrawVaultCredit: amount\n", false)
	WithdrawFeeOnCard = dWithdrawalFee.setting("withdraw-fee-from-card", "The card pays the amount plus withdrawalFee; the vault receives the whole amount (a withdrawal above balance less fee is refused).",
		`"withdrawalFee | fee charged when balance is swept back to the vault" (which side pays is not shown)`, "", false)

	dFundFee = declareDimension("fund-fee", []string{"OPEN-FUND-FEE"},
		"How fundFee applies to a new card.",
		quote("fundFee | number | fee charged per funding operation (percentage or amount)", "issuance deducts the creation fee plus the funding amount from the vault"),
		"fund-fee-not-on-issuance", "A new card's balance is the funding amount.")
	InitialNetFundFee = dFundFee.setting("issuance-balance-net-of-fund-fee", "A new card's balance is the funding minus fundFee.",
		`"fundFee | fee charged per funding operation"; issuance "deducts the creation fee plus the funding amount from the vault"`,
		"issuance:\n  initialBalance: amount-minus-fund-fee\n", false)
	FundFeePercent = dFundFee.setting("fund-fee-percent", "fundFee (1.00) is a percentage: a new card's balance is the funding less 1 % (rounded to the cent).",
		`"fundFee | fee charged per funding operation (percentage or amount)"`, "", false)

	dLimitsPut = declareDimension("spend-limits-put", []string{"OPEN-SPEND-LIMITS-PUT"},
		"Whether PUT spend-limits merges or replaces, and how an unset limit is shown.",
		quote("transactionLimit, dailyLimit, monthlyLimit, allTimeLimit, each an optional number in USD"),
		"spend-limits-put-merges", "Supplied limits replace theirs, the others keep their value; an unset limit is null.")
	LimitsPutReplaces = dLimitsPut.setting("spend-limits-put-replaces", "PUT spend-limits replaces the whole set: limits not supplied become unset.",
		`PUT /cards/{id}/spend-limits: "each an optional number" (merge or replace is not shown)`, "", false)
	LimitsReplaceDefaults = dLimitsPut.setting("spend-limits-put-restores-defaults", "PUT spend-limits replaces the whole set: limits not supplied return to the program's defaults (1000, 2500, 10000, 50000 USD), which a new card also has.",
		`"each an optional number" (merge or replace, and defaults, are not shown)`, "", false)

	dLimitUnset = declareDimension("spend-limit-unset", []string{"OPEN-SPEND-LIMIT-UNSET-FORM"},
		"How the PUT answer shows a limit that is not set.",
		quote("spendLimits (object with the four limits)"),
		"spend-limits-unset-null", "null.")
	LimitsUnsetZero = dLimitUnset.setting("spend-limits-unset-zero", "PUT spend-limits replaces the whole set and shows an unset limit as 0.",
		`"each an optional number"; "A transaction exceeding a configured limit is declined" (how an unset limit is shown is not)`, "", false, LimitsPutReplaces)
	LimitsUnsetMinusOne = dLimitUnset.setting("spend-limits-unset-minus-one", "An unset limit is shown as -1.",
		`"each an optional number in USD" (how an unset limit is shown is not stated)`, "", false)
	LimitsUnsetAbsent = dLimitUnset.setting("spend-limits-unset-absent", "An unset limit is left out of spendLimits.",
		`"spendLimits (object with the four limits)" (how an unset one is shown is not stated)`, "", true)

	dLimitZone = declareDimension("spend-limit-zone", []string{"OPEN-SPEND-LIMIT-CALENDAR"},
		"The zone of the calendar day and month of dailyLimit and monthlyLimit.",
		quote("dailyLimit (per calendar day, cumulative), monthlyLimit (per calendar month, cumulative)"),
		"spend-limit-day-utc", "UTC days and months.")
	LimitDayLagos = dLimitZone.setting("spend-limit-day-utc-plus-1", "Days and months in UTC+01:00 (Africa/Lagos).",
		`"per calendar day" (whose calendar is not stated)`, "", false)
	LimitDayWest = dLimitZone.setting("spend-limit-day-utc-minus-5", "Days and months in UTC-05:00 (US Eastern standard time).",
		`"per calendar day" (whose calendar is not stated)`, "", false)

	dTxnWebhooks = declareDimension("transaction-webhooks", []string{"OPEN-TRANSACTION-WEBHOOKS"},
		"Which card transactions send a webhook.",
		quote("The service sends card webhooks to the merchant's configured webhook URL"),
		"transaction-webhooks-all", "Every authorization, decline and settlement.")
	TxnNoDeclines = dTxnWebhooks.setting("transaction-webhooks-without-declines", "Declined authorizations send no webhook; approvals and settlements do.",
		`"The service sends card webhooks" (for which transactions is not stated)`, "", false)

	dLimitRules = declareDimension("spend-limit-rules", []string{"OPEN-SPEND-LIMIT-CONSISTENCY", "OPEN-AMOUNT-CAPS"},
		"Business rules on spend limits.",
		quote("Maximum values for amounts and spend limits, and bounds of gift card amounts: not shown"),
		"spend-limits-unbounded", "Any positive limits, in any order.")
	LimitMax5000 = dLimitRules.setting("spend-limit-max-5000", "A spend limit above 5000.00 USD is refused with 400.",
		`"Maximum values for amounts and spend limits ...: not shown"`, "", false)
	LimitsOrdered = dLimitRules.setting("spend-limits-ordered", "The limits set must not decrease from transaction to daily to monthly to all-time; a PUT breaking that is refused with 400.",
		`"Maximum values for amounts and spend limits ...: not shown"; other failure conditions: not shown`, "", false)

	dFundingMax = declareDimension("amount-rules", []string{"OPEN-AMOUNT-CAPS"},
		"A maximum card funding.",
		quote("Maximum values for amounts and spend limits, and bounds of gift card amounts: not shown"),
		"card-funding-unbounded", "Any funding the vault covers.")
	FundingMax100 = dFundingMax.setting("card-funding-max-100", "Issuance with an amount above 100.00 USD is refused with 400.",
		`"Maximum values for amounts ...: not shown"`, "", false)
	FundingMax1000 = dFundingMax.setting("card-funding-max-1000", "Issuance with an amount above 1000.00 USD is refused with 400.",
		`"Maximum values for amounts ...: not shown"`, "", false)

	dNameRules = declareDimension("name-on-card", []string{"OPEN-NAME-ON-CARD-RULES"},
		"What nameOnCard may hold (embossing rules).",
		quote("the body contains nameOnCard (non-empty)"),
		"name-on-card-any", "Any non-empty name up to 64 characters.")
	NameMax21 = dNameRules.setting("card-name-max-21", "nameOnCard is at most 21 characters (an embossing line).",
		`"nameOnCard (non-empty)" (length not shown)`, "", false)
	NameLetters = dNameRules.setting("card-name-letters-only", "nameOnCard holds letters, spaces, dots, apostrophes and hyphens only.",
		`"nameOnCard (non-empty)" (characters not shown)`, "", false)
	NameEmbossing = dNameRules.setting("card-name-embossing", "nameOnCard matches ^[A-Za-z .'-]{1,21}$ (both rules).",
		`"nameOnCard (non-empty)"`, "", false)

	dNameCase = declareDimension("name-on-card-case", []string{"OPEN-NAME-ON-CARD-RENDERING"},
		"Whether nameOnCard is kept as given or as embossed.",
		quote("nameOnCard | string"),
		"name-on-card-as-given", "nameOnCard is kept as given.")
	NameUpper = dNameCase.setting("card-name-upper-case", "nameOnCard is stored and shown in upper case, as embossed.",
		`"nameOnCard | string" (that it echoes the input's case is not stated)`, "", false)

	dCardReference = declareDimension("card-reference-rules", []string{"OPEN-CARD-REFERENCE-RULES"},
		"What a card's merchant reference may hold.",
		quote("reference | string | merchant reference of the card"),
		"card-reference-64", "Up to 64 letters, digits, '.', '_' or '-'.")
	ReferenceShort = dCardReference.setting("card-reference-max-20-alphanumeric", "A card reference is 1 to 20 letters, digits or underscores.",
		`"reference | string | merchant reference of the card" (form not shown)`, "", false)

	dCardsPerCustomer = declareDimension("cards-per-customer", []string{"OPEN-CARDS-PER-CUSTOMER"},
		"A cap on cards per customer.",
		quote("After successful verification the returned customerId is used to issue cards"),
		"cards-per-customer-unbounded", "A customer may hold any number of cards.")
	CardsPer5 = dCardsPerCustomer.setting("cards-per-customer-5", "A customer holds at most 5 cards; the 6th issuance is refused with 400.",
		`other failure conditions: not shown`, "", false)
	CardsPer10 = dCardsPerCustomer.setting("cards-per-customer-10", "A customer holds at most 10 cards; the 11th issuance is refused with 400.",
		`other failure conditions: not shown`, "", false)

	dUpdatedAt = declareDimension("updated-at", []string{"OPEN-UPDATED-AT"},
		"What moves updatedAt.",
		quote("card (Card with updated balance and updatedAt)"),
		"updated-at-on-writes", "updatedAt moves when the card changes.")
	UpdatedOnRead = dUpdatedAt.setting("updated-at-on-every-read", "updatedAt is the time the card was last synced from the processor: every answer carrying a card shows the time of that answer.",
		`"updatedAt | ISO 8601 UTC timestamp" (its meaning beyond the withdrawal answer is not stated)`, "", true)

	dSecureCache = declareDimension("secure-caching", []string{"OPEN-SECURE-CACHING"},
		"How the secure answer keeps shared caches away.",
		quote("This data is PCI-sensitive; it must never reach public clients or unauthenticated browsers"),
		"secure-cache-no-store", "Cache-Control: no-store.")
	CachePrivate = dSecureCache.setting("secure-cache-private", "Cache-Control: private, max-age=0.",
		`"must never reach public clients" (RFC 9111: a private answer is never stored by a shared cache)`, "", false)
	CacheSpring = dSecureCache.setting("secure-cache-spring-default", "Cache-Control: no-cache, no-store, max-age=0, must-revalidate with Pragma: no-cache (Spring Security's default).",
		`"must never reach public clients"`, "", false)
	CacheAbsent = dSecureCache.setting("secure-cache-header-absent", "No Cache-Control (RFC 9111 §3.5: a shared cache does not store an answer to a request with Authorization unless told).",
		`"must never reach public clients or unauthenticated browsers"`, "", false)
)
