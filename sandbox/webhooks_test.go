package sandbox

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/merchant-harness/mph/sandbox/wording"
)

// receiver is a webhook endpoint recording deliveries.
type receiver struct {
	mu   sync.Mutex
	got  []delivered
	code int
	wait time.Duration
	srv  *httptest.Server
}

type delivered struct {
	hdr  http.Header
	body []byte
}

func newReceiver(t *testing.T, code int) *receiver {
	rv := &receiver{code: code}
	rv.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		rv.mu.Lock()
		rv.got = append(rv.got, delivered{r.Header.Clone(), b})
		wait := rv.wait
		rv.mu.Unlock()
		if wait > 0 {
			select {
			case <-time.After(wait):
			case <-r.Context().Done():
			}
		}
		w.WriteHeader(rv.code)
	}))
	t.Cleanup(rv.srv.Close)
	return rv
}

func (rv *receiver) all() []delivered {
	rv.mu.Lock()
	defer rv.mu.Unlock()
	return append([]delivered{}, rv.got...)
}

func TestSimulateWebhook(t *testing.T) {
	h := newSbx(t, Options{})
	tok := h.token(alpha, alphaTest)
	id := h.card(tok, h.customer(tok), "5", `,"reference":"wh-card"`).s("data.id")

	// No URL configured: not dispatched, honest skip reason.
	r := h.api("POST", "/cards/"+id+"/simulate-webhook", tok, `{"event_type":"authorization"}`).want(200)
	if r.get("success") != true || r.get("data.dispatched") != false || r.s("data.skip_reason") != "no_webhook_url_configured" ||
		r.s("data.callback_url") != "" || !strings.HasPrefix(r.s("data.reference"), "SIMULATE_AUTHORIZATION_") {
		t.Fatalf("no url: %s", r.body)
	}

	rv := newReceiver(t, 204)
	h.ctl("PUT", "/merchants/mer_demo_alpha/webhook", map[string]string{"url": rv.srv.URL + "/hooks", "secret": "whsec_test"}).want(200)
	kinds := map[string]string{
		"authorization": "virtualcard.transaction.authorization",
		"settlement":    "virtualcard.transaction.settlement",
		"reversal":      "virtualcard.transaction.reversed",
		"decline":       "virtualcard.transaction.declined",
	}
	for et, kind := range kinds {
		r := h.api("POST", "/cards/wh-card/simulate-webhook", tok, `{"event_type":"`+et+`"}`).want(200)
		if r.s("data.event_type") != kind || r.get("data.dispatched") != true || r.get("data.skip_reason") != nil ||
			r.s("data.callback_url") != rv.srv.URL+"/hooks" || !strings.HasPrefix(r.s("data.reference"), "SIMULATE_"+strings.ToUpper(et)+"_") {
			t.Fatalf("%s: %s", et, r.body)
		}
		got := rv.all()
		d := got[len(got)-1]
		mac := hmac.New(sha256.New, []byte("whsec_test"))
		mac.Write(d.body)
		if d.hdr.Get("X-MPH-Signature") != "sha256="+hex.EncodeToString(mac.Sum(nil)) {
			t.Fatalf("signature %q does not verify", d.hdr.Get("X-MPH-Signature"))
		}
		var p struct {
			ID, Type, CreatedAt, Environment, MerchantID string
			Data                                         struct {
				Reference, CardID, CardReference, Currency string
				Amount                                     json.Number
				Simulated                                  bool
			}
		}
		dec := json.NewDecoder(strings.NewReader(string(d.body)))
		dec.UseNumber()
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		if p.Type != kind || d.hdr.Get("X-MPH-Event") != kind || d.hdr.Get("X-MPH-Delivery") != p.ID ||
			!strings.HasPrefix(p.ID, "evt_") || p.Environment != "TEST" || p.MerchantID != alpha ||
			p.Data.Reference != r.s("data.reference") || p.Data.CardID != id || p.Data.CardReference != "wh-card" ||
			p.Data.Amount.String() != "1.00" || p.Data.Currency != "USD" || !p.Data.Simulated ||
			d.hdr.Get("Content-Type") != "application/json" {
			t.Fatalf("delivery %s: %+v %s", et, d.hdr, d.body)
		}
	}
	if n := len(h.ctl("GET", "/webhooks/deliveries", nil).want(200).list("deliveries")); n != 4 {
		t.Fatalf("deliveries log: %d", n)
	}

	// Failing receiver: delivery_failed with the HTTP status.
	rv.code = 500
	r = h.api("POST", "/cards/"+id+"/simulate-webhook", tok, `{"event_type":"reversal"}`).want(200)
	if r.get("data.dispatched") != false || r.s("data.skip_reason") != "delivery_failed: HTTP 500" {
		t.Fatalf("500 receiver: %s", r.body)
	}
	// Unreachable receiver: connection error.
	dead := httptest.NewServer(http.NotFoundHandler())
	dead.Close()
	h.ctl("PUT", "/merchants/mer_demo_alpha/webhook", map[string]string{"url": dead.URL}).want(200)
	r = h.api("POST", "/cards/"+id+"/simulate-webhook", tok, `{"event_type":"reversal"}`).want(200)
	if !strings.HasPrefix(r.s("data.skip_reason"), "delivery_failed: ") {
		t.Fatalf("dead receiver: %s", r.body)
	}
	log := h.ctl("GET", "/webhooks/deliveries", nil).want(200)
	if last := log.list("deliveries"); len(last) != 6 || last[5].(map[string]any)["delivered"] != false {
		t.Fatalf("log after failures: %s", log.body)
	}

	// Errors.
	h.api("POST", "/cards/"+id+"/simulate-webhook", tok, `{"event_type":"refund"}`).
		wantValidation("event_type must be one of the following values: authorization, settlement, reversal, decline")
	h.api("POST", "/cards/"+id+"/simulate-webhook", tok, `{}`).wantValidation("event_type should not be empty")
	h.api("POST", "/cards/nope/simulate-webhook", tok, `{"event_type":"decline"}`).wantError(404, wording.CardNotFound)
	h.api("POST", "/cards/"+id+"/simulate-webhook", h.token(alpha, alphaLive), `{"event_type":"decline"}`).wantError(403, wording.LiveSimulate)
}

