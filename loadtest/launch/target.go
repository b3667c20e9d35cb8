package launch

import (
	"github.com/merchant-harness/mph/config"
	"github.com/merchant-harness/mph/loadtest"
)

// Target is the resolved target as the load engine takes it, its setup
// shaped by the target profile where the profile says.
func Target(cfg *config.Config) *loadtest.Target {
	t := &loadtest.Target{
		BaseURL: cfg.BaseURL, ControlsURL: cfg.ControlsURL, AdminKey: cfg.AdminKey,
		Timeout: cfg.Timeout, InsecureTLS: cfg.InsecureTLS, Embedded: cfg.Embedded, RunID: cfg.RunID, AllowLive: cfg.AllowLive,
		FollowRedirects: cfg.FollowRedirects, MaxBody: cfg.MaxBody, RetryAfterMax: cfg.RetryAfterMax,
		Creds: []loadtest.Credential{{MerchantID: cfg.Primary.MerchantID, SecretKey: cfg.Primary.SecretKey}},
		Setup: loadtest.SetupFrom(cfg.Profile),
	}
	if cfg.Secondary != nil {
		t.Creds = append(t.Creds, loadtest.Credential{MerchantID: cfg.Secondary.MerchantID, SecretKey: cfg.Secondary.SecretKey})
	}
	if cfg.Profile != nil {
		t.Envelope429 = cfg.Profile.RateLimits.Envelope
	}
	return t
}
