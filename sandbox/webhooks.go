package sandbox

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/merchant-harness/mph/sandbox/fault"
	"github.com/merchant-harness/mph/sandbox/ids"
	"github.com/merchant-harness/mph/sandbox/state"
	"github.com/merchant-harness/mph/sandbox/webhook"
	"github.com/merchant-harness/mph/sandbox/wording"
)

// dispatch sends kind for card c of st and logs the attempt. It returns the
// configured URL ("" when none), whether it was delivered, and the skip reason.
// It must be called without st.mu held: delivery can take up to 5 s.
func (s *Server) dispatch(ctx context.Context, w *state.World, st *state.EnvState, kind string, d webhook.Data) (url string, ok bool, skip string) {
	cfg := st.Merchant.Webhook.Load()
	if cfg == nil || cfg.URL == "" {
		return "", false, "no_webhook_url_configured"
	}
	if s.queueDelivery(ctx, w, st, kind, d) {
		return cfg.URL, true, ""
	}
	s.pending.Add(1)
	defer s.pending.Add(-1)
	now := s.clk.Now()
	p := webhook.Payload{
		ID:          "evt_" + ids.Hex(12),
		Type:        kind,
		CreatedAt:   wording.Timestamp(now),
		Environment: st.Env.String(),
		MerchantID:  st.Merchant.ID,
		Data:        d,
	}
	if s.faults.On(fault.WebhookDeliveredKind) {
		p.Type = strings.TrimPrefix(kind, "virtualcard.transaction.")
	}
	body := s.hooks.Body(p)
	hdr, sig := s.hooks.Sign(cfg.Secret, body)
	del := state.Delivery{
		ID: p.ID, MerchantID: st.Merchant.ID, Environment: p.Environment, Type: kind,
		URL: cfg.URL, Reference: d.Reference, AttemptedAt: p.CreatedAt,
		Signature: sig, Payload: body,
	}
	start := time.Now()
	code, err := s.hooks.Post(ctx, cfg.URL, kind, p.ID, hdr, body)
	if id2, body2 := s.hooks.Redelivery(p.ID, body); err == nil && body2 != nil {
		hdr2, _ := s.hooks.Sign(cfg.Secret, body2)
		code, err = s.hooks.Post(ctx, cfg.URL, kind, id2, hdr2, body2) // at-least-once
	}
	del.DurationMs = time.Since(start).Milliseconds()
	del.StatusCode = code
	switch {
	case err != nil:
		skip = "delivery_failed: " + err.Error()
	case code < 200 || code > 299:
		skip = "delivery_failed: HTTP " + strconv.Itoa(code)
	default:
		ok = true
	}
	if !ok {
		e := skip
		del.Error = &e
	}
	del.Delivered = ok
	w.LogDelivery(del)
	s.log.Info("webhook delivery", "event", kind, "id", p.ID, "merchant", st.Merchant.ID, "status", code, "delivered", ok)
	return cfg.URL, ok, skip
}