func TestWebhookTimeout(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("waits for the 5 s delivery timeout")
	}
	h := newSbx(t, Options{})
	tok := h.token(alpha, alphaTest)
	id := h.card(tok, h.customer(tok), "5").s("data.id")
	rv := newReceiver(t, 200)
	rv.wait = 7 * time.Second
	h.ctl("PUT", "/merchants/mer_demo_alpha/webhook", map[string]string{"url": rv.srv.URL}).want(200)
	start := time.Now()
	r := h.api("POST", "/cards/"+id+"/simulate-webhook", tok, `{"event_type":"decline"}`).want(200)
	if el := time.Since(start); el < 4*time.Second || el > 7*time.Second {
		t.Fatalf("timeout after %v", el)
	}
	if r.s("data.skip_reason") != "delivery_failed: timeout after 5 s" {
		t.Fatalf("timeout: %s", r.body)
	}
}

// The deliveries control counts deliveries in flight: 1 while a receiver is
// slow to answer, 0 once the API answer that caused it is out.
func TestDeliveriesPending(t *testing.T) {
	h := newSbx(t, Options{})
	tok := h.token(alpha, alphaTest)
	id := h.card(tok, h.customer(tok), "5").s("data.id")
	rv := newReceiver(t, 200)
	rv.wait = 300 * time.Millisecond
	h.ctl("PUT", "/merchants/mer_demo_alpha/webhook", map[string]string{"url": rv.srv.URL}).want(200)
	done := make(chan struct{})
	go func() {
		defer close(done)
		h.api("POST", "/cards/"+id+"/simulate-webhook", tok, `{"event_type":"authorization"}`).want(200)
	}()
	deadline := time.Now().Add(5 * time.Second)
	for len(rv.all()) == 0 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if p := h.ctl("GET", "/webhooks/deliveries", nil).want(200).num("pending"); p != "1" {
		t.Fatalf("pending during a delivery: %s", p)
	}
	<-done
	if p := h.ctl("GET", "/webhooks/deliveries", nil).want(200).num("pending"); p != "0" {
		t.Fatalf("pending after the answer: %s", p)
	}
}
