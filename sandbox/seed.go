package sandbox

import (
	"net/netip"

	"github.com/merchant-harness/mph/sandbox/state"
)

// DemoMerchant is a seeded, well-known merchant of docs/sandbox.md.
type DemoMerchant struct {
	ID      string
	TestKey string
	LiveKey string // "" when the merchant has no LIVE key
	KYBTier int
	Role    string
}

// DemoMerchants returns the seeded merchants of docs/sandbox.md.
func DemoMerchants() []DemoMerchant {
	return []DemoMerchant{
		{ID: "mer_demo_alpha", TestKey: "sk_test_alpha_7f3a9c2e51d84b06", LiveKey: "sk_live_alpha_0b6d48e15c2a9f37", KYBTier: 2,
			Role: "main TEST merchant; LIVE at Tier 2"},
		{ID: "mer_demo_bravo", TestKey: "sk_test_bravo_4c8e1a7d92f3b560", LiveKey: "sk_live_bravo_e29f5b03d7c1a846", KYBTier: 1,
			Role: "second TEST merchant (isolation); LIVE below Tier 2"},
		{ID: "mer_demo_delta", TestKey: "sk_test_delta_91b7e3c05a4f2d68", KYBTier: 2,
			Role: "non-whitelisted caller: TEST whitelist 203.0.113.10 only"},
	}
}

// seeds are the demo merchants as the state seeds them: the starting
// balances, and the TEST whitelist of mer_demo_delta.
func seeds() []state.Seed {
	demo := DemoMerchants()
	out := make([]state.Seed, len(demo))
	for i, d := range demo {
		out[i] = state.Seed{ID: d.ID, TestKey: d.TestKey, LiveKey: d.LiveKey, KYBTier: d.KYBTier, Vault: seedVault, NGN: seedNGN}
		if d.ID == "mer_demo_delta" {
			out[i].Whitelist[state.EnvTest] = []netip.Addr{netip.MustParseAddr("203.0.113.10")}
		}
	}
	return out
}

// Seeded starting balances of every merchant and environment.
const (
	seedVault = 10000_00   // USD 10,000.00
	seedNGN   = 5000000_00 // NGN 5,000,000.00
)
