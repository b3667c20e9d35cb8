package sandbox

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Probes of the faults of faults_gift.go: each returns true when it
// observes the violated rule.
var _ = addProbes(map[string]func(h *sbx) bool{
	"betting-quote-missing": func(h *sbx) bool {
		return h.api("GET", "/betting/quote?amount=5000", h.token(alpha, alphaTest), nil).code != 200
	},
	"gift-cost-differs-from-quote": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		total := h.api("GET", "/gift-cards/quote?productCode=AMAZON_US&amount=5", tok, nil).want(200).num("data.totalNgn")
		return h.api("POST", "/gift-cards/purchase", tok, fmt.Sprintf(giftBody, "g1")).want(200).num("data.costNgn") != total
	},
	"gift-hold-ignored": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		h.api("POST", "/gift-cards/purchase", tok, fmt.Sprintf(giftBody, "g1")).want(200)
		h.ctl("PUT", "/gift-orders/g1/hold", `{"hold":true}`).want(200)
		return h.api("GET", "/gift-cards/verify/g1", tok, nil).want(200).s("orderStatus") != "PROCESSING"
	},
	"gift-purchase-not-debited": func(h *sbx) bool {
		h.api("POST", "/gift-cards/purchase", h.token(alpha, alphaTest), fmt.Sprintf(giftBody, "g1")).want(200)
		return h.ctl("GET", "/merchants/"+alpha, nil).num("ngnBalance") == "5000000.00"
	},
	"gift-recipient-name-optional": func(h *sbx) bool {
		return h.api("POST", "/gift-cards/purchase", h.token(alpha, alphaTest), `{"amount":5,"recipientEmail":"a@b.co"}`).code == 200
	},
	"gift-verify-by-txn-id-404": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		txn := h.api("POST", "/gift-cards/purchase", tok, fmt.Sprintf(giftBody, "g1")).want(200).s("data.transactionId")
		return h.api("GET", "/gift-cards/verify/"+txn, tok, nil).code != 200
	},
	"gift-verify-charges-again": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		h.api("POST", "/gift-cards/purchase", tok, `{"amount":5,"recipientEmail":"a@b.co","recipientName":"A","reference":"g1"}`).want(200)
		h.api("GET", "/gift-cards/verify/g1", tok, nil).want(200)
		h.api("GET", "/gift-cards/verify/g1", tok, nil).want(200)
		return h.ctl("GET", "/merchants/mer_demo_alpha", nil).num("ngnBalance") != "4992000.00"
	},
	// gift cards and quotes
	"gift-verify-never-reconciles": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		h.api("POST", "/gift-cards/purchase", tok, fmt.Sprintf(giftBody, "g1")).want(200)
		return h.api("GET", "/gift-cards/verify/g1", tok, nil).want(200).s("orderStatus") != "SUCCESS"
	},
})

// Probes of the gift 404, gift-purchase-answers-201 and the verified
// order's member faults.
var _ = addProbes(map[string]func(h *sbx) bool{
	"gift-not-found-400": func(h *sbx) bool {
		return h.api("GET", "/gift-cards/verify/nosuch", h.token(alpha, alphaTest), nil).code != 404
	},
	"gift-not-found-message-no-reference": func(h *sbx) bool {
		return !strings.Contains(msgOf(h.api("GET", "/gift-cards/verify/nosuch", h.token(alpha, alphaTest), nil)), "nosuch")
	},
	"gift-purchase-answers-201": func(h *sbx) bool {
		return h.api("POST", "/gift-cards/purchase", h.token(alpha, alphaTest), fmt.Sprintf(giftBody, "g1")).code != 200
	},
	"gift-order-members-wrong": func(h *sbx) bool {
		r := verifiedGift(h)
		_, numFace := r.get("faceValue").(json.Number)
		_, boolOK := r.get("isSuccessful").(bool)
		return r.s("reference") != "g1" || !numFace || !boolOK || r.s("recipient.email") != "a@b.co" || r.s("recipient.name") != "A" ||
			r.s("environment") != "TEST"
	},
})

// verifiedGift purchases the order g1 as the main TEST merchant and verifies it.
func verifiedGift(h *sbx) *resp {
	tok := h.token(alpha, alphaTest)
	h.api("POST", "/gift-cards/purchase", tok, fmt.Sprintf(giftBody, "g1")).want(200)
	return h.api("GET", "/gift-cards/verify/g1", tok, nil).want(200)
}
