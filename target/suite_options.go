package target

import (
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/merchant-harness/mph/money"
)

// Env names of a conformance run's options (mph conform's flags override
// them).
const (
	EnvSlow       = "MPH_SLOW"
	EnvNoTeardown = "MPH_NO_TEARDOWN"
	EnvMaxSpend   = "MPH_MAX_SPEND"
	EnvMaxRPS     = "MPH_MAX_RPS"
)

// Suite are the options of a conformance run. They travel in the Config, so
// that every parallel process of a run has the same ones.
type Suite struct {
	Slow       bool             // also run specs that wait out real time
	NoTeardown bool             // keep the created cards and their balances
	MaxSpend   map[string]int64 // most test money per currency, minor units (nil: no cap)
	MaxRPS     float64          // most requests per second per process (0: no cap)
	// WebhooksPreconfigured overrides the profile's webhooks.preconfigured
	// (nil: the profile decides).
	WebhooksPreconfigured *bool
}

func (s *Suite) fromEnv() error {
	for name, dst := range map[string]*bool{EnvSlow: &s.Slow, EnvNoTeardown: &s.NoTeardown} {
		if v := os.Getenv(name); v != "" {
			b, err := strconv.ParseBool(v)
			if err != nil {
				return usage("%s=%q is not a boolean", name, v)
			}
			*dst = b
		}
	}
	if v := os.Getenv(EnvWebhooksPreconfigured); v != "" {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return usage("%s=%q is not a boolean", EnvWebhooksPreconfigured, v)
		}
		s.WebhooksPreconfigured = &b
	}
	if v := os.Getenv(EnvMaxSpend); v != "" {
		m, err := ParseMaxSpend(v)
		if err != nil {
			return usage("%s: %v", EnvMaxSpend, err)
		}
		s.MaxSpend = m
	}
	if v := os.Getenv(EnvMaxRPS); v != "" {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || f < 0 {
			return usage("%s=%q is not a rate >= 0", EnvMaxRPS, v)
		}
		s.MaxRPS = f
	}
	return nil
}

// Environ renders the options as the environment SettingsFromEnv reads.
func (s Suite) Environ() []string {
	var env []string
	if s.Slow {
		env = append(env, EnvSlow+"=1")
	}
	if s.NoTeardown {
		env = append(env, EnvNoTeardown+"=1")
	}
	if s.WebhooksPreconfigured != nil {
		env = append(env, EnvWebhooksPreconfigured+"="+strconv.FormatBool(*s.WebhooksPreconfigured))
	}
	if s.MaxSpend != nil {
		env = append(env, EnvMaxSpend+"="+FormatMaxSpend(s.MaxSpend))
	}
	if s.MaxRPS > 0 {
		env = append(env, EnvMaxRPS+"="+strconv.FormatFloat(s.MaxRPS, 'f', -1, 64))
	}
	return env
}

// ParseMaxSpend reads "USD=50,NGN=200000" into minor units per currency.
func ParseMaxSpend(s string) (map[string]int64, error) {
	out := map[string]int64{}
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		cur, amt, ok := strings.Cut(part, "=")
		cur = strings.ToUpper(strings.TrimSpace(cur))
		if !ok || len(cur) != 3 {
			return nil, fmt.Errorf("max spend %q: want CURRENCY=AMOUNT, e.g. USD=50,NGN=200000", part)
		}
		a, err := money.Parse(strings.TrimSpace(amt))
		if err != nil || a < 0 {
			return nil, fmt.Errorf("max spend %q: %q is not an amount >= 0", part, amt)
		}
		out[cur] = a.Minor()
	}
	return out, nil
}

// FormatMaxSpend is the inverse of ParseMaxSpend (currencies sorted).
func FormatMaxSpend(m map[string]int64) string {
	parts := make([]string, 0, len(m))
	for cur, minor := range m {
		parts = append(parts, cur+"="+money.FromMinor(minor).String())
	}
	sort.Strings(parts)
	return strings.Join(parts, ",")
}
