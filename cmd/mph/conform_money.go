package main

import (
	"fmt"

	"github.com/spf13/pflag"

	"github.com/merchant-harness/mph/target"
)

// moneyFlags are the conform options about test money and politeness; they
// override the settings' (the environment's, as under `go test` and
// `ginkgo -p`) and reach the suites in the resolved Config.
type moneyFlags struct {
	noTeardown bool
	maxSpend   string
	maxRPS     float64
	plan       bool
	preHooks   bool
}

func (m *moneyFlags) bind(fs *pflag.FlagSet) {
	fs.BoolVar(&m.noTeardown, "no-teardown", false, "keep the created cards and their balances for inspection (default: sweep every card back to the vault and freeze it; env "+target.EnvNoTeardown+")")
	fs.StringVar(&m.maxSpend, "max-spend", "", "most test money the run may spend, fees included, e.g. USD=50,NGN=200000; specs that would go over are skipped with the reason (env "+target.EnvMaxSpend+")")
	fs.Float64Var(&m.maxRPS, "max-rps", 0, "most requests per second the suites send (0: no cap; env "+target.EnvMaxRPS+")")
	fs.BoolVar(&m.preHooks, "webhooks-preconfigured", false, "the target already delivers the main merchant's webhooks to --webhook-receiver-url: run the delivery specs without controls (env "+target.EnvWebhooksPreconfigured+", profile webhooks.preconfigured)")
	fs.BoolVar(&m.plan, "plan", false, "print what the selected specs will create and the most they can spend, without sending a request to the target")
}

// apply validates the flags and lays them over the settings (flags win over
// the environment).
func (m *moneyFlags) apply(s *target.Settings) error {
	if m.preHooks {
		yes := true
		s.WebhooksPreconfigured = &yes
	}
	if m.noTeardown {
		s.NoTeardown = true
	}
	if m.maxSpend != "" {
		max, err := target.ParseMaxSpend(m.maxSpend)
		if err != nil {
			return fmt.Errorf("--max-spend: %v", err)
		}
		s.MaxSpend = max
	}
	if m.maxRPS < 0 {
		return fmt.Errorf("--max-rps must be >= 0")
	}
	if m.maxRPS > 0 {
		s.MaxRPS = m.maxRPS
	}
	return nil
}
