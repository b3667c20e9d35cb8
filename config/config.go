// Package target says what the harness tests: the base URL, the credentials,
// the sandbox test controls if the target has them, and the profile of its
// "not shown" choices. Every command is configured the same way: the
// environment (MPH_*), overridden by the flags given, plus a profile file;
// knobs.go declares each knob once, and the flags, the environment reading,
// Environ and the README's table are generated from it.
//
// With no base URL the embedded reference sandbox is started in process and
// its demo credentials are used, so every command works out of the box.
package config

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/merchant-harness/mph/api"
	"github.com/merchant-harness/mph/internal/hooklisten"
)

// Credentials of one merchant in one environment.
type Credentials struct {
	MerchantID string
	SecretKey  string
}

// Set reports whether both halves are present.
func (c *Credentials) Set() bool { return c != nil && c.MerchantID != "" && c.SecretKey != "" }

// String never prints the secret key.
func (c Credentials) String() string { return c.MerchantID + "/<SECRET_KEY>" }

// Config is a fully resolved target.
type Config struct {
	// BaseURL is the merchant root, ending in /v1/merchant.
	BaseURL string
	// ControlsURL is the sandbox test-control root ("" when the target has none).
	ControlsURL string
	AdminKey    string

	Primary        Credentials  // main TEST merchant (required)
	Secondary      *Credentials // a second TEST merchant, for isolation specs
	LiveTier2      *Credentials // LIVE credentials of a merchant at KYB Tier 2+
	LiveLowKYB     *Credentials // LIVE credentials of a merchant below KYB Tier 2
	NotWhitelisted *Credentials // credentials whose IP whitelist excludes this machine

	Profile  *api.Profile
	Embedded bool // BaseURL is the in-process sandbox
	Options
}

// Options are the settings a Config takes over as they were given.
type Options struct {
	ProfilePath string
	Timeout     time.Duration // per HTTP request
	AllowLive   bool          // allow writes with LIVE credentials (see README, LIVE credentials and money)
	InsecureTLS bool
	RunID       string // prefix of every reference the harness creates
	Network
	Webhooks
	Conform
}

// Network are the rules of every HTTP call to the target (docs/network.md).
type Network struct {
	// FollowRedirects follows same-origin redirects; others are never followed.
	FollowRedirects bool
	// MaxBody caps each answer body read (0: the command's default).
	MaxBody int64
	// RetryAfterMax is the longest Retry-After honoured (0: conform waits
	// as long as its --deadline allows, the other commands 30 s).
	RetryAfterMax time.Duration
}

// Webhooks say how the harness's webhook receivers meet the target.
type Webhooks struct {
	// WebhookReceiverURL is the public URL at which the target can reach the
	// harness's webhook receiver ("" = the receiver is only reachable when the
	// target runs on this machine).
	WebhookReceiverURL string
	// WebhooksPreconfigured overrides the profile's webhooks.preconfigured
	// (nil: the profile decides).
	WebhooksPreconfigured *bool
	// WebhookSecret is the key of the deliveries' signatures when the
	// profile says a webhook secret signs them.
	WebhookSecret string
	// WebhookListen is the local address a receiver listens on when its
	// public URL reaches this machine on another address ("" = the URL's
	// own host and port).
	WebhookListen string
	// WebhookAllowFrom lists the senders deliveries may come from
	// (addresses or networks, comma-separated; "" = any sender).
	WebhookAllowFrom string
}

// Receiver are the network rules of a webhook receiver whose public URL is
// public ("" for one on this machine).
func (w Webhooks) Receiver(public string) hooklisten.Rules {
	return hooklisten.Rules{Public: public, Local: w.WebhookListen, AllowFrom: w.WebhookAllowFrom}
}

// Preconfigured reports whether the settings declare the webhooks
// pre-configured (false when they leave it to the profile).
func (w Webhooks) Preconfigured() bool {
	return w.WebhooksPreconfigured != nil && *w.WebhooksPreconfigured
}

// Settings are the unresolved inputs: what the user said, before the
// embedded sandbox is started or the profile is read.
type Settings struct {
	BaseURL, ControlsURL, AdminKey string
	Primary, Secondary             Credentials
	LiveTier2, LiveLowKYB          Credentials
	NotWhitelisted                 Credentials
	// SandboxJWTSecret signs the access tokens of mph sandbox.
	SandboxJWTSecret string
	// Reports are where the suites write their reports under go test.
	Reports Reports
	Options
}

// Reports are the report paths of the suites run by go test or ginkgo
// (mph conform has flags of its own: --out, --junit-report, ...).
type Reports struct{ JUnit, JSON, HTML, Markdown string }

// UsageError is a configuration mistake (exit code 2).
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

func usage(format string, a ...any) error { return &UsageError{Msg: fmt.Sprintf(format, a...)} }

// ValidateBaseURL checks that the base URL is an http(s) merchant root of
// version 1.
func (s *Settings) ValidateBaseURL() error {
	u, err := url.Parse(s.BaseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return usage("base URL %q is not an http(s) URL", s.BaseURL)
	}
	if !strings.HasSuffix(strings.TrimRight(u.Path, "/"), "/v1/merchant") {
		return usage("base URL %q must end in /v1/merchant (the merchant root of version 1)", s.BaseURL)
	}
	return nil
}

// validateRemote checks settings that name a remote target.
func (s *Settings) validateRemote() error {
	if err := s.ValidateBaseURL(); err != nil {
		return err
	}
	if !s.Primary.Set() {
		return usage("a base URL needs credentials: set %s and %s (or %s_FILE)", EnvMerchantID, EnvSecretKey, EnvSecretKey)
	}
	return nil
}

func newRunID() string {
	b := make([]byte, 3)
	_, _ = rand.Read(b)
	return "mph" + hex.EncodeToString(b)
}

func optional(c Credentials) *Credentials {
	if !c.Set() {
		return nil
	}
	cp := c
	return &cp
}

// settings is the inverse of Resolve: the settings naming this target
// with these options, as a child process is told them (Environ).
func (c *Config) settings() Settings {
	s := Settings{BaseURL: c.BaseURL, ControlsURL: c.ControlsURL, AdminKey: c.AdminKey, Primary: c.Primary, Options: c.Options}
	for _, o := range []struct {
		dst *Credentials
		src *Credentials
	}{{&s.Secondary, c.Secondary}, {&s.LiveTier2, c.LiveTier2}, {&s.LiveLowKYB, c.LiveLowKYB}, {&s.NotWhitelisted, c.NotWhitelisted}} {
		if o.src.Set() {
			*o.dst = *o.src
		}
	}
	return s
}
