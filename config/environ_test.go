package config

import (
	"os"
	"reflect"
	"strings"
	"testing"
	"time"
)

// Environ is the inverse of SettingsFromEnv: what a child reads back is what
// the parent resolved.
func TestEnvironRoundTrip(t *testing.T) {
	yes := true
	cfg := &Config{
		BaseURL:        "https://api.example.test/v1/merchant",
		ControlsURL:    "https://api.example.test/_sandbox",
		AdminKey:       "admin-k",
		Primary:        Credentials{"mer_a", "key-a"},
		Secondary:      &Credentials{"mer_b", "key-b"},
		LiveTier2:      &Credentials{"mer_c", "key-c"},
		LiveLowKYB:     &Credentials{"mer_d", "key-d"},
		NotWhitelisted: &Credentials{"mer_e", "key-e"},
		Options: Options{ProfilePath: "profile.yaml", AllowLive: true, Timeout: 3 * time.Second, RunID: "mphabc",
			Network:  Network{FollowRedirects: true, MaxBody: 64 << 10, RetryAfterMax: time.Minute},
			Webhooks: Webhooks{WebhookReceiverURL: "https://hooks.example.test/mph", WebhooksPreconfigured: &yes, WebhookSecret: "whsec", WebhookListen: "0.0.0.0:8080", WebhookAllowFrom: "10.0.0.0/8"},
			Conform:  Conform{Slow: true, NoTeardown: true, MaxSpend: map[string]int64{"USD": 5000, "NGN": 20000050}, MaxRPS: 2.5}},
	}
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); strings.HasPrefix(k, EnvPrefix) {
			t.Setenv(k, "")
		}
	}
	for _, kv := range Environ(cfg) {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	s, err := SettingsFromEnv(CmdConform)
	if err != nil {
		t.Fatal(err)
	}
	want := Settings{
		BaseURL: cfg.BaseURL, ControlsURL: cfg.ControlsURL, AdminKey: cfg.AdminKey,
		Primary: cfg.Primary, Secondary: *cfg.Secondary, LiveTier2: *cfg.LiveTier2,
		LiveLowKYB: *cfg.LiveLowKYB, NotWhitelisted: *cfg.NotWhitelisted,
		Options: cfg.Options,
	}
	if !reflect.DeepEqual(s, want) {
		t.Fatalf("round trip:\n got %+v\nwant %+v", s, want)
	}
}
