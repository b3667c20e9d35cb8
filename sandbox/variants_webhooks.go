package sandbox

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/merchant-harness/mph/sandbox/variant"
)

// bgDelivery marks a delivery's context as the queue's own.
type bgDelivery struct{}

// queueDelivery applies the dispatch and timing settings: a queued
// delivery leaves later and it reports true (the caller then answers
// dispatched true); a delayed one that is not queued waits here first.
func (s *Server) queueDelivery(ctx context.Context, w *world, st *envState, kind string, d eventData) bool {
	v := &s.variants
	if ctx.Value(bgDelivery{}) != nil {
		return false
	}
	delay := 200 * time.Millisecond
	if v.On(variant.DispatchDelayed) {
		delay = 2 * time.Second
	}
	if !v.On(variant.DispatchQueued) {
		if v.On(variant.DispatchDelayed) {
			select {
			case <-time.After(delay):
			case <-ctx.Done():
			}
		}
		return false
	}
	s.pending.Add(1)
	go func() {
		defer s.pending.Add(-1)
		time.Sleep(delay)
		s.dispatch(context.WithValue(context.Background(), bgDelivery{}, true), w, st, kind, d)
	}()
	return true
}

// eventBody is a delivery's body under the payload settings.
func (s *Server) eventBody(p eventPayload) []byte {
	var body []byte
	switch {
	case s.variants.On(variant.WebhookPayloadShape):
		body, _ = json.Marshal(map[string]any{"event": p.Type, "id": p.ID, "sentAt": p.CreatedAt, "payload": p.Data})
	case s.variants.On(variant.WebhookPayloadFlat):
		body, _ = json.Marshal(map[string]any{"event_type": p.Type, "reference": p.Data.Reference, "card_id": p.Data.CardID,
			"amount": p.Data.Amount, "currency": p.Data.Currency, "occurred_at": p.CreatedAt})
	default:
		body, _ = json.Marshal(p)
	}
	return body
}

// redelivery is the second attempt's id and body ("" when none).
func (s *Server) redelivery(id string, body []byte) (string, []byte) {
	switch {
	case s.variants.On(variant.Redeliver):
		return id, body
	case s.variants.On(variant.RedeliverDistinct):
		var m map[string]any
		if json.Unmarshal(body, &m) != nil {
			return id, body
		}
		m["attempt"] = 2
		if _, has := m["id"]; has {
			m["id"] = "evt_" + randHex(12)
		}
		b, _ := json.Marshal(m)
		return "evt_" + randHex(12), b
	}
	return "", nil
}

// signatureHeaders sign a delivery body under the signature settings.
func (s *Server) signatureHeaders(secret string, body []byte) (http.Header, string) {
	h := http.Header{}
	mac := func(msg []byte) []byte {
		m := hmac.New(sha256.New, []byte(secret))
		m.Write(msg)
		return m.Sum(nil)
	}
	switch {
	case s.variants.On(variant.Unsigned):
		return h, ""
	case s.variants.On(variant.SignatureTimestamped):
		t := strconv.FormatInt(time.Now().Unix(), 10)
		sig := "t=" + t + ",v1=" + hex.EncodeToString(mac([]byte(t+"."+string(body))))
		h.Set("X-Signature", sig)
		return h, sig
	case s.variants.On(variant.SignatureBase64):
		sig := base64.StdEncoding.EncodeToString(mac(body))
		h.Set("X-Webhook-Signature", sig)
		return h, sig
	}
	sig := sign(secret, body)
	h.Set("X-MPH-Signature", sig)
	return h, sig
}

// rewriteSimulation applies the simulation answer settings.
func (s *Server) rewriteSimulation(x map[string]any) {
	v := &s.variants
	if r, ok := x["skip_reason"].(string); ok && v.On(variant.SkipReasonSentences) {
		switch {
		case r == "no_webhook_url_configured":
			x["skip_reason"] = "No webhook URL is configured for this merchant"
		case strings.HasPrefix(r, "delivery_failed: HTTP "):
			x["skip_reason"] = "The receiver answered HTTP " + strings.TrimPrefix(r, "delivery_failed: HTTP ")
		case strings.HasPrefix(r, "delivery_failed: "):
			x["skip_reason"] = "The delivery failed: " + strings.TrimPrefix(r, "delivery_failed: ")
		}
	}
	if v.On(variant.SkipReasonAbsent) && x["dispatched"] == true {
		delete(x, "skip_reason")
	}
	switch u, _ := x["callback_url"].(string); {
	case v.On(variant.CallbackNull) && u == "":
		x["callback_url"] = nil
	case v.On(variant.CallbackNormalised) && u != "":
		x["callback_url"] = normaliseURL(u)
	}
}

// rewriteEnvelopeB applies the Envelope B settings of simulation and
// contact answers.
func (s *Server) rewriteEnvelopeB(rest string, top map[string]any) {
	d, _ := top["data"].(map[string]any)
	if d == nil {
		return
	}
	switch {
	case strings.HasSuffix(rest, "/simulate-webhook") && s.variants.On(variant.SimSuccessMirrors):
		top["success"] = d["dispatched"] == true
	case strings.HasSuffix(rest, "/contact") && s.variants.On(variant.ContactQueued):
		d["success"], d["message"] = false, "Update queued with the card provider"
	}
}

// normaliseURL is u as RFC 3986 normalisation writes it: scheme and host in
// lower case, the default port dropped, an empty path as /.
func normaliseURL(u string) string {
	p, err := url.Parse(u)
	if err != nil {
		return u
	}
	p.Scheme, p.Host = strings.ToLower(p.Scheme), strings.ToLower(p.Host)
	if (p.Scheme == "http" && p.Port() == "80") || (p.Scheme == "https" && p.Port() == "443") {
		p.Host = p.Hostname()
	}
	if p.Path == "" {
		p.Path = "/"
	}
	return p.String()
}

// simulationReference is a simulation's reference for event type et.
func (s *Server) simulationReference(et string) string {
	if s.variants.On(variant.SimRefRandom) {
		return "SIMULATE_" + strings.ToUpper(randHex(6))
	}
	return "SIMULATE_" + strings.ToUpper(et) + "_" + randHex(4)
}
