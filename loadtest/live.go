package loadtest

import (
	"errors"
	"fmt"
)

// LIVE consent. The load driver's reads are the token exchange (POST
// /auth/token creates nothing) and GET requests; every other request creates,
// moves money or changes state. Only a scenario's setup and teardown write
// (the secure scenario's: one customer registered, cards issued and funded,
// balances swept back), and they need Target.AllowLive unless the token
// answer states environment TEST. The setup asks (Scenario.consentToWrite)
// after the first token exchange and before its first write. The embedded sandbox (started by mph itself, in
// process) holds no money in any environment and is exempt.

// ErrLiveRefused is wrapped by the error Prepare returns when the scenario
// would write with credentials that are not proven TEST and Target.AllowLive
// is off.
var ErrLiveRefused = errors.New("LIVE writes refused")

// LiveRefusal explains a refused scenario.
type LiveRefusal struct {
	Scenario    string
	Environment string // as the token answer states it ("" when absent)
	Writes      string // what the setup would write, e.g. "issues and funds cards"
	Instead     string // how to run the scenario without writing, if it can
}

func (e *LiveRefusal) Error() string {
	env := e.Environment
	if env == "" {
		env = "no environment"
	}
	writes := e.Writes
	if writes == "" {
		writes = "writes"
	}
	msg := fmt.Sprintf("the token answer states %s, not TEST, and scenario %s %s (real money on LIVE): pass --allow-live (MPH_ALLOW_LIVE=1) to allow it", env, e.Scenario, writes)
	if e.Instead != "" {
		msg += ", or " + e.Instead
	}
	return msg
}

func (e *LiveRefusal) Unwrap() error { return ErrLiveRefused }

// checkLiveConsent refuses writes unless the environment is TEST or the
// operator consented.
func checkLiveConsent(env, scenario string, allowLive bool) error {
	if env == "TEST" || allowLive {
		return nil
	}
	return &LiveRefusal{Scenario: scenario, Environment: env}
}
