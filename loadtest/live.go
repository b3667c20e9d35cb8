package loadtest

import (
	"errors"
	"fmt"

	"github.com/merchant-harness/mph/liveguard"
)

// LIVE consent. The load driver's reads are the token exchange (POST
// /auth/token creates nothing) and GET requests; every other request creates,
// moves money or changes state. Only a scenario's setup and teardown write
// (the secure scenario's: one customer registered, cards issued and funded,
// balances swept back), and they need Target.AllowLive unless every signal
// says TEST: the key's prefix, the token answer, the token's JWT claims and
// GET /cards/config (package liveguard). The setup asks
// (Scenario.consentToWrite) after the first token exchange and before its
// first write; the setup client also refuses any write carrying a LIVE
// credential. The embedded sandbox (started by mph itself, in process) holds
// no money in any environment and is exempt.

// ErrLiveRefused is wrapped by the error Prepare returns when the scenario
// would write with credentials that are not proven TEST and Target.AllowLive
// is off.
var ErrLiveRefused = errors.New("LIVE writes refused")

// LiveRefusal explains a refused scenario.
type LiveRefusal struct {
	Scenario    string
	Environment string // as the token answer states it ("" when absent)
	Why         string // the signals that make the credentials LIVE
	Writes      string // what the setup would write, e.g. "issues and funds cards"
	Instead     string // how to run the scenario without writing, if it can
}

func (e *LiveRefusal) Error() string {
	writes := e.Writes
	if writes == "" {
		writes = "writes"
	}
	msg := fmt.Sprintf("the credentials are LIVE (%s), and scenario %s %s (real money on LIVE): pass --allow-live to allow it", e.Why, e.Scenario, writes)
	if e.Instead != "" {
		msg += ", or " + e.Instead
	}
	return msg
}

func (e *LiveRefusal) Unwrap() error { return ErrLiveRefused }

// checkLiveConsent refuses writes unless the credentials are TEST by every
// signal or the operator consented.
func checkLiveConsent(v liveguard.Verdict, scenario string, allowLive bool) error {
	if !v.Live || allowLive {
		return nil
	}
	return &LiveRefusal{Scenario: scenario, Environment: v.Signals.Token, Why: v.Why}
}
