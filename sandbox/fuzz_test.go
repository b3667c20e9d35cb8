package sandbox

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
)

// fuzzTarget is one sandbox shared by all fuzz iterations, with a card, a
// gift order and tokens to substitute into paths and headers.
type fuzzTarget struct {
	s                *Server
	test, live       string
	card, ref, order string
	n                int
}

var (
	fuzzOnce sync.Once
	fuzzT    *fuzzTarget
)

func getFuzzTarget(t testing.TB) *fuzzTarget {
	fuzzOnce.Do(func() {
		h := newSbx(t, Options{})
		tok := h.token(alpha, alphaTest)
		c := h.card(tok, h.customer(tok), "50", `,"reference":"fz-card"`)
		o := h.api("POST", "/gift-cards/purchase", tok, `{"amount":10,"recipientEmail":"r@x.io","recipientName":"R","reference":"fz-order"}`).want(200)
		fuzzT = &fuzzTarget{s: h.s, test: tok, live: h.token(alpha, alphaLive), card: c.s("data.id"), ref: "fz-card", order: o.s("data.transactionId")}
	})
	return fuzzT
}

var fuzzMethods = []string{"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"}

const (
	fzAuth  = 1 << iota // send the TEST bearer token
	fzAdmin             // send the admin key
	fzJSON              // send Content-Type: application/json
	fzLive              // send the LIVE token instead
	fzXMID              // send X-Merchant-Id of another merchant
)

// FuzzHandlers sends arbitrary method/path/body/header combinations through
// the whole handler: it must never panic, never answer 5xx, always answer
// JSON with a status from the documented set, and conserve money: for every
// merchant and environment, vault + cards + fees + spent is the same after
// the input as before (as in TestConcurrentMoneyConservation), unless the
// input was a control that sets balances or resets the world; no vault or
// card balance goes negative.
func FuzzHandlers(f *testing.F) {
	seeds := []struct {
		m     uint8
		path  string
		body  string
		flags uint8
	}{
		{1, "/v1/merchant/auth/token", `{"merchantId":"mer_demo_alpha","secretKey":"sk_test_alpha_7f3a9c2e51d84b06"}`, fzJSON},
		{1, "/v1/merchant/auth/token", `{"merchantId":1,"secretKey":[]}`, fzJSON},
		{0, "/v1/merchant/cards/config", ``, fzAuth},
		{1, "/v1/merchant/cards/customers", `{"firstName":"A","lastName":"B","email":"a@b.co","phoneNumber":"0801234567","phoneCountryCode":"+1","dateOfBirth":"1990-01-01","idType":"passport","idNumber":"1","address":"a","city":"c","state":"s","postalCode":"p","country":"USA"}`, fzAuth | fzJSON},
		{0, "/v1/merchant/cards/customers", ``, fzAuth},
		{0, "/v1/merchant/cards?status=FROZEN&search=ada&limit=7", ``, fzAuth},
		{1, "/v1/merchant/cards", `{"customerId":"cus_x","nameOnCard":"N","amount":1e3,"billingAddress":{"country":"US"}}`, fzAuth | fzJSON},
		{0, "/v1/merchant/cards/{card}", ``, fzAuth},
		{0, "/v1/merchant/cards/{ref}/secure", ``, fzAuth},
		{1, "/v1/merchant/cards/{card}/withdraw", `{"amount":0.10}`, fzAuth | fzJSON},
		{2, "/v1/merchant/cards/{card}/spend-limits", `{"dailyLimit":12.5,"allTimeLimit":null}`, fzAuth | fzJSON},
		{3, "/v1/merchant/cards/{card}/status", `{"status":"FROZEN"}`, fzAuth | fzJSON},
		{3, "/v1/merchant/cards/{card}/contact", `{"email":"a@b.co","mobile":"+2348000000000"}`, fzAuth | fzJSON},
		{1, "/v1/merchant/cards/{card}/simulate-webhook", `{"event_type":"reversal"}`, fzAuth | fzJSON},
		{1, "/v1/merchant/cards/{card}/simulate-webhook", `{"event_type":"reversal"}`, fzLive | fzJSON},
		{0, "/v1/merchant/gift-cards/quote?productCode=APPLE_US&amount=10.5", ``, fzAuth},
		{1, "/v1/merchant/gift-cards/purchase", `{"amount":25,"recipientEmail":"a@b.co","recipientName":"n","productCode":"STEAM_US"}`, fzAuth | fzJSON},
		{0, "/v1/merchant/gift-cards/verify/{order}", ``, fzAuth},
		{0, "/v1/merchant/gift-cards/transactions/fz-order", ``, fzAuth | fzXMID},
		{0, "/v1/merchant/betting/quote?amount=1e2&provider=x", ``, fzAuth},
		{0, "/_sandbox/capabilities", ``, 0},
		{1, "/_sandbox/clock/advance", `{"seconds":5}`, fzAdmin | fzJSON},
		{1, "/_sandbox/cards/{card}/transactions", `{"amount":1.25}`, fzAdmin | fzJSON},
		{1, "/_sandbox/transactions/txn_x/settle", ``, fzAdmin},
		{2, "/_sandbox/merchants/mer_demo_alpha/balances", `{"environment":"TEST","vaultBalance":1}`, fzAdmin | fzJSON},
		{2, "/_sandbox/merchants/mer_demo_alpha/ip-whitelist", `{"environment":"LIVE","ips":["::1"]}`, fzAdmin | fzJSON},
		{2, "/_sandbox/gift-orders/fz-order/hold", `{"hold":true}`, fzAdmin | fzJSON},
		{2, "/_sandbox/rate-limits", `{"read":{"rate":0.5,"burst":1}}`, fzAdmin | fzJSON},
		{2, "/_sandbox/latency", `{"ms":1}`, fzAdmin | fzJSON},
		{0, "/_sandbox/merchants/mer_demo_alpha?environment=LIVE", ``, fzAdmin},
		{4, "/v1/merchant/cards/%2e%2e", `]`, fzAuth | fzJSON},
		{1, "/v1/merchant/cards/{card}/withdraw", `{"amount":-0}`, fzAuth},
	}
	for _, s := range seeds {
		f.Add(s.m, s.path, s.body, s.flags)
	}
	f.Fuzz(func(t *testing.T, m uint8, path, body string, flags uint8) {
		ft := getFuzzTarget(t)
		s := ft.s
		// Keep iterations fast and independent of earlier ones: no latency,
		// no clock drift, no webhook deliveries to arbitrary URLs.
		ft.n++
		if ft.n%2000 == 0 {
			s.Reset()
		}
		s.latency.Store(0)
		s.clk.Reset()
		for _, mm := range s.world.Load().Merchants {
			mm.Webhook.Store(nil)
		}
		before := moneyTotals(s)
		path = strings.NewReplacer("{card}", ft.card, "{ref}", ft.ref, "{order}", ft.order).Replace(path)
		u, err := url.ParseRequestURI(path)
		if err != nil || len(path) > 8<<10 {
			return // the HTTP server itself refuses such request lines
		}
		req := &http.Request{
			Method:     fuzzMethods[int(m)%len(fuzzMethods)],
			URL:        u,
			Header:     http.Header{},
			Body:       io.NopCloser(strings.NewReader(body)),
			RemoteAddr: "127.0.0.1:9",
			Proto:      "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
			ContentLength: int64(len(body)),
		}
		req = req.WithContext(t.Context())
		switch {
		case flags&fzLive != 0:
			req.Header.Set("Authorization", "Bearer "+ft.live)
		case flags&fzAuth != 0:
			req.Header.Set("Authorization", "Bearer "+ft.test)
		}
		if flags&fzAdmin != 0 {
			req.Header.Set("X-Sandbox-Admin-Key", adminKey)
		}
		if flags&fzJSON != 0 {
			req.Header.Set("Content-Type", "application/json")
		}
		if flags&fzXMID != 0 {
			req.Header.Set("X-Merchant-Id", bravo)
		}
		w := httptest.NewRecorder()
		s.ServeHTTP(w, req)
		switch w.Code {
		case 200, 201, 400, 401, 403, 404, 409, 413, 429:
		default:
			t.Fatalf("%s %s %q: status %d: %s", req.Method, path, body, w.Code, w.Body.Bytes())
		}
		if !json.Valid(w.Body.Bytes()) || !strings.HasPrefix(w.Header().Get("Content-Type"), "application/json") {
			t.Fatalf("%s %s %q: answer is not JSON: %q", req.Method, path, body, w.Body.Bytes())
		}
		if w.Code == 200 && resetsMoney(req.Method, u.Path) {
			return
		}
		if err := checkConservation(before, moneyTotals(s)); err != "" {
			t.Fatalf("%s %s %q (status %d): %s", req.Method, path, body, w.Code, err)
		}
	})
}

