// Package embedded runs the reference sandbox in this process as a target:
// with no base URL, Resolve starts it and describes it with its demo
// credentials. It keeps package config free of the sandbox, so that only
// the programs that may run one (the mph commands, the suites under go
// test) link it.
package embedded

import (
	"context"
	"fmt"
	"time"

	"github.com/merchant-harness/mph/api"
	"github.com/merchant-harness/mph/config"
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
// embedded sandbox (stopped by the returned cleanup), with its demo
// credentials.
func Resolve(ctx context.Context, s config.Settings) (*config.Config, func(), error) {
	return ResolveWith(ctx, s, sandbox.Options{})
}

// ResolveWith is Resolve with the embedded sandbox configured by opts.
func ResolveWith(ctx context.Context, s config.Settings, opts sandbox.Options) (*config.Config, func(), error) {
	if s.BaseURL != "" {
		cfg, err := config.Resolve(s, nil)
		return cfg, func() {}, err
	}
	running, err := sandbox.Start(ctx, "127.0.0.1:0", opts)
	if err != nil {
		return nil, nil, fmt.Errorf("starting the embedded sandbox: %w", err)
	}
	cleanup := func() { _ = running.CloseWithin(500 * time.Millisecond) }
	cfg, err := config.Resolve(s, Local(running))
	if err != nil {
		cleanup()
		return nil, nil, err
	}
	return cfg, cleanup, nil
}

// FromSandbox describes an already running sandbox (for example one started
// by a test with injected faults) as a Config with the demo credentials.
func FromSandbox(r *sandbox.Running, profile *api.Profile) *config.Config {
	return config.FromLocal(*Local(r), profile)
}

// Local describes a running sandbox and its demo credentials.
func Local(r *sandbox.Running) *config.Local {
	l := &config.Local{BaseURL: r.BaseURL, ControlsURL: r.ControlsURL, AdminKey: r.AdminKey}
	for _, m := range sandbox.DemoMerchants() {
		switch m.ID {
		case demoPrimary:
			l.Primary = config.Credentials{MerchantID: m.ID, SecretKey: m.TestKey}
			l.LiveTier2 = &config.Credentials{MerchantID: m.ID, SecretKey: m.LiveKey}
		case demoSecondary:
			l.Secondary = &config.Credentials{MerchantID: m.ID, SecretKey: m.TestKey}
			l.LiveLowKYB = &config.Credentials{MerchantID: m.ID, SecretKey: m.LiveKey}
		case demoBlocked:
			l.NotWhitelisted = &config.Credentials{MerchantID: m.ID, SecretKey: m.TestKey}
		}
	}
	return l
}
