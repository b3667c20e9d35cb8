package framework

// What the target offers: the reason a capability a spec needs is missing
// (the spec is then not applicable), from the configuration and what
// pre-flight learned.

import (
	"fmt"
	"net"
	"net/url"

	"github.com/merchant-harness/mph/config"
)

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

// missing returns the reason the first missing capability gives, or "".
func missing(needs []Capability) string {
	for _, n := range needs {
		if r := missingReason(n); r != "" {
			return r
		}
	}
	return ""
}

// Has reports whether the target offers the capability.
func Has(c Capability) bool { return missingReason(c) == "" }

func missingReason(c Capability) string {
	if r, ok := preconfiguredReason(c); ok {
		return r
	}
	cfg := h.cfg
	ctrl := func() string {
		if cfg.ControlsURL == "" || !h.facts.Controls {
			return "needs sandbox test controls: the target offers none (" + config.EnvControlsURL + " unset and no /_sandbox/capabilities on the target's host)"
		}
		if cfg.AdminKey == "" {
			return "needs sandbox test controls: no admin key (" + config.EnvAdminKey + " unset)"
		}
		return ""
	}
	switch c {
	case CapSandboxControls:
		return ctrl()
	case CapSecondMerchant:
		if cfg.Secondary == nil {
			return "needs a second TEST merchant: set " + config.EnvMerchant2ID + " and " + config.EnvSecretKey2
		}
	case CapLiveTier2:
		if cfg.LiveTier2 == nil {
			return "needs LIVE credentials of a merchant at KYB Tier 2+: set " + config.EnvLiveMerchantID + " and " + config.EnvLiveSecretKey
		}
	case CapLiveLowKYB:
		if cfg.LiveLowKYB == nil {
			return "needs LIVE credentials of a merchant below KYB Tier 2: set " + config.EnvLowKYBMerchantID + " and " + config.EnvLowKYBSecretKey
		}
	case CapNotWhitelisted:
		if cfg.NotWhitelisted == nil {
			return "needs credentials whose IP whitelist excludes this machine: set " + config.EnvBlockedMerchantID + " and " + config.EnvBlockedSecretKey
		}
	case CapTestEnvironment:
		if h.facts.Live {
			return "needs TEST credentials: the primary credentials are LIVE (" + h.facts.LiveWhy + ")"
		}
	case CapWebhookReceiver:
		if r := ctrl(); r != "" {
			return "needs the webhook receiver, whose URL is set through the sandbox controls: " + r
		}
		if cfg.WebhookReceiverURL == "" && !isLocal(cfg.BaseURL) {
			return "needs a webhook receiver the target can reach: set " + config.EnvWebhookReceiverURL + " to a public URL forwarding to this machine"
		}
	default:
		if name, ok := c.Control(); ok {
			if r := ctrl(); r != "" {
				return r
			}
			if len(h.facts.ControlList) > 0 && !contains(h.facts.ControlList, name) {
				return fmt.Sprintf("needs the sandbox control %q: the target's /_sandbox/capabilities does not list it", name)
			}
		}
	}
	return ""
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func isLocal(base string) bool {
	u, err := url.Parse(base)
	if err != nil {
		return false
	}
	host := u.Hostname()
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
