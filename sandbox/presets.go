package sandbox

import (
	"fmt"
	"net/url"

	"github.com/merchant-harness/mph/sandbox/state"
)

// WebhookPreset configures a merchant's webhook URL at start, as a provider's
// dashboard would: deliveries go there without any test control. Secret is
// the HMAC-SHA256 signing key; empty means the merchant's TEST secret key.
type WebhookPreset struct {
	MerchantID string
	URL        string
	Secret     string
}

func (o *Options) validatePresets() error {
	for _, p := range o.Webhooks {
		if findDemo(p.MerchantID) == nil {
			return fmt.Errorf("sandbox: webhook preset: unknown merchant %q", p.MerchantID)
		}
		u, err := url.Parse(p.URL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("sandbox: webhook preset for %s: %q is not an absolute http or https URL", p.MerchantID, p.URL)
		}
	}
	return nil
}

func findDemo(id string) *DemoMerchant {
	for _, d := range DemoMerchants() {
		if d.ID == id {
			return &d
		}
	}
	return nil
}

// applyPresets sets the preset webhook URLs on a (new or reset) world.
func (s *Server) applyPresets(w *state.World) {
	for _, p := range s.opts.Webhooks {
		m := w.Merchants[p.MerchantID]
		if m == nil {
			continue
		}
		secret := p.Secret
		if secret == "" {
			secret = findDemo(p.MerchantID).TestKey
		}
		m.Webhook.Store(&state.WebhookConfig{URL: p.URL, Secret: secret})
	}
}

// newWorld builds the seeded world with the start-time presets applied.
func (s *Server) newWorld() *state.World {
	w := state.NewWorld(seeds())
	s.applyPresets(w)
	return w
}

// WebhookPresets returns the start-time webhook URLs (secrets left out).
func (s *Server) WebhookPresets() []WebhookPreset {
	out := make([]WebhookPreset, len(s.opts.Webhooks))
	for i, p := range s.opts.Webhooks {
		out[i] = WebhookPreset{MerchantID: p.MerchantID, URL: p.URL}
	}
	return out
}
