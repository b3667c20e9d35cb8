package sandbox

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/merchant-harness/mph/sandbox/controls"
	"github.com/merchant-harness/mph/sandbox/wording"
)

func TestControlsAdminKey(t *testing.T) {
	h := newSbx(t, Options{})
	r := h.raw("GET", "/_sandbox/capabilities", "").want(200)
	if r.get("sandbox") != true || r.s("basePath") != "/v1/merchant" || len(r.list("controls")) != len(controls.Names) {
		t.Fatalf("capabilities: %s", r.body)
	}
	for _, c := range []struct{ method, path string }{
		{"GET", "/_sandbox/clock"}, {"POST", "/_sandbox/clock/advance"}, {"POST", "/_sandbox/reset"},
		{"POST", "/_sandbox/cards/crd_x/transactions"}, {"POST", "/_sandbox/transactions/txn_x/settle"},
		{"PUT", "/_sandbox/merchants/mer_demo_alpha/webhook"}, {"GET", "/_sandbox/webhooks/deliveries"},
		{"GET", "/_sandbox/merchants/mer_demo_alpha"}, {"PUT", "/_sandbox/merchants/mer_demo_alpha/balances"},
		{"PUT", "/_sandbox/merchants/mer_demo_alpha/ip-whitelist"}, {"PUT", "/_sandbox/gift-orders/x/hold"},
		{"GET", "/_sandbox/latency"}, {"PUT", "/_sandbox/latency"}, {"GET", "/_sandbox/rate-limits"}, {"PUT", "/_sandbox/rate-limits"},
	} {
		h.raw(c.method, c.path, "").wantError(401, "X-Sandbox-Admin-Key")
		h.raw(c.method, c.path, "", "X-Sandbox-Admin-Key: wrong").wantError(401, "X-Sandbox-Admin-Key")
	}
	h.ctl("GET", "/nope", nil).wantError(404, "Cannot GET /_sandbox/nope")
	h.ctl("DELETE", "/clock", nil).wantError(404, "Cannot DELETE")
	// A custom admin key replaces the default.
	h2 := newSbx(t, Options{AdminKey: "custom"})
	h2.ctl("GET", "/clock", nil).want(401)
	h2.raw("GET", "/_sandbox/clock", "", "X-Sandbox-Admin-Key: custom").want(200)
}

func TestControlClock(t *testing.T) {
	h := newSbx(t, Options{})
	r := h.ctl("GET", "/clock", nil).want(200)
	if r.s("now") != "2026-03-15T12:00:00.000Z" || r.num("offsetSeconds") != "0" {
		t.Fatalf("clock: %s", r.body)
	}
	r = h.ctl("POST", "/clock/advance", `{"seconds":901}`).want(200)
	if r.s("now") != "2026-03-15T12:15:01.000Z" || r.num("offsetSeconds") != "901" {
		t.Fatalf("advance: %s", r.body)
	}
	for _, b := range []string{`{}`, `{"seconds":-1}`, `{"seconds":1.5}`, `{"seconds":"5"}`, `{"seconds":1e30}`} {
		h.ctl("POST", "/clock/advance", b).want(400)
	}
	// Timestamps of the merchant API follow the sandbox clock.
	if r := h.api("POST", "/auth/token", "", map[string]string{"merchantId": alpha, "secretKey": alphaTest}); r.s("timestamp") != "2026-03-15T12:15:01.000Z" {
		t.Fatalf("envelope timestamp: %s", r.body)
	}
}

