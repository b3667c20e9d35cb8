package sandbox

// Faults of the area "Gift cards and quotes" (the registry: faults.go).

var (
	fBettingQuoteMissing = declareFault("Gift cards and quotes", "betting-quote-missing", "GET /betting/quote does not exist (404 Cannot GET).",
		"QUOTE-02")
	fGiftCostDiffers = declareFault("Gift cards and quotes", "gift-cost-differs-from-quote", "Gift purchases charge (and report as costNgn) the quote's subtotal without its fee.",
		"QUOTE-03")
	fGiftHoldIgnored = declareFault("Gift cards and quotes", "gift-hold-ignored", "Verify completes an order whose upstream reconciliation has not completed (held).",
		"GIFT-15")
	fGiftNotDebited = declareFault("Gift cards and quotes", "gift-purchase-not-debited", "A gift card purchase does not debit the test NGN balance.",
		"GIFT-03")
	fGiftNameOptional = declareFault("Gift cards and quotes", "gift-recipient-name-optional", "A gift card purchase without recipientName is accepted.",
		"GIFT-02")
	fGiftVerifyByTxnID404 = declareFault("Gift cards and quotes", "gift-verify-by-txn-id-404", "Verify finds gift orders by client reference only; the transactionId gives 404.",
		"GIFT-12")
	fGiftVerifyChargesAgain = declareFault("Gift cards and quotes", "gift-verify-charges-again", "Each verify of a gift order debits the NGN balance again.",
		"GIFT-13")
	fGiftNeverReconciles = declareFault("Gift cards and quotes", "gift-verify-never-reconciles", "Verify leaves a PROCESSING gift order PROCESSING with the voucher locked.",
		"GIFT-11")
)
