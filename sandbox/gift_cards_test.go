package sandbox

import (
	"regexp"
	"strings"
	"testing"
)

func TestGiftQuote(t *testing.T) {
	h := newSbx(t, Options{})
	tok := h.token(alpha, alphaTest)
	r := h.api("GET", "/gift-cards/quote?productCode=AMAZON_US&amount=25", tok, nil).want(200)
	want := map[string]string{"data.faceValue": "25.00", "data.exchangeRate": "1550.00", "data.subtotalNgn": "38750.00",
		"data.feeNgn": "250.00", "data.totalNgn": "39000.00"}
	for k, v := range want {
		if r.num(k) != v {
			t.Errorf("%s = %s, want %s", k, r.num(k), v)
		}
	}
	if r.s("data.productName") != "Amazon.com" || r.s("data.currency") != "USD" || r.s("data.productCode") != "AMAZON_US" {
		t.Fatalf("quote: %s", r.body)
	}
	if r := h.api("GET", "/gift-cards/quote?productCode=STEAM_US&amount=10.01", tok, nil).want(200); r.num("data.subtotalNgn") != "15515.50" {
		t.Fatalf("10.01 × 1550: %s", r.body)
	}
	for _, tt := range []struct{ q, msg string }{
		{"?amount=25", "productCode should not be empty"},
		{"?productCode=NOPE&amount=25", "productCode must be one of the following values: AMAZON_US, APPLE_US, NETFLIX_US, STEAM_US"},
		{"?productCode=AMAZON_US", "amount should not be empty"},
		{"?productCode=AMAZON_US&amount=4.99", "amount must not be less than 5"},
		{"?productCode=APPLE_US&amount=9", "amount must not be less than 10"},
		{"?productCode=NETFLIX_US&amount=201", "amount must not be greater than 200"},
		{"?productCode=AMAZON_US&amount=abc", "amount must be a number"},
		{"?productCode=AMAZON_US&amount=5.001", "at most 2 decimal places"},
	} {
		h.api("GET", "/gift-cards/quote"+tt.q, tok, nil).wantValidation(tt.msg)
	}
}

var reGCT = regexp.MustCompile(`^GCT_[0-9A-F]+$`)

