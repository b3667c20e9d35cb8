package target

import "github.com/merchant-harness/mph/redact"

// registerSecrets hands every secret of a resolved target to the redaction
// registry, so that each is masked by value (in every encoding) in any
// output, log, report or results file, whatever its shape: a secret key
// without the sk_ prefix, the admin key, a password in a URL's userinfo.
func registerSecrets(cfg *Config) {
	for _, c := range []*Credentials{&cfg.Primary, cfg.Secondary, cfg.LiveTier2, cfg.LiveLowKYB, cfg.NotWhitelisted} {
		if c != nil {
			redact.RegisterCredentials(c.MerchantID, c.SecretKey)
		}
	}
	redact.Register(cfg.AdminKey)
	for _, u := range []string{cfg.BaseURL, cfg.ControlsURL, cfg.WebhookReceiverURL} {
		redact.RegisterURL(u)
	}
}

// registerSettings registers the secrets of unresolved settings, so that
// even a configuration error quoting one (a malformed base URL with a
// password) prints it masked.
func registerSettings(s Settings) {
	for _, c := range []Credentials{s.Primary, s.Secondary, s.LiveTier2, s.LiveLowKYB, s.NotWhitelisted} {
		redact.RegisterCredentials(c.MerchantID, c.SecretKey)
	}
	redact.Register(s.AdminKey)
	for _, u := range []string{s.BaseURL, s.ControlsURL, s.WebhookReceiverURL} {
		redact.RegisterURL(u)
	}
}
