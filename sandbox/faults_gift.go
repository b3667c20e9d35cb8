package sandbox

import (
	"fmt"
	"net/http"
)

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

var (
	fGiftNotFound400 = declareFault("Gift cards and quotes", "gift-not-found-400", "Verify and transaction lookup of a reference no order matches answer 400 instead of 404.",
		"GIFT-14", "GIFT-18", "ERR-10")
	fGiftNotFoundNoRef = declareFault("Gift cards and quotes", "gift-not-found-message-no-reference", "The gift order 404 says the order was not found without naming the reference.",
		"ERR-19")
)

var fGiftPurchase201 = declareFault("Gift cards and quotes", "gift-purchase-answers-201", "A successful gift card purchase answers 201 instead of 200.",
	"GIFT-01")

// giftOrderMemberFaults each corrupt one member of the verified gift order
// (GET /gift-cards/verify/{reference}), so that the suites' rule for it
// alone fails.
var giftOrderMemberFaults = []struct {
	name, desc, req string
	mutate          func(order map[string]any)
}{
	{"gift-order-reference-is-transaction-id", "The verified order's reference is its transactionId instead of the client order reference.", "GIFT-06",
		func(o map[string]any) { o["reference"] = o["transactionId"] }},
	{"gift-order-face-value-string", "The verified order's faceValue is a string instead of a number.", "GIFT-07",
		func(o map[string]any) { o["faceValue"] = fmt.Sprint(o["faceValue"]) }},
	{"gift-order-recipient-swapped", "The verified order's recipient carries the purchase's name as email and its email as name.", "GIFT-08",
		func(o map[string]any) {
			if r, ok := o["recipient"].(map[string]any); ok {
				r["email"], r["name"] = r["name"], r["email"]
			}
		}},
	{"gift-order-is-successful-string", "The verified order's isSuccessful is a string instead of a boolean.", "GIFT-09",
		func(o map[string]any) { o["isSuccessful"] = fmt.Sprint(o["isSuccessful"]) }},
	{"gift-order-environment-flipped", "The verified order states the other environment than that of the credentials.", "GIFT-10",
		func(o map[string]any) {
			if o["environment"] == "TEST" {
				o["environment"] = "LIVE"
			} else {
				o["environment"] = "TEST"
			}
		}},
}

var _ = func() bool {
	for _, f := range giftOrderMemberFaults {
		declareMemberFault("Gift cards and quotes", f.name, f.desc, http.MethodGet, pathEnds("/gift-cards/verify/", ""), f.mutate, f.req)
	}
	return true
}()