func TestGiftPurchaseVerifyLookup(t *testing.T) {
	h := newSbx(t, Options{})
	tok := h.token(alpha, alphaTest)
	ngn := func() string {
		return h.ctl("GET", "/merchants/mer_demo_alpha", nil).want(200).num("ngnBalance")
	}
	r := h.api("POST", "/gift-cards/purchase", tok, `{"amount":25,"recipientEmail":"r@example.com","recipientName":"Rita","reference":"order-1","note":"hi"}`).want(200)
	txID := r.s("data.transactionId")
	if r.s("data.orderStatus") != "PROCESSING" || r.get("data.isSuccessful") != false || r.s("data.voucher.code") != "" ||
		r.s("data.voucher.pin") != "" || r.s("data.voucher.serialNumber") == "" || r.s("data.voucher.instructions") == "" ||
		r.num("data.costNgn") != "39000.00" || r.s("data.reference") != "order-1" || !reGCT.MatchString(txID) ||
		r.s("data.recipient.email") != "r@example.com" || r.s("data.recipient.name") != "Rita" || r.s("data.environment") != "TEST" ||
		r.s("data.productCode") != "AMAZON_US" {
		t.Fatalf("purchase: %s", r.body)
	}
	if got := ngn(); got != "4961000.00" {
		t.Fatalf("NGN after purchase: %s", got)
	}
	// Lookup does not reconcile.
	l := h.api("GET", "/gift-cards/transactions/"+txID, tok, nil).want(200)
	if l.s("data.orderStatus") != "PROCESSING" || l.s("data.voucher.code") != "" {
		t.Fatalf("lookup: %s", l.body)
	}
	// Verify reconciles, by client reference or transactionId, flat, and never charges again.
	var code string
	for i, ref := range []string{"order-1", txID, "order-1"} {
		v := h.api("GET", "/gift-cards/verify/"+ref, tok, nil).want(200)
		if v.has("data") || v.s("status") != "success" || v.s("orderStatus") != "SUCCESS" || v.get("isSuccessful") != true ||
			v.s("voucher.code") == "" || len(v.s("voucher.pin")) != 6 || v.s("transactionId") != txID {
			t.Fatalf("verify %d: %s", i, v.body)
		}
		if code == "" {
			code = v.s("voucher.code")
		} else if v.s("voucher.code") != code {
			t.Fatalf("voucher code changed between verifies")
		}
	}
	if got := ngn(); got != "4961000.00" {
		t.Fatalf("verify charged again: NGN %s", got)
	}
	if l := h.api("GET", "/gift-cards/transactions/order-1", tok, nil).want(200); l.s("data.voucher.code") != code {
		t.Fatalf("lookup after verify: %s", l.body)
	}
	// 404 variant naming the reference, for verify and lookup, and across merchants.
	for _, p := range []string{"/gift-cards/verify/missing-ref", "/gift-cards/transactions/missing-ref"} {
		nf := h.api("GET", p, tok, nil).want(404)
		if nf.s("message") != "Gift card order with reference 'missing-ref' not found" || nf.s("error") != "Not Found" ||
			nf.num("statusCode") != "404" || len(nf.v.(map[string]any)) != 3 {
			t.Fatalf("gift 404: %s", nf.body)
		}
	}
	h.api("GET", "/gift-cards/verify/order-1", h.token(bravo, bravoTest), nil).want(404)

	// Duplicate reference, bad input, NGN shortfall.
	h.api("POST", "/gift-cards/purchase", tok, `{"amount":25,"recipientEmail":"r@example.com","recipientName":"R","reference":"order-1"}`).
		wantError(409, "Gift card order with reference 'order-1' already exists")
	for _, tt := range []struct{ body, msg string }{
		{`{}`, "amount should not be empty"},
		{`{"amount":25,"recipientName":"R"}`, "recipientEmail should not be empty"},
		{`{"amount":25,"recipientEmail":"bad","recipientName":"R"}`, "recipientEmail must be an email"},
		{`{"amount":25,"recipientEmail":"r@x.io"}`, "recipientName should not be empty"},
		{`{"amount":501,"recipientEmail":"r@x.io","recipientName":"R"}`, "amount must not be greater than 500"},
		{`{"amount":10,"recipientEmail":"r@x.io","recipientName":"R","productCode":"NETFLIX_US"}`, "amount must not be less than 15"},
		{`{"amount":10,"recipientEmail":"r@x.io","recipientName":"R","productCode":"X"}`, "productCode must be one of"},
		{`{"amount":10,"recipientEmail":"r@x.io","recipientName":"R","recipientPhone":"x"}`, "recipientPhone must be a valid phone number"},
		{`{"amount":10,"recipientEmail":"r@x.io","recipientName":"R","note":"` + strings.Repeat("n", 1001) + `"}`, "note must be shorter"},
	} {
		h.api("POST", "/gift-cards/purchase", tok, tt.body).wantValidation(tt.msg)
	}
	h.ctl("PUT", "/merchants/mer_demo_alpha/balances", `{"environment":"TEST","ngnBalance":1000}`).want(200)
	h.api("POST", "/gift-cards/purchase", tok, `{"amount":5,"recipientEmail":"r@x.io","recipientName":"R"}`).
		wantError(400, "Insufficient NGN balance: required 8000.00 NGN, available 1000.00 NGN")
	// Generated reference and the variant fields.
	g := h.api("POST", "/gift-cards/purchase", h.token(alpha, alphaLive),
		`{"amount":50,"recipientEmail":"r@x.io","recipientName":"R","productCode":"STEAM_US","variantCode":"STEAM_50","recipientPhone":"+15551234567"}`).want(200)
	if !strings.HasPrefix(g.s("data.reference"), "gft_") || g.s("data.environment") != "LIVE" || g.s("data.productName") != "Steam" {
		t.Fatalf("generated ref: %s", g.body)
	}
}

func TestBettingQuote(t *testing.T) {
	h := newSbx(t, Options{})
	tok := h.token(alpha, alphaTest)
	tests := []struct{ q, provider, amount, fee, total string }{
		{"?amount=5000", "BET9JA", "5000.00", "75.00", "5075.00"},
		{"?amount=100&provider=sportybet", "SPORTYBET", "100.00", "50.00", "150.00"}, // minimum fee
		{"?amount=3333.33", "BET9JA", "3333.33", "50.00", "3383.33"},
		{"?amount=3367", "BET9JA", "3367.00", "50.51", "3417.51"}, // 50.505 rounds half up
		{"?amount=5000000", "BET9JA", "5000000.00", "75000.00", "5075000.00"},
	}
	for _, tt := range tests {
		r := h.api("GET", "/betting/quote"+tt.q, tok, nil).want(200)
		if r.s("data.provider") != tt.provider || r.num("data.amount") != tt.amount || r.s("data.currency") != "NGN" ||
			r.num("data.fee") != tt.fee || r.num("data.totalDebit") != tt.total {
			t.Errorf("%s: %s", tt.q, r.body)
		}
	}
	for _, tt := range []struct{ q, msg string }{
		{"", "amount should not be empty"},
		{"?amount=99.99", "amount must not be less than 100"},
		{"?amount=5000000.01", "amount must not be greater than 5000000"},
		{"?amount=-5", "amount must not be less than 100"},
		{"?amount=1e999", "amount must not be greater than"},
		{"?amount=100&provider=bad%20name", "provider must contain"},
		{"?amount=100&provider=", "provider should not be empty"},
	} {
		h.api("GET", "/betting/quote"+tt.q, tok, nil).wantValidation(tt.msg)
	}
}
