package sandbox

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// TestHiddenControlsAndPresetWebhook: with --hide-controls /_sandbox is an
// unknown path, and a preset webhook URL receives simulated events signed
// with the preset secret.
func TestHiddenControlsAndPresetWebhook(t *testing.T) {
	got := make(chan *http.Request, 4)
	bodies := make(chan []byte, 4)
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got <- r
		bodies <- b
	}))
	defer recv.Close()
	h := newSbx(t, Options{HideControls: true, Webhooks: []WebhookPreset{{MerchantID: alpha, URL: recv.URL + "/hooks", Secret: "whsec_preset"}}})
	h.raw("GET", "/_sandbox/capabilities", "").want(404)

	tok := h.token(alpha, alphaTest)
	id := h.card(tok, h.customer(tok), "2").s("data.id")
	d := h.api("POST", "/cards/"+id+"/simulate-webhook", tok, `{"event_type":"authorization"}`).want(200)
	if d.get("data.dispatched") != true || d.s("data.callback_url") != recv.URL+"/hooks" {
		t.Fatalf("simulation: %s", d.body)
	}
	select {
	case r := <-got:
		b := <-bodies
		m := hmac.New(sha256.New, []byte("whsec_preset"))
		m.Write(b)
		if r.URL.Path != "/hooks" || r.Header.Get("X-MPH-Signature") != "sha256="+hex.EncodeToString(m.Sum(nil)) {
			t.Fatalf("delivery to %s signed %q", r.URL.Path, r.Header.Get("X-MPH-Signature"))
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no delivery to the preset URL")
	}
}

func TestWebhookPresetValidation(t *testing.T) {
	for _, p := range []WebhookPreset{{MerchantID: "mer_nobody", URL: "http://x/h"}, {MerchantID: alpha, URL: "ftp://x/h"}, {MerchantID: alpha, URL: "/relative"}} {
		if _, err := New(Options{Webhooks: []WebhookPreset{p}}); err == nil {
			t.Errorf("preset %+v accepted", p)
		}
	}
	s, err := New(Options{Webhooks: []WebhookPreset{{MerchantID: alpha, URL: "http://127.0.0.1:1/h"}}})
	if err != nil {
		t.Fatal(err)
	}
	if cfg := s.world.Load().Merchants[alpha].Webhook.Load(); cfg == nil || cfg.Secret != alphaTest {
		t.Fatalf("a preset without a secret signs with the TEST secret key, got %+v", cfg)
	}
}
