package sandbox

import (
	"fmt"
	"testing"
)

// probes observe, through the public API only, the rule each fault breaks.
// A probe returns true when it sees the violation. Every fault of the
// catalogue must have a probe that passes on the clean sandbox and fails with
// the fault injected: that proves both the fault and the probe are real.
var probes = map[string]func(h *sbx) bool{
	"auth-expired-token-accepted": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		h.fake.Advance(901e9)
		return h.api("GET", "/cards", tok, nil).code == 200
	},
	"auth-ignore-merchant-header": func(h *sbx) bool {
		return h.api("GET", "/cards", h.token(alpha, alphaTest), nil, "X-Merchant-Id: "+bravo).code == 200
	},
	"card-cross-merchant-read": func(h *sbx) bool {
		btok := h.token(bravo, bravoTest)
		id := h.card(btok, h.customer(btok), "2").s("data.id")
		return h.api("GET", "/cards/"+id, h.token(alpha, alphaTest), nil).code == 200
	},
	"card-list-ignores-limit": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		cust := h.customer(tok)
		h.card(tok, cust, "1")
		h.card(tok, cust, "1")
		return len(h.api("GET", "/cards?limit=1", tok, nil).want(200).list("data")) != 1
	},
	"card-secure-reveals-frozen": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		id := h.card(tok, h.customer(tok), "2").s("data.id")
		h.api("PATCH", "/cards/"+id+"/status", tok, `{"status":"FROZEN"}`).want(200)
		return h.api("GET", "/cards/"+id+"/secure", tok, nil).code == 200
	},
	"card-withdraw-no-vault-credit": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		id := h.card(tok, h.customer(tok), "2").s("data.id")
		h.api("POST", "/cards/"+id+"/withdraw", tok, `{"amount":1}`).want(200)
		return h.api("GET", "/cards/config", tok, nil).num("data.vaultBalance") != "9997.95"
	},
	"card-withdraw-over-balance": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		id := h.card(tok, h.customer(tok), "2").s("data.id")
		return h.api("POST", "/cards/"+id+"/withdraw", tok, `{"amount":3}`).code == 200
	},
	"card-frozen-approves": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		id := h.card(tok, h.customer(tok), "2").s("data.id")
		h.api("PATCH", "/cards/"+id+"/status", tok, `{"status":"FROZEN"}`).want(200)
		return h.ctl("POST", "/cards/"+id+"/transactions", `{"amount":1}`).want(200).get("approved") == true
	},
	"error-envelope-no-path": func(h *sbx) bool {
		return !h.api("GET", "/cards", "", nil).want(401).has("path")
	},
	"gift-verify-charges-again": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		h.api("POST", "/gift-cards/purchase", tok, `{"amount":5,"recipientEmail":"a@b.co","recipientName":"A","reference":"g1"}`).want(200)
		h.api("GET", "/gift-cards/verify/g1", tok, nil).want(200)
		h.api("GET", "/gift-cards/verify/g1", tok, nil).want(200)
		return h.ctl("GET", "/merchants/mer_demo_alpha", nil).num("ngnBalance") != "4992000.00"
	},
	"rate-limit-bare-429": func(h *sbx) bool {
		h.ctl("PUT", "/rate-limits", `{"read":{"rate":0.01,"burst":1}}`).want(200)
		tok := h.token(alpha, alphaTest)
		h.api("GET", "/cards", tok, nil).want(200)
		r := h.api("GET", "/cards", tok, nil).want(429)
		return r.v == nil || !r.has("statusCode")
	},
	"webhook-claims-dispatch": func(h *sbx) bool {
		rv := newReceiver(h.t.(*testing.T), 200)
		h.ctl("PUT", "/merchants/mer_demo_alpha/webhook", map[string]string{"url": rv.srv.URL, "secret": "k"}).want(200)
		tok := h.token(alpha, alphaTest)
		id := h.card(tok, h.customer(tok), "2").s("data.id")
		r := h.api("POST", "/cards/"+id+"/simulate-webhook", tok, `{"event_type":"decline"}`).want(200)
		return r.get("data.dispatched") == true && len(rv.all()) == 0
	},
}

func TestFaultCatalogue(t *testing.T) {
	fs := Faults()
	if len(fs) < 5 {
		t.Fatalf("catalogue has %d faults", len(fs))
	}
	seen := map[string]bool{}
	for i, f := range fs {
		if f.Name == "" || f.Description == "" || len(f.Requirements) == 0 || seen[f.Name] {
			t.Errorf("bad or duplicate entry %+v", f)
		}
		if i > 0 && fs[i-1].Name >= f.Name {
			t.Errorf("catalogue not sorted at %s", f.Name)
		}
		seen[f.Name] = true
		if probes[f.Name] == nil {
			t.Errorf("fault %s has no probe", f.Name)
		}
	}
	if _, err := New(Options{Faults: []string{"no-such-fault"}}); err == nil {
		t.Fatal("unknown fault accepted")
	}
}

func TestFaultsBreakTheirRule(t *testing.T) {
	for _, f := range Faults() {
		probe := probes[f.Name]
		if probe == nil {
			continue
		}
		t.Run(f.Name, func(t *testing.T) {
			if probe(newSbx(t, Options{})) {
				t.Fatalf("clean sandbox violates the rule of %s", f.Name)
			}
			h := newSbx(t, Options{Faults: []string{f.Name}})
			if !probe(h) {
				t.Fatalf("fault %s injected but not observable", f.Name)
			}
			if got := h.raw("GET", "/_sandbox/capabilities", "").list("faults"); fmt.Sprint(got) != "["+f.Name+"]" {
				t.Fatalf("capabilities faults: %v", got)
			}
		})
	}
}
