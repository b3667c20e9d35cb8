package fault

import (
	"fmt"
	"net/http"
)

// Faults of the area "Gift cards and quotes" (the registry: fault.go).

var (
	BettingQuoteMissing = declare("Gift cards and quotes", "betting-quote-missing", "GET /betting/quote does not exist (404 Cannot GET).",
		"QUOTE-02")
	GiftCostDiffers = declare("Gift cards and quotes", "gift-cost-differs-from-quote", "Gift purchases charge (and report as costNgn) the quote's subtotal without its fee.",
		"QUOTE-03")
	GiftHoldIgnored = declare("Gift cards and quotes", "gift-hold-ignored", "Verify completes an order whose upstream reconciliation has not completed (held).",
		"GIFT-15")
	GiftNotDebited = declare("Gift cards and quotes", "gift-purchase-not-debited", "A gift card purchase does not debit the test NGN balance.",
		"GIFT-03")
	GiftNameOptional = declare("Gift cards and quotes", "gift-recipient-name-optional", "A gift card purchase without recipientName is accepted.",
		"GIFT-02")
	GiftVerifyByTxnID404 = declare("Gift cards and quotes", "gift-verify-by-txn-id-404", "Verify finds gift orders by client reference only; the transactionId gives 404.",
		"GIFT-12")
	GiftVerifyChargesAgain = declare("Gift cards and quotes", "gift-verify-charges-again", "Each verify of a gift order debits the NGN balance again.",
		"GIFT-13")
	GiftNeverReconciles = declare("Gift cards and quotes", "gift-verify-never-reconciles", "Verify leaves a PROCESSING gift order PROCESSING with the voucher locked.",
		"GIFT-11")
)

var (
	GiftNotFound400 = declare("Gift cards and quotes", "gift-not-found-400", "Verify and transaction lookup of a reference no order matches answer 400 instead of 404.",
		"GIFT-14", "GIFT-18", "ERR-10")
	GiftNotFoundNoRef = declare("Gift cards and quotes", "gift-not-found-message-no-reference", "The gift order 404 says the order was not found without naming the reference.",
		"ERR-19")
)

var GiftPurchase201 = declare("Gift cards and quotes", "gift-purchase-answers-201", "A successful gift card purchase answers 201 instead of 200.",
	"GIFT-01")

// The verified gift order (GET /gift-cards/verify/{reference}) with its
// members wrong: each member's own rule fails.
var _ = declareMember("Gift cards and quotes", "gift-order-members-wrong",
	"The verified order gives its transactionId as reference, faceValue and isSuccessful as strings, the recipient's name and email swapped and the other environment.",
	http.MethodGet, pathEnds("/gift-cards/verify/", ""),
	func(o map[string]any) {
		if _, isOrder := o["orderStatus"]; !isOrder {
			return
		}
		o["reference"] = o["transactionId"]
		o["faceValue"], o["isSuccessful"] = fmt.Sprint(o["faceValue"]), fmt.Sprint(o["isSuccessful"])
		if r, ok := o["recipient"].(map[string]any); ok {
			r["email"], r["name"] = r["name"], r["email"]
		}
		if o["environment"] == "TEST" {
			o["environment"] = "LIVE"
		} else {
			o["environment"] = "TEST"
		}
	}, "GIFT-06", "GIFT-07", "GIFT-08", "GIFT-09", "GIFT-10")
