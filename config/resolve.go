package config

import (
	"strings"

	"github.com/merchant-harness/mph/api"
	"github.com/merchant-harness/mph/httpclient"
)

// Local is a sandbox running in this process (package config/embedded
// starts it): where it answers and the demo credentials it seeds.
type Local struct {
	BaseURL, ControlsURL, AdminKey string

	Primary                                          Credentials
	Secondary, LiveTier2, LiveLowKYB, NotWhitelisted *Credentials
}

// Resolve turns settings into a Config. With no base URL the target is
// local (nil: a usage error, the caller starts no sandbox); explicit
// credentials in the settings still win over its demo ones, e.g. to test a
// faulty demo merchant.
func Resolve(s Settings, local *Local) (*Config, error) {
	registerSettings(s)
	profile, err := api.LoadProfile(s.ProfilePath)
	if err != nil {
		return nil, usage("%v", err)
	}
	cfg := &Config{
		ControlsURL: strings.TrimRight(s.ControlsURL, "/"),
		AdminKey:    s.AdminKey,
		Profile:     profile,
		Options:     s.Options,
	}
	cfg.defaults()
	if s.BaseURL == "" {
		if local == nil {
			return nil, usage("no base URL (%s) and no local sandbox", EnvBaseURL)
		}
		cfg.Embedded = true
		cfg.useLocal(*local)
	} else {
		if err := s.validateRemote(); err != nil {
			return nil, err
		}
		cfg.BaseURL = strings.TrimRight(s.BaseURL, "/")
	}
	overlay(cfg, s)
	RegisterSecrets(cfg)
	return cfg, nil
}

// FromLocal describes a local sandbox with its demo credentials and the
// given profile (nil: the default one).
func FromLocal(l Local, profile *api.Profile) *Config {
	if profile == nil {
		profile = api.DefaultProfile()
	}
	cfg := &Config{Profile: profile, Embedded: true}
	cfg.defaults()
	cfg.useLocal(l)
	RegisterSecrets(cfg)
	return cfg
}

// defaults fills the options no setting gave: the request timeout and a
// fresh run id.
func (cfg *Config) defaults() {
	if cfg.Timeout <= 0 {
		cfg.Timeout = httpclient.DefaultTimeout
	}
	if cfg.RunID == "" {
		cfg.RunID = newRunID()
	}
}

func (cfg *Config) useLocal(l Local) {
	cfg.BaseURL, cfg.ControlsURL, cfg.AdminKey = l.BaseURL, l.ControlsURL, l.AdminKey
	cfg.Primary = l.Primary
	cfg.Secondary, cfg.LiveTier2, cfg.LiveLowKYB, cfg.NotWhitelisted = l.Secondary, l.LiveTier2, l.LiveLowKYB, l.NotWhitelisted
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
