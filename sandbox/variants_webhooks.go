package sandbox

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"net/http"
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

// simulationReference is a simulation's reference for event type et.
func (s *Server) simulationReference(et string) string {
	if s.variants.On(variant.SimRefRandom) {
		return "SIMULATE_" + strings.ToUpper(randHex(6))
	}
	return "SIMULATE_" + strings.ToUpper(et) + "_" + randHex(4)
}
