package sandbox

import (
	"context"
	"time"

	"github.com/merchant-harness/mph/sandbox/state"
	"github.com/merchant-harness/mph/sandbox/variant"
	"github.com/merchant-harness/mph/sandbox/webhook"
)

// bgDelivery marks a delivery's context as the queue's own.
type bgDelivery struct{}

// queueDelivery applies the dispatch and timing settings: a queued
// delivery leaves later and it reports true (the caller then answers
// dispatched true); a delayed one that is not queued waits here first.
func (s *Server) queueDelivery(ctx context.Context, w *state.World, st *state.EnvState, kind string, d webhook.Data) bool {
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
