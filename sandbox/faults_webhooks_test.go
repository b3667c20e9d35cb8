package sandbox

import (
	"encoding/json"
	"strings"
	"testing"
)

// Probes of the faults of faults_webhooks.go: each returns true when it
// observes the violated rule.
var _ = addProbes(map[string]func(h *sbx) bool{
	"webhook-claims-dispatch": func(h *sbx) bool {
		rv := newReceiver(h.t.(*testing.T), 200)
		h.ctl("PUT", "/merchants/mer_demo_alpha/webhook", map[string]string{"url": rv.srv.URL, "secret": "k"}).want(200)
		tok := h.token(alpha, alphaTest)
		id := h.card(tok, h.customer(tok), "2").s("data.id")
		r := h.api("POST", "/cards/"+id+"/simulate-webhook", tok, `{"event_type":"decline"}`).want(200)
		return r.get("data.dispatched") == true && len(rv.all()) == 0
	},
	"webhook-delivered-kind-wrong": func(h *sbx) bool {
		rv := newReceiver(h.t.(*testing.T), 200)
		h.ctl("PUT", "/merchants/"+alpha+"/webhook", map[string]string{"url": rv.srv.URL, "secret": "k"}).want(200)
		tok, id := setupCard(h, "1")
		h.api("POST", "/cards/"+id+"/simulate-webhook", tok, `{"event_type":"authorization"}`).want(200)
		got := rv.all()
		if len(got) != 1 {
			return true
		}
		var p struct{ Type string }
		_ = json.Unmarshal(got[0].body, &p)
		return p.Type != "virtualcard.transaction.authorization"
	},
	"webhook-event-type-echoed": func(h *sbx) bool {
		tok, id := setupCard(h, "1")
		return h.api("POST", "/cards/"+id+"/simulate-webhook", tok, `{"event_type":"settlement"}`).want(200).s("data.event_type") != "virtualcard.transaction.settlement"
	},
	"webhook-skip-reason-null": func(h *sbx) bool {
		tok, id := setupCard(h, "1")
		r := h.api("POST", "/cards/"+id+"/simulate-webhook", tok, `{"event_type":"decline"}`).want(200)
		return r.get("data.dispatched") == false && r.get("data.skip_reason") == nil
	},
	"webhook-event-type-unchecked": func(h *sbx) bool {
		tok, id := setupCard(h, "1")
		return h.api("POST", "/cards/"+id+"/simulate-webhook", tok, `{"event_type":"refund"}`).code == 200
	},
	"webhook-callback-url-empty": func(h *sbx) bool {
		rv := newReceiver(h.t.(*testing.T), 200)
		h.ctl("PUT", "/merchants/"+alpha+"/webhook", map[string]string{"url": rv.srv.URL, "secret": "k"}).want(200)
		tok, id := setupCard(h, "1")
		return h.api("POST", "/cards/"+id+"/simulate-webhook", tok, `{"event_type":"authorization"}`).want(200).s("data.callback_url") != rv.srv.URL
	},
	"webhook-live-allowed": func(h *sbx) bool {
		tok := h.token(alpha, alphaLive)
		id := h.card(tok, h.customer(tok), "1").s("data.id")
		return h.api("POST", "/cards/"+id+"/simulate-webhook", tok, `{"event_type":"authorization"}`).code == 200
	},
	"webhook-reference-prefix-wrong": func(h *sbx) bool {
		tok, id := setupCard(h, "1")
		return !strings.HasPrefix(h.api("POST", "/cards/"+id+"/simulate-webhook", tok, `{"event_type":"authorization"}`).want(200).s("data.reference"), "SIMULATE_")
	},
	"webhook-reversal-kind-wrong": func(h *sbx) bool {
		tok, id := setupCard(h, "1")
		return h.api("POST", "/cards/"+id+"/simulate-webhook", tok, `{"event_type":"reversal"}`).want(200).s("data.event_type") != "virtualcard.transaction.reversed"
	},
	"webhook-txn-not-delivered": func(h *sbx) bool {
		rv := newReceiver(h.t.(*testing.T), 200)
		h.ctl("PUT", "/merchants/"+alpha+"/webhook", map[string]string{"url": rv.srv.URL, "secret": "k"}).want(200)
		_, id := setupCard(h, "5")
		txnApproved(h, id, "1")
		return len(rv.all()) == 0
	},
})
