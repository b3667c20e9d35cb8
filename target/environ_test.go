package target

import (
	"os"
	"reflect"
	"strings"
	"testing"
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
		ProfilePath:    "profile.yaml",
		AllowLive:      true,
		Suite: Suite{Slow: true, NoTeardown: true, MaxSpend: map[string]int64{"USD": 5000, "NGN": 20000050},
			MaxRPS: 2.5, WebhooksPreconfigured: &yes},
	}
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); strings.HasPrefix(k, "MPH_") {
			t.Setenv(k, "")
		}
	}
	for _, kv := range Environ(cfg) {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	s, err := SettingsFromEnv()
	if err != nil {
		t.Fatal(err)
	}
	want := Settings{
		BaseURL: cfg.BaseURL, ControlsURL: cfg.ControlsURL, AdminKey: cfg.AdminKey,
		Primary: cfg.Primary, Secondary: *cfg.Secondary, LiveTier2: *cfg.LiveTier2,
		LiveLowKYB: *cfg.LiveLowKYB, NotWhitelisted: *cfg.NotWhitelisted,
		ProfilePath: cfg.ProfilePath, AllowLive: true, Suite: cfg.Suite,
	}
	if !reflect.DeepEqual(s, want) {
		t.Fatalf("round trip:\n got %+v\nwant %+v", s, want)
	}
}
