package embedded

import (
	"context"
	"testing"

	"github.com/merchant-harness/mph/config"
	"github.com/merchant-harness/mph/sandbox"
)

func TestInstanceHeaderAgrees(t *testing.T) {
	if config.InstanceHeader != sandbox.InstanceHeader {
		t.Fatalf("target.InstanceHeader %q, sandbox.InstanceHeader %q", config.InstanceHeader, sandbox.InstanceHeader)
	}
}

func TestResolveStartsTheSandboxWithItsDemoMerchants(t *testing.T) {
	cfg, cleanup, err := Resolve(context.Background(), config.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	defer cleanup()
	if !cfg.Embedded || cfg.BaseURL == "" || cfg.ControlsURL == "" || cfg.AdminKey == "" {
		t.Fatalf("embedded config incomplete: %+v", cfg)
	}
	for name, c := range map[string]*config.Credentials{"primary": &cfg.Primary, "secondary": cfg.Secondary, "live": cfg.LiveTier2, "live-low": cfg.LiveLowKYB, "blocked": cfg.NotWhitelisted} {
		if !c.Set() {
			t.Errorf("%s credentials not set", name)
		}
	}
}

func TestResolveWithoutBaseURLOrSandboxIsAUsageError(t *testing.T) {
	_, err := config.Resolve(config.Settings{}, nil)
	if _, ok := err.(*config.UsageError); !ok {
		t.Fatalf("err = %v, want a *target.UsageError", err)
	}
}