func TestControlReset(t *testing.T) {
	h := newSbx(t, Options{})
	tok := h.token(alpha, alphaTest)
	h.card(tok, h.customer(tok), "100")
	h.ctl("POST", "/clock/advance", `{"seconds":60}`).want(200)
	h.ctl("PUT", "/latency", `{"ms":1}`).want(200)
	h.ctl("PUT", "/rate-limits", `{"read":{"rate":1,"burst":1}}`).want(200)
	h.ctl("PUT", "/merchants/mer_demo_alpha/webhook", `{"url":"http://127.0.0.1:1/x"}`).want(200)
	h.ctl("PUT", "/merchants/mer_demo_delta/ip-whitelist", `{"environment":"TEST","ips":[]}`).want(200)
	h.ctl("POST", "/reset", nil).want(200)
	if r := h.ctl("GET", "/clock", nil); r.num("offsetSeconds") != "0" {
		t.Fatalf("clock offset after reset: %s", r.body)
	}
	if r := h.ctl("GET", "/latency", nil); r.num("ms") != "0" {
		t.Fatalf("latency after reset: %s", r.body)
	}
	if r := h.ctl("GET", "/rate-limits", nil); r.num("read.rate") != "0" {
		t.Fatalf("rate limits after reset must be the start-up ones (off here): %s", r.body)
	}
	b := h.ctl("GET", "/merchants/mer_demo_alpha", nil).want(200)
	if b.num("vaultBalance") != "10000.00" || b.num("ngnBalance") != "5000000.00" || b.num("feesCollected") != "0.00" || b.num("cards") != "0" {
		t.Fatalf("balances after reset: %s", b.body)
	}
	// Tokens survive a reset; state does not.
	if n := len(h.api("GET", "/cards", tok, nil).want(200).list("data")); n != 0 {
		t.Fatalf("cards after reset: %d", n)
	}
	h.api("POST", "/auth/token", "", map[string]string{"merchantId": delta, "secretKey": deltaTest}).want(403)
	r := h.api("POST", "/cards/x/simulate-webhook", tok, `{"event_type":"decline"}`)
	r.wantError(404, wording.CardNotFound)
}

func TestControlTransactions(t *testing.T) {
	h := newSbx(t, Options{})
	tok := h.token(alpha, alphaTest)
	id := h.card(tok, h.customer(tok), "100").s("data.id")
	rv := newReceiver(t, 200)
	h.ctl("PUT", "/merchants/mer_demo_alpha/webhook", map[string]string{"url": rv.srv.URL, "secret": "s"}).want(200)
	txn := func(amount string) *resp {
		return h.ctl("POST", "/cards/"+id+"/transactions", `{"amount":`+amount+`}`).want(200)
	}
	approved := txn("12.50")
	if approved.get("approved") != true || approved.get("declineReason") != nil || approved.num("balanceAmount") != "87.50" ||
		!strings.HasPrefix(approved.s("transactionId"), "txn_") {
		t.Fatalf("approved: %s", approved.body)
	}
	if r := h.api("GET", "/cards/"+id, tok, nil); r.num("data.balanceAmount") != "87.50" {
		t.Fatalf("balance is not real time: %s", r.body)
	}
	decline := func(amount, reason string) {
		t.Helper()
		r := txn(amount)
		if r.get("approved") != false || r.s("declineReason") != reason {
			t.Fatalf("amount %s: want %s: %s", amount, reason, r.body)
		}
	}
	decline("87.51", "insufficient_funds")
	h.api("PUT", "/cards/"+id+"/spend-limits", tok, `{"transactionLimit":20,"dailyLimit":30,"monthlyLimit":45,"allTimeLimit":60}`).want(200)
	decline("20.01", "transaction_limit")
	txn("17.50")                   // day 30.00 total with 12.50
	decline("0.01", "daily_limit") // day is full
	h.ctl("POST", "/clock/advance", fmt.Sprintf(`{"seconds":%d}`, 86400)).want(200)
	txn("15")                        // month 45.00
	decline("0.01", "monthly_limit") // month is full
	h.ctl("POST", "/clock/advance", fmt.Sprintf(`{"seconds":%d}`, 31*86400)).want(200)
	txn("15")                         // all time 60.00
	decline("0.01", "all_time_limit") // lifetime cap
	tok = h.token(alpha, alphaTest)   // the clock moved past the first token's expiry
	h.api("PATCH", "/cards/"+id+"/status", tok, `{"status":"FROZEN"}`).want(200)
	decline("0.01", "card_frozen")

	// Every attempt emitted the authorization or declined webhook.
	got := rv.all()
	if len(got) != 10 {
		t.Fatalf("webhooks: %d", len(got))
	}
	if k := got[0].hdr.Get("X-MPH-Event"); k != "virtualcard.transaction.authorization" {
		t.Fatalf("first event %s", k)
	}
	if k := got[1].hdr.Get("X-MPH-Event"); k != "virtualcard.transaction.declined" || !strings.Contains(string(got[1].body), `"simulated":false`) {
		t.Fatalf("second event %s %s", k, got[1].body)
	}

	// Settle once, then 409; unknown 404; declined 400.
	tx := approved.s("transactionId")
	s := h.ctl("POST", "/transactions/"+tx+"/settle", nil).want(200)
	if s.get("settled") != true || s.num("amount") != "12.50" {
		t.Fatalf("settle: %s", s.body)
	}
	h.ctl("POST", "/transactions/"+tx+"/settle", nil).wantError(409, "transaction already settled")
	h.ctl("POST", "/transactions/txn_nope/settle", nil).wantError(404, "Transaction not found")
	last := h.ctl("POST", "/cards/"+id+"/transactions", `{"amount":1}`).want(200).s("transactionId")
	h.ctl("POST", "/transactions/"+last+"/settle", nil).wantError(400, "declined")
	if k := rv.all()[10].hdr.Get("X-MPH-Event"); k != "virtualcard.transaction.settlement" {
		t.Fatalf("settlement event %s", k)
	}

	// Bad input.
	h.ctl("POST", "/cards/crd_nope/transactions", `{"amount":1}`).wantError(404, wording.CardNotFound)
	for _, b := range []string{`{}`, `{"amount":0}`, `{"amount":-1}`, `{"amount":"1"}`, `{"amount":1.001}`} {
		h.ctl("POST", "/cards/"+id+"/transactions", b).want(400)
	}
	// Conservation: vault + cards + fees + spent is the seed.
	b := h.ctl("GET", "/merchants/mer_demo_alpha?environment=TEST", nil).want(200)
	if b.num("spentAmount") != "60.00" || b.num("cardBalances") != "40.00" {
		t.Fatalf("balances: %s", b.body)
	}
}

