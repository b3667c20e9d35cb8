package requirements

import (
	"slices"
	"sort"
)

// Capability is something a target must offer, beyond one TEST merchant,
// for a rule to be checked: the vocabulary of the catalogue's needs: and of
// a spec's Needs (suites/framework re-exports these values).
type Capability string

// The capabilities.
const (
	CapSandboxControls Capability = "sandbox-controls"     // any /_sandbox test control
	CapClock           Capability = "clock-control"        // /_sandbox/clock/advance
	CapTransactions    Capability = "transaction-control"  // /_sandbox/cards/{id}/transactions (+ settle)
	CapBalances        Capability = "balances-control"     // read/set merchant balances
	CapWebhookConfig   Capability = "webhook-config"       // set a merchant's webhook URL
	CapGiftHold        Capability = "gift-hold-control"    // hold a gift order in PROCESSING
	CapRateLimitCtl    Capability = "rate-limit-control"   // change rate limits
	CapIPWhitelistCtl  Capability = "ip-whitelist-control" // change IP whitelists
	CapSecondMerchant  Capability = "second-merchant"      // a second TEST merchant
	CapLiveTier2       Capability = "live-credentials"     // LIVE key of a merchant at KYB Tier 2+
	CapLiveLowKYB      Capability = "live-below-tier2"     // LIVE key of a merchant below KYB Tier 2
	CapNotWhitelisted  Capability = "non-whitelisted-merchant"
	CapWebhookReceiver Capability = "webhook-receiver" // the target can reach the harness's receiver
	CapTestEnvironment Capability = "test-environment" // primary credentials are TEST
)

// controls maps each control capability to the name /_sandbox/capabilities
// lists ("" for the controls as a whole); the others map to nothing.
var controls = map[Capability]string{
	CapSandboxControls: "",
	CapClock:           "clock",
	CapTransactions:    "transactions",
	CapBalances:        "balances",
	CapWebhookConfig:   "webhook",
	CapGiftHold:        "gift-hold",
	CapRateLimitCtl:    "rate-limits",
	CapIPWhitelistCtl:  "ip-whitelist",
}

// others are the capabilities that are no sandbox control.
var others = []Capability{CapSecondMerchant, CapLiveTier2, CapLiveLowKYB, CapNotWhitelisted, CapWebhookReceiver, CapTestEnvironment}

// Known reports whether c is in the vocabulary.
func (c Capability) Known() bool { return c.IsControl() || slices.Contains(others, c) }

// IsControl reports whether c is the sandbox test controls or one of them.
func (c Capability) IsControl() bool { _, ok := controls[c]; return ok }

// Control is the control's name in /_sandbox/capabilities, for the
// capabilities that are one named control.
func (c Capability) Control() (string, bool) {
	n := controls[c]
	return n, n != ""
}

// Implies reports whether offering c means offering d: itself, and any named
// control implies the sandbox controls.
func (c Capability) Implies(d Capability) bool {
	return c == d || d == CapSandboxControls && c.IsControl()
}

// Capabilities lists the vocabulary, sorted.
func Capabilities() []Capability {
	out := slices.Clone(others)
	for c := range controls {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}
