package framework

import "github.com/merchant-harness/mph/config"

// WebhooksPreconfigured reports whether the target delivers to a
// pre-configured URL (profile webhooks.preconfigured, unless the settings
// say otherwise).
func WebhooksPreconfigured() bool {
	if v := Cfg().WebhooksPreconfigured; v != nil {
		return *v
	}
	return Profile().Webhooks.Preconfigured
}

// preconfiguredReason answers missingReason for the webhook capabilities in
// pre-configured mode (ok false: not decided here).
func preconfiguredReason(c Capability) (string, bool) {
	if c != CapWebhookConfig && c != CapWebhookReceiver || !WebhooksPreconfigured() {
		return "", false
	}
	if Cfg().WebhookReceiverURL == "" {
		return "webhooks.preconfigured needs the URL the target delivers to: set " + config.EnvWebhookReceiverURL, true
	}
	return "", true
}
