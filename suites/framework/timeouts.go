package framework

import "time"

// TimeoutConfig is every bound a spec or the run waits within, in one place
// (the shape of Gateway API's conformance TimeoutConfig). Specs read it
// through Timeouts(); the target profile feeds the fields the API document
// does not fix. A spec never sleeps to prove that something did not happen
// (Gomega's Consistently does, within a bound from here) nor to age a
// timestamp when the target offers the clock control.
type TimeoutConfig struct {
	// Fixture bounds one set-up step outside a spec's context (reading the
	// fees the spend books need).
	Fixture time.Duration
	// Teardown bounds the sweep after the last spec; InterruptTeardown the
	// sweep after SIGINT/SIGTERM.
	Teardown, InterruptTeardown time.Duration
	// DeadlineGrace lets the spec running at --deadline finish its current
	// request (each has its own timeout) before Ginkgo interrupts it.
	DeadlineGrace time.Duration
	// WebhookDelivery bounds the wait for one delivery (profile
	// webhooks.deliveryWait: how soon a delivery arrives is not shown).
	WebhookDelivery time.Duration
	// RetryAfterMax is the longest rate-limit window a spec waits out
	// (profile rateLimits.maxRetryAfter).
	RetryAfterMax time.Duration
	// GiftVerifyInterval is the pause between verifications of a PROCESSING
	// gift order (profile giftCards.verifyInterval).
	GiftVerifyInterval time.Duration
	// TokenExpiry is how far past issue a token is certainly expired: the
	// document's 900 s lifetime and one second.
	TokenExpiry time.Duration
	// SlowSpec bounds a spec that waits out TokenExpiry in real time.
	SlowSpec time.Duration
	// TimestampTick is how far time must move for any timestamp precision
	// (whole seconds at worst) to show a change.
	TimestampTick time.Duration
	// ListingFreshness bounds the wait for a listing or the vault balance to
	// show a write (profile cards.listingFreshness: only GET /cards/{id} is
	// documented as real-time); FreshPoll is the first pause between reads.
	ListingFreshness, FreshPoll time.Duration
	// CardCreation bounds the wait for a new card to show what its
	// processor assigns later (profile cards.creationWait).
	CardCreation time.Duration
	// CustomerApproval bounds the wait for a new customer to be approved
	// (profile customers.approvalWait: verification states are not shown).
	CustomerApproval time.Duration
}

// DefaultTimeoutConfig is the configuration before the profile is applied:
// the profile-fed fields are zero (their defaults are the embedded profile's,
// api/profile.default.yaml).
func DefaultTimeoutConfig() TimeoutConfig {
	return TimeoutConfig{
		Fixture:           20 * time.Second,
		Teardown:          5 * time.Minute,
		InterruptTeardown: 2 * time.Minute,
		DeadlineGrace:     15 * time.Second,
		TokenExpiry:       901 * time.Second,
		SlowSpec:          20 * time.Minute,
		TimestampTick:     1100 * time.Millisecond,
		FreshPoll:         200 * time.Millisecond,
	}
}

// Timeouts is the configuration of this run: the defaults with the target
// profile's waits once the harness is set up.
func Timeouts() TimeoutConfig {
	t := DefaultTimeoutConfig()
	if h.cfg == nil || h.cfg.Profile == nil {
		return t
	}
	p := h.cfg.Profile
	t.WebhookDelivery = p.Webhooks.DeliveryWait
	t.RetryAfterMax = p.RateLimits.MaxRetryAfter
	t.GiftVerifyInterval = p.GiftCards.VerifyInterval
	t.ListingFreshness = p.Cards.ListingFreshness
	t.CustomerApproval = p.Customers.ApprovalWait
	t.CardCreation = p.Cards.CreationWait
	return t
}
