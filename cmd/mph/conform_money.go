package main

import (
	"fmt"
	"os"
	"strconv"

	"github.com/spf13/pflag"

	"github.com/merchant-harness/mph/suites/framework"
	"github.com/merchant-harness/mph/target"
)

// moneyFlags are the conform options about test money and politeness; they
// reach the suites through their environment variables, so that `go test`
// and `ginkgo -p` runs take the same settings.
type moneyFlags struct {
	noTeardown bool
	maxSpend   string
	maxRPS     float64
	plan       bool
	preHooks   bool
}

func (m *moneyFlags) bind(fs *pflag.FlagSet) {
	fs.BoolVar(&m.noTeardown, "no-teardown", false, "keep the created cards and their balances for inspection (default: sweep every card back to the vault and freeze it; env "+framework.EnvNoTeardown+")")
	fs.StringVar(&m.maxSpend, "max-spend", "", "most test money the run may spend, fees included, e.g. USD=50,NGN=200000; specs that would go over are skipped with the reason (env "+framework.EnvMaxSpend+")")
	fs.Float64Var(&m.maxRPS, "max-rps", 0, "most requests per second the suites send (0: no cap; env "+framework.EnvMaxRPS+")")
	fs.BoolVar(&m.preHooks, "webhooks-preconfigured", false, "the target already delivers the main merchant's webhooks to --webhook-receiver-url: run the delivery specs without controls (env "+target.EnvWebhooksPreconfigured+", profile webhooks.preconfigured)")
	fs.BoolVar(&m.plan, "plan", false, "print what the selected specs will create and the most they can spend, without sending a request to the target")
}

// apply validates the flags and exports them to the suites.
func (m *moneyFlags) apply() error {
	if m.preHooks {
		_ = os.Setenv(target.EnvWebhooksPreconfigured, "1")
	}
	if m.noTeardown {
		_ = os.Setenv(framework.EnvNoTeardown, "1")
	}
	if m.maxSpend != "" {
		if _, err := framework.ParseMaxSpend(m.maxSpend); err != nil {
			return fmt.Errorf("--max-spend: %v", err)
		}
		_ = os.Setenv(framework.EnvMaxSpend, m.maxSpend)
	} else if v := os.Getenv(framework.EnvMaxSpend); v != "" {
		if _, err := framework.ParseMaxSpend(v); err != nil {
			return fmt.Errorf("%s: %v", framework.EnvMaxSpend, err)
		}
	}
	if m.maxRPS < 0 {
		return fmt.Errorf("--max-rps must be >= 0")
	}
	if m.maxRPS > 0 {
		_ = os.Setenv(framework.EnvMaxRPS, strconv.FormatFloat(m.maxRPS, 'f', -1, 64))
	}
	return nil
}
