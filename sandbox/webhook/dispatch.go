package webhook

import (
	"context"
	"log/slog"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/merchant-harness/mph/clock"
	"github.com/merchant-harness/mph/sandbox/fault"
	"github.com/merchant-harness/mph/sandbox/ids"
	"github.com/merchant-harness/mph/sandbox/state"
	"github.com/merchant-harness/mph/sandbox/variant"
	"github.com/merchant-harness/mph/sandbox/wording"
)

// Dispatcher sends the merchants' card events to their webhook URLs and
// logs every attempt in the world, under the dispatch and timing settings.
type Dispatcher struct {
	send     *Sender
	faults   fault.Set
	variants variant.Set
	clk      clock.Clock
	log      *slog.Logger
	Pending  atomic.Int64 // deliveries in flight
}

// NewDispatcher sends through send, with faults fs and settings vs, on clk.
func NewDispatcher(send *Sender, fs fault.Set, vs variant.Set, clk clock.Clock, log *slog.Logger) *Dispatcher {
	return &Dispatcher{send: send, faults: fs, variants: vs, clk: clk, log: log}
}

// Dispatch sends kind for card c of st and logs the attempt. It returns the
// configured URL ("" when none), whether it was delivered, and the skip reason.
// It must be called without st.Mu held: delivery can take up to 5 s.
func (s *Dispatcher) Dispatch(ctx context.Context, w *state.World, st *state.EnvState, kind string, d Data) (url string, ok bool, skip string) {
	cfg := st.Merchant.Webhook.Load()
	if cfg == nil || cfg.URL == "" {
		return "", false, "no_webhook_url_configured"
	}
	if s.queueDelivery(ctx, w, st, kind, d) {
		return cfg.URL, true, ""
	}
	s.Pending.Add(1)
	defer s.Pending.Add(-1)
	now := s.clk.Now()
	p := Payload{
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
	body := s.send.Body(p)
	hdr, sig := s.send.Sign(cfg.Secret, body)
	del := state.Delivery{
		ID: p.ID, MerchantID: st.Merchant.ID, Environment: p.Environment, Type: kind,
		URL: cfg.URL, Reference: d.Reference, AttemptedAt: p.CreatedAt,
		Signature: sig, Payload: body,
	}
	start := time.Now()
	code, err := s.send.Post(ctx, cfg.URL, kind, p.ID, hdr, body)
	if id2, body2 := s.send.Redelivery(p.ID, body); err == nil && body2 != nil {
		hdr2, _ := s.send.Sign(cfg.Secret, body2)
		code, err = s.send.Post(ctx, cfg.URL, kind, id2, hdr2, body2) // at-least-once
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

// bgDelivery marks a delivery's context as the queue's own.
type bgDelivery struct{}

// queueDelivery applies the dispatch and timing settings: a queued
// delivery leaves later and it reports true (the caller then answers
// dispatched true); a delayed one that is not queued waits here first.
func (s *Dispatcher) queueDelivery(ctx context.Context, w *state.World, st *state.EnvState, kind string, d Data) bool {
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
	s.Pending.Add(1)
	go func() {
		defer s.Pending.Add(-1)
		time.Sleep(delay)
		s.Dispatch(context.WithValue(context.Background(), bgDelivery{}, true), w, st, kind, d)
	}()
	return true
}
