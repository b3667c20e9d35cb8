package fault

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
	// The document shows an error without path (the gift order 404 with
	// only statusCode, message and error): a path on every error is the
	// strict reading.
	"error-envelope-no-path": "strict:\n  errorEnvelopeComplete: true\n",
	// "Exceeding the API rate limits gives 429": a 429 in another form than
	// the error envelope is a gateway's answer unless the provider says its
	// 429s carry the envelope.
	"rate-limit-bare-429": "rateLimits:\n  envelope: required\n",
	// "Requests with a body use Content-Type: application/json" is said of
	// clients; that the server refuses another type is the provider's choice.
	"body-content-type-unchecked": "errors:\n  refuses:\n    nonJsonContentType: true\n",
	// "bounds of gift card amounts: not shown": refusing a negative amount is
	// the provider's choice.
	"gift-amount-sign-ignored": "errors:\n  refuses:\n    negativeGiftAmount: true\n",
	// Only GET /cards/{id} is documented as real-time: a listing that leaves
	// resources out cannot be told from one that lags, except where the
	// provider says its listings are fresh within cards.listingFreshness.
	"customer-list-first-page-only": "strict:\n  listingFreshness: true\n",
	"customer-list-drops-newest":    "strict:\n  listingFreshness: true\n",
	"card-list-first-page-only":     "strict:\n  listingFreshness: true\n",
	// "Payload shape of delivered events: not shown": the delivered kind is
	// judged where the provider says a delivery carries it.
	"webhook-delivered-kind-wrong": "webhooks:\n  deliveryKindPointer: /type\n",
	// How long upstream reconciliation takes is not shown: an order never
	// fulfilled fails only where the provider bounds it (the sandbox's
	// bound, so that the run stays short).
	"gift-verify-never-reconciles": "strict:\n  giftReconciliation: true\ngiftCards:\n  verifyAttempts: 5\n  verifyInterval: 200ms\n",
	// The scenarios give a meaning, not a sentence: keywords are the strict
	// reading of a message.
	"bearer-401-message-vague": "strict:\n  messageWording: true\n",
}