func TestControlWebhookAndDeliveries(t *testing.T) {
	h := newSbx(t, Options{})
	r := h.ctl("PUT", "/merchants/mer_demo_alpha/webhook", `{"url":"https://example.test/hook"}`).want(200)
	if !strings.HasPrefix(r.s("secret"), "whsec_") || r.s("url") != "https://example.test/hook" {
		t.Fatalf("generated secret: %s", r.body)
	}
	for _, b := range []string{`{}`, `{"url":"ftp://x"}`, `{"url":"not a url"}`, `{"url":5}`} {
		h.ctl("PUT", "/merchants/mer_demo_alpha/webhook", b).want(400)
	}
	h.ctl("PUT", "/merchants/mer_nope/webhook", `{"url":"http://x.test"}`).wantError(404, "Merchant not found")
	// Removing the URL: simulations skip again.
	h.ctl("PUT", "/merchants/mer_demo_alpha/webhook", `{"url":""}`).want(200)
	tok := h.token(alpha, alphaTest)
	id := h.card(tok, h.customer(tok), "5").s("data.id")
	if r := h.api("POST", "/cards/"+id+"/simulate-webhook", tok, `{"event_type":"decline"}`); r.s("data.skip_reason") != "no_webhook_url_configured" {
		t.Fatalf("after removal: %s", r.body)
	}
	if r := h.ctl("GET", "/webhooks/deliveries", nil).want(200); len(r.list("deliveries")) != 0 {
		t.Fatalf("skips are not delivery attempts: %s", r.body)
	}
	// The log keeps the last 100 attempts.
	dead := "http://127.0.0.1:1/closed"
	h.ctl("PUT", "/merchants/mer_demo_alpha/webhook", `{"url":"`+dead+`"}`).want(200)
	for range 103 {
		h.api("POST", "/cards/"+id+"/simulate-webhook", tok, `{"event_type":"decline"}`).want(200)
	}
	if n := len(h.ctl("GET", "/webhooks/deliveries", nil).list("deliveries")); n != 100 {
		t.Fatalf("log length %d", n)
	}
}

