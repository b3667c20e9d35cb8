package target

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/merchant-harness/mph/sandbox"
)

// Demo merchants of the reference sandbox (docs/sandbox.md) and what the
// harness uses each one for.
const (
	demoPrimary   = "mer_demo_alpha" // TEST, and LIVE at KYB Tier 2
	demoSecondary = "mer_demo_bravo" // second TEST merchant, LIVE below Tier 2
	demoBlocked   = "mer_demo_delta" // TEST with an IP whitelist excluding loopback
)

// Resolve turns settings into a Config. With no base URL it starts the
// embedded sandbox (stopped by the returned cleanup) with its demo
// credentials; sandboxOpts then configures it (may be zero).
func Resolve(ctx context.Context, s Settings, sandboxOpts sandbox.Options) (*Config, func(), error) {
	registerSettings(s)
	profile, err := LoadProfile(s.ProfilePath)
	if err != nil {
		return nil, nil, usage("%v", err)
	}
	cfg := &Config{
		ControlsURL:        strings.TrimRight(s.ControlsURL, "/"),
		AdminKey:           s.AdminKey,
		WebhookReceiverURL: s.WebhookReceiverURL,
		Profile:            profile,
		ProfilePath:        s.ProfilePath,
		Timeout:            orDefault(s.Timeout, 10*time.Second),
		AllowLive:          s.AllowLive,
		InsecureTLS:        s.InsecureTLS,
		RunID:              s.RunID,
		Network:            s.Network,
	}
	if cfg.RunID == "" {
		cfg.RunID = newRunID()
	}
	cleanup := func() {}

	if s.BaseURL == "" {
		running, err := sandbox.Start(ctx, "127.0.0.1:0", sandboxOpts)
		if err != nil {
			return nil, nil, fmt.Errorf("starting the embedded sandbox: %w", err)
		}
		cleanup = func() { _ = running.CloseWithin(500 * time.Millisecond) }
		cfg.Embedded = true
		cfg.BaseURL = running.BaseURL
		cfg.ControlsURL = running.ControlsURL
		cfg.AdminKey = running.AdminKey
		fillDemo(cfg)
		// Explicit credentials still win, e.g. to test a faulty demo merchant.
		overlay(cfg, s)
		registerSecrets(cfg)
		return cfg, cleanup, nil
	}

	if err := s.validateRemote(); err != nil {
		return nil, nil, err
	}
	cfg.BaseURL = strings.TrimRight(s.BaseURL, "/")
	overlay(cfg, s)
	registerSecrets(cfg)
	return cfg, cleanup, nil
}

// FromSandbox describes an already running sandbox (for example one started
// by a test with injected faults) as a Config with the demo credentials.
func FromSandbox(r *sandbox.Running, profile *Profile) *Config {
	if profile == nil {
		profile = DefaultProfile()
	}
	cfg := &Config{
		BaseURL:     r.BaseURL,
		ControlsURL: r.ControlsURL,
		AdminKey:    r.AdminKey,
		Profile:     profile,
		Timeout:     10 * time.Second,
		RunID:       newRunID(),
		Embedded:    true,
	}
	fillDemo(cfg)
	registerSecrets(cfg)
	return cfg
}

func fillDemo(cfg *Config) {
	for _, m := range sandbox.DemoMerchants() {
		switch m.ID {
		case demoPrimary:
			cfg.Primary = Credentials{m.ID, m.TestKey}
			cfg.LiveTier2 = &Credentials{m.ID, m.LiveKey}
		case demoSecondary:
			cfg.Secondary = &Credentials{m.ID, m.TestKey}
			cfg.LiveLowKYB = &Credentials{m.ID, m.LiveKey}
		case demoBlocked:
			cfg.NotWhitelisted = &Credentials{m.ID, m.TestKey}
		}
	}
}

func overlay(cfg *Config, s Settings) {
	if s.Primary.Set() {
		cfg.Primary = s.Primary
	}
	for _, o := range []struct {
		dst **Credentials
		src Credentials
	}{
		{&cfg.Secondary, s.Secondary},
		{&cfg.LiveTier2, s.LiveTier2},
		{&cfg.LiveLowKYB, s.LiveLowKYB},
		{&cfg.NotWhitelisted, s.NotWhitelisted},
	} {
		if c := optional(o.src); c != nil {
			*o.dst = c
		}
	}
	if s.AdminKey != "" {
		cfg.AdminKey = s.AdminKey
	}
	if s.ControlsURL != "" {
		cfg.ControlsURL = strings.TrimRight(s.ControlsURL, "/")
	}
}
