package loadtest

import (
	"errors"
	"fmt"
)

// LIVE consent. The load driver's reads are the token exchange (POST
// /auth/token creates nothing) and GET requests; every other request creates,
// moves money or changes state. The only writes are the secure scenario's
// setup (one customer registered, cards issued and funded, balances swept
// back) and they need Target.AllowLive unless the token answer
// states environment TEST. The check runs after the first token exchange and
// before the first write. The embedded sandbox (started by mph itself, in
// process) holds no money in any environment and is exempt.

// ErrLiveRefused is wrapped by the error Prepare returns when the scenario
// would write with credentials that are not proven TEST and Target.AllowLive
// is off.
var ErrLiveRefused = errors.New("LIVE writes refused")

// LiveRefusal explains a refused scenario.
type LiveRefusal struct {
	Scenario    string
	Environment string // as the token answer states it ("" when absent)
}

func (e *LiveRefusal) Error() string {
	env := e.Environment
	if env == "" {
		env = "no environment"
	}
	return fmt.Sprintf("the token answer states %s, not TEST, and scenario %s issues and funds cards (real money on LIVE): pass --allow-live (MPH_ALLOW_LIVE=1) to allow it, or give --card-ids of existing cards so that nothing is written", env, e.Scenario)
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
