package variant

// Gift cards and quotes: reconciliation timing, open orderStatus values,
// answers "not shown" and business rules on purchases.
var (
	dGiftReconcile = declareDimension("gift-reconciliation", []string{"OPEN-GIFT-RECONCILIATION"},
		"When verify reconciles a PROCESSING order to SUCCESS.",
		quote("upstream reconciliation (transaction status query) completes with fulfillment"),
		"gift-verify-reconciles-at-once", "The first verify reconciles the order.")
	GiftTwoStep = dGiftReconcile.setting("gift-verify-two-step", "Verify answers PROCESSING (voucher null) on the first call and SUCCESS on the next.",
		`PROCESSING -> SUCCESS when "upstream reconciliation ... completes with fulfillment" (one call is not promised)`, "", true)
	GiftThirdCall = dGiftReconcile.setting("gift-verify-third-call", "Verify reconciles the order on its third call.",
		`PROCESSING -> SUCCESS when "upstream reconciliation ... completes" (how many calls is not stated)`, "", false)
	GiftAfterSeconds = dGiftReconcile.setting("gift-verify-after-3s", "Verify reconciles the order only once 3 seconds have passed since the purchase.",
		`"upstream reconciliation ... completes with fulfillment" (when is not stated)`, "", false)

	dGiftPendingName = declareDimension("gift-order-status-values", []string{"OPEN-ORDER-STATUS-VALUES"},
		"The orderStatus of an order not yet fulfilled.",
		quote("orderStatus | string | e.g. SUCCESS, PROCESSING", "Other orderStatus values and transitions beyond PROCESSING and SUCCESS: not shown"),
		"gift-status-processing", "PROCESSING until fulfilled.")
	GiftPending = dGiftPendingName.setting("gift-status-pending", "An order not yet fulfilled says orderStatus PENDING.",
		`"orderStatus | e.g. SUCCESS, PROCESSING" (examples); "Other orderStatus values ...: not shown"`, "", true)
	GiftInProgress = dGiftPendingName.setting("gift-status-in-progress", "An order not yet fulfilled says orderStatus IN_PROGRESS.",
		`"orderStatus | e.g. SUCCESS, PROCESSING"; "Other orderStatus values ...: not shown"`, "", true)

	dGiftOrderPresence = declareDimension("gift-order-presence", []string{"OPEN-GIFT-ORDER-PRESENCE"},
		"Which gift order members are present and non-null.",
		quote("voucher | object | code, pin, serialNumber, instructions (strings)", "Gift card order (as returned by verification)"),
		"gift-order-members-all", "Every member, a locked voucher with empty code and pin while PROCESSING.")
	GiftSerialNull = dGiftOrderPresence.setting("gift-voucher-serial-null", "Vouchers carry serialNumber: null (the brand has none).",
		`"voucher | object | code, pin, serialNumber, instructions (strings)" (presence not stated)`, "", true)
	GiftDescriptiveAbsent = dGiftOrderPresence.setting("gift-order-descriptive-absent", "Orders omit productName, recipient and environment.",
		`the order table lists the fields without saying which are always present`, "", true)
	GiftProcessingSparse = dGiftOrderPresence.setting("gift-processing-order-sparse", "While PROCESSING an order has no voucher member and transactionId null (no upstream id yet).",
		`"the response carries the unlocked voucher.code and voucher.pin" (stated for SUCCESS only)`, "", true)

	dGiftLookupEnvelope = declareDimension("gift-lookup-shape", []string{"OPEN-GIFT-LOOKUP-SHAPE"},
		"The envelope of GET /gift-cards/transactions/{reference}.",
		quote("Response body of gift transaction lookup: not shown"),
		"gift-lookup-envelope-a", "Envelope A, the order under data.")
	GiftLookupFlat = dGiftLookupEnvelope.setting("gift-lookup-flat", "GET /gift-cards/transactions/{reference} answers the order at top level.",
		`"Response body of gift transaction lookup: not shown"`,
		"giftCards:\n  lookupOrderPointer: \"\"\n", true)

	dGiftLookupVoucher = declareDimension("gift-lookup-voucher-names", []string{"OPEN-GIFT-LOOKUP-SHAPE"},
		"Where the lookup carries the voucher code, PIN and instructions.",
		quote("Returns the purchase with voucher code, redemption PIN and instructions"),
		"gift-lookup-voucher-object", "In voucher.code, voucher.pin and voucher.instructions.")
	LookupVoucherFlat = dGiftLookupVoucher.setting("gift-lookup-voucher-fields", "GET /gift-cards/transactions/{reference} carries the voucher as voucherCode, redemptionPin and redemptionInstructions of the order.",
		`"Returns the purchase with voucher code, redemption PIN and instructions. Response body of gift transaction lookup: not shown"`,
		"giftCards:\n  lookupVoucher:\n    code: /voucherCode\n    pin: /redemptionPin\n    instructions: /redemptionInstructions\n", true)
	LookupVoucherCardNumber = dGiftLookupVoucher.setting("gift-lookup-voucher-card-number", "The lookup names the gift card's number cardNumber and its PIN pinCode (as several aggregators do); voucher codes are 16 digits.",
		`"Returns the purchase with voucher code, redemption PIN and instructions" (member names not shown)`,
		"giftCards:\n  lookupVoucher:\n    code: /voucher/cardNumber\n    pin: /voucher/pinCode\n", true)

	dGiftQuoteEnvelope = declareDimension("quote-shape", []string{"OPEN-GIFT-QUOTE-SHAPE", "OPEN-BETTING-QUOTE-SHAPE"},
		"The envelope of the gift and betting quotes.",
		quote("Query parameters and response of the gift quote: not shown", "Query parameters and response of the betting quote: not shown"),
		"gift-quote-envelope-a", "Envelope A.")
	GiftQuoteFlat = dGiftQuoteEnvelope.setting("gift-quote-flat", "GET /gift-cards/quote answers the quote fields at top level, without an envelope.",
		`"Query parameters and response of the gift quote: not shown"`,
		"giftCards:\n  quote:\n    subtotalPointer: /subtotalNgn\n    feePointer: /feeNgn\n    totalPointer: /totalNgn\n", true)

	BettingQuoteFlat = dGiftQuoteEnvelope.setting("betting-quote-flat", "GET /betting/quote answers the quote fields at top level, without an envelope.",
		`"Query parameters and response of the betting quote: not shown"`,
		"betting:\n  quote:\n    amountPointer: /amount\n    feePointer: /fee\n    totalPointer: /totalDebit\n", true)

	dGiftOutcome = declareDimension("gift-purchase-outcome", []string{"OPEN-GIFT-PURCHASE-OUTCOME"},
		"Whether a purchase is fulfilled at once or PROCESSING first.",
		quote("Successful outcome is status 200 with voucher details", "When the order is in PROCESSING, the call triggers reconciliation"),
		"gift-purchase-processing-first", "A purchase answers a PROCESSING order (voucher locked); verify reconciles it.")
	GiftSuccessAtOnce = dGiftOutcome.setting("gift-purchase-success-at-once", "A purchase is fulfilled at once: it answers SUCCESS with the unlocked voucher.",
		`"Successful outcome is status 200 with voucher details"`, "", false)

	dGiftQuoteTotal = declareDimension("quote-pricing", []string{"OPEN-QUOTE-ARITHMETIC"},
		"Whether a quote's total adds its fee to its subtotal.",
		quote("Returns the total NGN charge against the corporate vault", "Returns processing fees and the total vault debit for a betting deposit"),
		"quote-total-is-sum", "total = subtotal + fee (gift); totalDebit = amount + fee (betting).")
	QuoteFeeIncluded = dGiftQuoteTotal.setting("quote-fee-included", "Quotes show the fee for information: the gift subtotal already includes it (total = subtotal) and a betting deposit pays its fee from the amount (totalDebit = amount).",
		`"Gift quote and betting quote response fields: not shown"`, "", true)

	dGiftPrice = declareDimension("gift-price-stability", []string{"OPEN-QUOTE-STABILITY"},
		"Whether the NGN price moves between a quote and a purchase.",
		quote("Returns the total NGN charge against the corporate vault for a gift card product and face value"),
		"gift-price-fixed", "The exchange rate is fixed: a purchase costs what the quote said.")
	GiftPriceMoves = dGiftPrice.setting("gift-price-moves", "The exchange rate moves by up to 0.40 NGN per USD every second (live FX): a purchase costs the rate of its second.",
		`the quote "returns the total NGN charge"; how long a quote holds is not shown`, "", false)

	dGiftTxnRef = declareDimension("gift-transaction-reference", []string{"OPEN-GIFT-TRANSACTION-REFERENCE"},
		"What the internal transaction reference of verify and lookup is.",
		quote("the client order reference or the internal transaction reference", "transactionId | string | internal transaction id"),
		"gift-transaction-reference-is-id", "The transaction reference is the order's transactionId.")
	GiftTxnRefSeparate = dGiftTxnRef.setting("gift-transaction-reference-separate", "Orders carry a transactionReference (TXN-...) beside transactionId; verify and lookup find an order by client reference or transactionReference, not by transactionId.",
		`"the internal transaction reference"; "transactionId | internal transaction id" (that they are the same value is not stated)`, "", true)

	dGiftDebit = declareDimension("gift-debit-timing", []string{"OPEN-GIFT-DEBIT-TIMING"},
		"When the NGN charge is debited.",
		quote("The charge is debited in NGN from the vault"),
		"gift-debit-at-purchase", "At purchase.")
	GiftDebitOnFulfil = dGiftDebit.setting("gift-debit-on-fulfilment", "The NGN charge is reserved at purchase and debited when the order is fulfilled.",
		`"The charge is debited in NGN from the vault" (when is not stated)`, "", false)

	dGiftInstructions = declareDimension("voucher-rendering", []string{"OPEN-VOUCHER-STABILITY"},
		"Whether voucher instructions read the same on every call.",
		quote("voucher | object | code, pin, serialNumber, instructions (strings)"),
		"gift-instructions-fixed", "Instructions are fixed text.")
	GiftInstructionsVary = dGiftInstructions.setting("gift-instructions-per-call", "Voucher instructions end with the time of the answer (\"... valid as of <time>\").",
		`"instructions (strings)" (their stability is not stated; only "it does not charge again" is)`, "", true)

	dGiftDup = declareDimension("gift-duplicate-reference", []string{"OPEN-DUPLICATE-REFERENCE"},
		"A second purchase with an existing order reference.",
		quote("409 | duplicate idempotency reference", "it does not charge again"),
		"gift-duplicate-409", "409 conflict.")
	GiftDupReplay = dGiftDup.setting("gift-duplicate-reference-replay", "A second purchase with an existing order reference replays the original order (200) instead of 409.",
		`409: "duplicate idempotency reference"; verify "does not charge again"`, "", false)
	GiftDupCompares = dGiftDup.setting("gift-duplicate-compares-body", "A second purchase with an existing reference and the same body replays the order (200); with another body it is refused with 422.",
		`409: "duplicate idempotency reference" (how a reused reference with other parameters is answered is not shown)`, "", false)

	dGiftAmount = declareDimension("gift-amount-rules", []string{"OPEN-AMOUNT-CAPS"},
		"Which face values a purchase accepts.",
		quote("Maximum values for amounts and spend limits, and bounds of gift card amounts: not shown"),
		"gift-amount-product-range", "Any amount within the product's range, in cents.")
	GiftMax100 = dGiftAmount.setting("gift-amount-5-to-100", "Face values from 5.00 to 100.00 only (a program limit below the product's own range).",
		`"bounds of gift card amounts: not shown"`, "", false)
	GiftDenominations = dGiftAmount.setting("gift-amount-denominations", "Only the denominations 10, 25, 50 and 100 are sold.",
		`"bounds of gift card amounts: not shown"`, "", false)

	dGiftRecipient = declareDimension("gift-purchase-rules", []string{"OPEN-GIFT-PURCHASE-RULES"},
		"Whether the recipient's e-mail must be deliverable.",
		quote("recipientEmail (string)"),
		"gift-recipient-any-email", "Any well-formed e-mail.")
	GiftVelocity = dGiftRecipient.setting("gift-purchases-per-recipient-3", "At most 3 purchases per recipient name and merchant in an hour; the 4th is refused with 400.",
		`other failure conditions: not shown`, "", false)
	GiftRecipientDeliverable = dGiftRecipient.setting("gift-recipient-deliverable", "Recipient e-mails at domains that take no mail (example.com/.org/.net, .test, .invalid, .example, .localhost) are refused with 400.",
		`other failure conditions: not shown`, "", false)
)