// resetsMoney reports whether a successful request legitimately changes the
// money in the system: the balances control and the reset control.
func resetsMoney(method, path string) bool {
	seg := strings.Split(strings.Trim(path, "/"), "/")
	switch {
	case method == http.MethodPost && len(seg) == 2 && seg[0] == "_sandbox" && seg[1] == "reset":
		return true
	case method == http.MethodPut && len(seg) == 4 && seg[0] == "_sandbox" && seg[1] == "merchants" && seg[3] == "balances":
		return true
	}
	return false
}

// funds is one merchant environment's USD figures, in cents.
type funds struct{ vault, cards, fees, spent, minCard int64 }

func (m funds) total() int64 { return m.vault + m.cards + m.fees + m.spent }

// moneyTotals reads every merchant environment's figures under its lock.
func moneyTotals(s *Server) map[string]funds {
	out := map[string]funds{}
	for id, m := range s.world.Load().Merchants {
		for i, st := range m.Envs {
			st.Mu.RLock()
			v := funds{vault: st.Vault, fees: st.Fees, spent: st.Spent}
			for _, c := range st.Cards {
				v.cards += c.Balance
				v.minCard = min(v.minCard, c.Balance)
			}
			st.Mu.RUnlock()
			out[fmt.Sprintf("%s/%d", id, i)] = v
		}
	}
	return out
}

func checkConservation(before, after map[string]funds) string {
	for k, a := range after {
		b := before[k]
		switch {
		case a.total() != b.total():
			return fmt.Sprintf("money not conserved in %s: vault %d + cards %d + fees %d + spent %d = %d, was %d", k, a.vault, a.cards, a.fees, a.spent, a.total(), b.total())
		case a.vault < 0:
			return fmt.Sprintf("vault of %s went negative: %d", k, a.vault)
		case a.minCard < 0:
			return fmt.Sprintf("a card of %s went negative: %d", k, a.minCard)
		}
	}
	return ""
}
