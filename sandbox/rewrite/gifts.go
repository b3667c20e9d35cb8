package rewrite

import (
	"strings"

	"github.com/merchant-harness/mph/sandbox/variant"
)

// rewriteGiftOrder applies the gift order settings to an order object.
func (s *Rewriter) rewriteGiftOrder(x map[string]any) {
	v := &s.variants
	processing := x["orderStatus"] == "PROCESSING"
	vo, _ := x["voucher"].(map[string]any)
	if v.On(variant.GiftTwoStep) && processing {
		x["voucher"] = nil
	}
	if id, ok := x["transactionId"].(string); ok && v.On(variant.GiftTxnRefSeparate) {
		x["transactionReference"] = "TXN-" + strings.TrimPrefix(id, "GCT_")
	}
	switch {
	case v.On(variant.GiftSerialNull) && vo != nil:
		vo["serialNumber"] = nil
	case v.On(variant.GiftDescriptiveAbsent):
		delete(x, "productName")
		delete(x, "recipient")
		delete(x, "environment")
	case v.On(variant.GiftProcessingSparse) && processing:
		delete(x, "voucher")
		x["transactionId"] = nil
	}
	if in, ok := vo["instructions"].(string); ok && v.On(variant.GiftInstructionsVary) {
		vo["instructions"] = in + " Valid as of " + s.stamp() + "."
	}
	if processing {
		switch {
		case v.On(variant.GiftPending):
			x["orderStatus"] = "PENDING"
		case v.On(variant.GiftInProgress):
			x["orderStatus"] = "IN_PROGRESS"
		}
	}
}

// rewriteQuote applies quote-fee-included to a quote answer's data.
func (s *Rewriter) rewriteQuote(rest string, d map[string]any) {
	if !s.variants.On(variant.QuoteFeeIncluded) || d == nil {
		return
	}
	switch rest {
	case "/gift-cards/quote":
		d["subtotalNgn"] = d["totalNgn"]
	case "/betting/quote":
		d["totalDebit"] = d["amount"]
	}
}
