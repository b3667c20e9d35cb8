package embedded

import (
	"context"
	"testing"

	"github.com/merchant-harness/mph/sandbox"
	"github.com/merchant-harness/mph/target"
)

func TestInstanceHeaderAgrees(t *testing.T) {
	if target.InstanceHeader != sandbox.InstanceHeader {
		t.Fatalf("target.InstanceHeader %q, sandbox.InstanceHeader %q", target.InstanceHeader, sandbox.InstanceHeader)
	}
}

func TestResolveStartsTheSandboxWithItsDemoMerchants(t *testing.T) {
	cfg, cleanup, err := Resolve(context.Background(), target.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	defer cleanup()
	if !cfg.Embedded || cfg.BaseURL == "" || cfg.ControlsURL == "" || cfg.AdminKey == "" {
		t.Fatalf("embedded config incomplete: %+v", cfg)
	}
	for name, c := range map[string]*target.Credentials{"primary": &cfg.Primary, "secondary": cfg.Secondary, "live": cfg.LiveTier2, "live-low": cfg.LiveLowKYB, "blocked": cfg.NotWhitelisted} {
		if !c.Set() {
			t.Errorf("%s credentials not set", name)
		}
	}
}

func TestResolveWithoutBaseURLOrSandboxIsAUsageError(t *testing.T) {
	_, err := target.Resolve(target.Settings{}, nil)
	if _, ok := err.(*target.UsageError); !ok {
		t.Fatalf("err = %v, want a *target.UsageError", err)
	}
}
