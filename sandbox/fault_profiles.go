package sandbox

import _ "embed"

// faultProfiles are the profile overlays of the faults that break a rule the
// suites check only under a strict knob: the shipped default profile takes
// the lenient reading of every open point, under which such a fault is an
// allowed server, so its self-test run declares the knob a provider would
// set to have the rule checked. Each strict knob is thereby proven by the
// fault that needs it.
var faultProfiles = map[string]string{
	// "the path value is informational": the prefix is a strict reading.
	"envelope-path-no-version-root": "strict:\n  envelopePath: true\n",
	// A message's words: the document states a meaning, not a sentence.
	"status-message-silent":          "strict:\n  messageWording: true\n",
	"card-not-found-message-generic": "strict:\n  messageWording: true\n",
	// "COMPLETED is the only value shown. Transitions of createdStatus: not shown."
	"card-created-status-pending": "strict:\n  createdStatusCompleted: true\n",
	// RFC 6749 section 5.1: the token type is case-insensitive.
	"token-type-lowercase": "strict:\n  tokenTypeCase: true\n",
	// The token answer's members are listed, their presence is not stated.
	"token-no-merchant-id": "strict:\n  allListedFields: true\n",
	// Merge or replace is not shown: a program default for a limit not
	// supplied is allowed, 1000.00 for all is such a default.
	"limits-reset-on-update": "cards:\n  spendLimitsPut: keep\n",
	// vaultBalance is not documented as real-time: a value that never moves
	// is stale beyond any bound only under strict.listingFreshness.
	"config-vault-stale": "strict:\n  listingFreshness: true\n",
}

//go:embed profile.yaml
var profileYAML []byte

// ProfileYAML is the sandbox's own target profile (sandbox/profile.yaml):
// its choice at every open point, strict knobs included.
func ProfileYAML() []byte { return append([]byte(nil), profileYAML...) }
