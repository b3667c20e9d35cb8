// Package target says what the harness tests: the base URL, the credentials,
// the sandbox test controls if the target has them, and the profile of its
// "not shown" choices. It is shared by `mph conform`, `mph load` and the
// suites run by `go test` / `ginkgo`, configured the same way everywhere:
// environment variables (MPH_*), overridden by flags, plus a profile file.
//
// With no base URL the embedded reference sandbox is started in process and
// its demo credentials are used, so every command works out of the box.
package target

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/merchant-harness/mph/api"
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

	// WebhookReceiverURL is the public URL at which the target can reach the
	// harness's webhook receiver ("" = the receiver is only reachable when the
	// target runs on this machine).
	WebhookReceiverURL string

	Profile     *api.Profile
	ProfilePath string
	Timeout     time.Duration // per HTTP request
	AllowLive   bool          // allow writes with LIVE credentials (see README, LIVE credentials and money)
	InsecureTLS bool
	RunID       string // prefix of every reference the harness creates
	Embedded    bool   // BaseURL is the in-process sandbox
	Network
	Suite
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

// Env names, in one place so docs and errors quote them exactly.
const (
	EnvBaseURL            = "MPH_BASE_URL"
	EnvMerchantID         = "MPH_MERCHANT_ID"
	EnvSecretKey          = "MPH_SECRET_KEY"
	EnvMerchant2ID        = "MPH_MERCHANT2_ID"
	EnvSecretKey2         = "MPH_SECRET_KEY2"
	EnvLiveMerchantID     = "MPH_LIVE_MERCHANT_ID"
	EnvLiveSecretKey      = "MPH_LIVE_SECRET_KEY"
	EnvLowKYBMerchantID   = "MPH_LIVE_LOWKYB_MERCHANT_ID"
	EnvLowKYBSecretKey    = "MPH_LIVE_LOWKYB_SECRET_KEY"
	EnvBlockedMerchantID  = "MPH_BLOCKED_MERCHANT_ID"
	EnvBlockedSecretKey   = "MPH_BLOCKED_SECRET_KEY"
	EnvControlsURL        = "MPH_CONTROLS_URL"
	EnvAdminKey           = "MPH_ADMIN_KEY"
	EnvProfile            = "MPH_PROFILE"
	EnvTimeout            = "MPH_TIMEOUT"
	EnvAllowLive          = "MPH_ALLOW_LIVE"
	EnvInsecureTLS        = "MPH_INSECURE_TLS"
	EnvWebhookReceiverURL = "MPH_WEBHOOK_RECEIVER_URL"
	EnvRunID              = "MPH_RUN_ID"
	EnvFollowRedirects    = "MPH_FOLLOW_REDIRECTS"
	EnvMaxBody            = "MPH_MAX_BODY"
	EnvRetryAfterMax      = "MPH_RETRY_AFTER_MAX"

	EnvWebhooksPreconfigured = "MPH_WEBHOOKS_PRECONFIGURED"
	EnvWebhookSecret         = "MPH_WEBHOOK_SECRET"
)

// Settings are the unresolved inputs: what the user said, before the
// embedded sandbox is started or the profile is read.
type Settings struct {
	BaseURL, ControlsURL, AdminKey string
	Primary, Secondary             Credentials
	LiveTier2, LiveLowKYB          Credentials
	NotWhitelisted                 Credentials
	WebhookReceiverURL             string
	ProfilePath                    string
	Timeout                        time.Duration
	AllowLive, InsecureTLS         bool
	RunID                          string
	Network
	Suite
}

// UsageError is a configuration mistake (exit code 2).
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

func usage(format string, a ...any) error { return &UsageError{Msg: fmt.Sprintf(format, a...)} }

// SettingsFromEnv reads the MPH_* environment. A secret may also come from a
// file named by the variable with a _FILE suffix (MPH_SECRET_KEY_FILE), so
// that secrets never need to be on a command line.
func SettingsFromEnv() (Settings, error) {
	var s Settings
	var err error
	get := func(name string) string {
		if err != nil {
			return ""
		}
		var v string
		v, err = secretFromEnv(name)
		return v
	}
	s.BaseURL = get(EnvBaseURL)
	s.Primary = Credentials{get(EnvMerchantID), get(EnvSecretKey)}
	s.Secondary = Credentials{get(EnvMerchant2ID), get(EnvSecretKey2)}
	s.LiveTier2 = Credentials{get(EnvLiveMerchantID), get(EnvLiveSecretKey)}
	s.LiveLowKYB = Credentials{get(EnvLowKYBMerchantID), get(EnvLowKYBSecretKey)}
	s.NotWhitelisted = Credentials{get(EnvBlockedMerchantID), get(EnvBlockedSecretKey)}
	s.ControlsURL = get(EnvControlsURL)
	s.AdminKey = get(EnvAdminKey)
	s.ProfilePath = get(EnvProfile)
	s.WebhookReceiverURL = get(EnvWebhookReceiverURL)
	s.RunID = get(EnvRunID)
	if err != nil {
		return s, err
	}
	if v := os.Getenv(EnvTimeout); v != "" {
		d, perr := time.ParseDuration(v)
		if perr != nil || d <= 0 {
			return s, usage("%s=%q is not a positive duration (e.g. 10s)", EnvTimeout, v)
		}
		s.Timeout = d
	}
	if err := s.Network.fromEnv(); err != nil {
		return s, err
	}
	if err := s.Suite.fromEnv(); err != nil {
		return s, err
	}
	for name, dst := range map[string]*bool{EnvAllowLive: &s.AllowLive, EnvInsecureTLS: &s.InsecureTLS, EnvFollowRedirects: &s.FollowRedirects} {
		if v := os.Getenv(name); v != "" {
			b, perr := strconv.ParseBool(v)
			if perr != nil {
				return s, usage("%s=%q is not a boolean", name, v)
			}
			*dst = b
		}
	}
	return s, nil
}

func secretFromEnv(name string) (string, error) {
	if v := os.Getenv(name); v != "" {
		return strings.TrimSpace(v), nil
	}
	if f := os.Getenv(name + "_FILE"); f != "" {
		b, err := os.ReadFile(f)
		if err != nil {
			return "", usage("%s_FILE: %v", name, err)
		}
		return strings.TrimSpace(string(b)), nil
	}
	return "", nil
}

// validateRemote checks settings that name a remote target.
func (s *Settings) validateRemote() error {
	u, err := url.Parse(s.BaseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return usage("base URL %q is not an http(s) URL", s.BaseURL)
	}
	if !strings.HasSuffix(strings.TrimRight(u.Path, "/"), "/v1/merchant") {
		return usage("base URL %q must end in /v1/merchant (the merchant root of version 1)", s.BaseURL)
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

func (n *Network) fromEnv() error {
	if v := os.Getenv(EnvMaxBody); v != "" {
		var b ByteSize
		if err := b.Set(v); err != nil || b <= 0 {
			return usage("%s=%q is not a positive size (e.g. 65536, 64KiB, 1MiB)", EnvMaxBody, v)
		}
		n.MaxBody = int64(b)
	}
	if v := os.Getenv(EnvRetryAfterMax); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return usage("%s=%q is not a positive duration (e.g. 30s)", EnvRetryAfterMax, v)
		}
		n.RetryAfterMax = d
	}
	return nil
}