func TestControlBalances(t *testing.T) {
	h := newSbx(t, Options{})
	r := h.ctl("GET", "/merchants/mer_demo_bravo?environment=LIVE", nil).want(200)
	if r.s("environment") != "LIVE" || r.num("vaultBalance") != "10000.00" || r.num("ngnBalance") != "5000000.00" ||
		r.num("feesCollected") != "0.00" || r.num("cardBalances") != "0.00" {
		t.Fatalf("balances: %s", r.body)
	}
	h.ctl("GET", "/merchants/mer_demo_bravo?environment=PROD", nil).wantValidation("environment must be one of")
	h.ctl("GET", "/merchants/mer_nope", nil).wantError(404, "Merchant not found")
	r = h.ctl("PUT", "/merchants/mer_demo_alpha/balances", `{"environment":"TEST","vaultBalance":5.25}`).want(200)
	if r.num("vaultBalance") != "5.25" || r.num("ngnBalance") != "5000000.00" {
		t.Fatalf("set vault: %s", r.body)
	}
	tok := h.token(alpha, alphaTest)
	if v := h.api("GET", "/cards/config", tok, nil).num("data.vaultBalance"); v != "5.25" {
		t.Fatalf("config after set: %s", v)
	}
	// LIVE untouched.
	if r := h.ctl("GET", "/merchants/mer_demo_alpha?environment=LIVE", nil); r.num("vaultBalance") != "10000.00" {
		t.Fatalf("LIVE changed: %s", r.body)
	}
	for _, b := range []string{`{}`, `{"environment":"X"}`, `{"environment":"TEST","vaultBalance":-1}`, `{"environment":"TEST","ngnBalance":"1"}`} {
		h.ctl("PUT", "/merchants/mer_demo_alpha/balances", b).want(400)
	}
}

func TestControlWhitelistValidation(t *testing.T) {
	h := newSbx(t, Options{})
	r := h.ctl("PUT", "/merchants/mer_demo_delta/ip-whitelist", `{"environment":"TEST","ips":["203.0.113.10","::1","127.0.0.1"]}`).want(200)
	if len(r.list("ips")) != 3 {
		t.Fatalf("whitelist: %s", r.body)
	}
	h.token(delta, deltaTest) // loopback now allowed
	for _, b := range []string{`{"environment":"TEST"}`, `{"environment":"TEST","ips":["nope"]}`, `{"environment":"TEST","ips":"1.2.3.4"}`, `{"ips":[]}`} {
		h.ctl("PUT", "/merchants/mer_demo_delta/ip-whitelist", b).want(400)
	}
}

func TestControlGiftHold(t *testing.T) {
	h := newSbx(t, Options{})
	tok := h.token(alpha, alphaTest)
	tx := h.api("POST", "/gift-cards/purchase", tok, `{"amount":10,"recipientEmail":"r@x.io","recipientName":"R","reference":"held-1"}`).want(200).s("data.transactionId")
	h.ctl("PUT", "/gift-orders/held-1/hold", `{"hold":true}`).want(200)
	for range 2 {
		if v := h.api("GET", "/gift-cards/verify/"+tx, tok, nil).want(200); v.s("orderStatus") != "PROCESSING" || v.get("isSuccessful") != false || v.s("voucher.code") != "" {
			t.Fatalf("held order reconciled: %s", v.body)
		}
	}
	h.ctl("PUT", "/gift-orders/"+tx+"/hold", `{"hold":false}`).want(200)
	if v := h.api("GET", "/gift-cards/verify/held-1", tok, nil).want(200); v.s("orderStatus") != "SUCCESS" {
		t.Fatalf("released order: %s", v.body)
	}
	h.ctl("PUT", "/gift-orders/nope/hold", `{"hold":true}`).wantError(404, "Gift card order with reference 'nope' not found")
	h.ctl("PUT", "/gift-orders/held-1/hold", `{"hold":"yes"}`).wantValidation("hold must be a boolean value")
	if b := h.ctl("GET", "/merchants/mer_demo_alpha", nil); b.num("ngnBalance") != "4984250.00" {
		t.Fatalf("charged once: %s", b.body)
	}
}

func TestControlLatency(t *testing.T) {
	h := newSbx(t, Options{})
	if r := h.ctl("PUT", "/latency", `{"ms":60}`).want(200); r.num("ms") != "60" {
		t.Fatalf("latency: %s", r.body)
	}
	start := time.Now()
	h.api("GET", "/cards", "", nil).want(401)
	if el := time.Since(start); el < 60*time.Millisecond {
		t.Fatalf("latency not applied: %v", el)
	}
	start = time.Now()
	h.ctl("GET", "/clock", nil).want(200)
	if el := time.Since(start); el > 50*time.Millisecond {
		t.Fatalf("latency applied to a control: %v", el)
	}
	for _, b := range []string{`{}`, `{"ms":-1}`, `{"ms":600001}`, `{"ms":"5"}`} {
		h.ctl("PUT", "/latency", b).want(400)
	}
}
