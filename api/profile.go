package api

import (
	_ "embed"
	"fmt"
	"math/big"
	"os"
	"slices"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

//go:embed profile.default.yaml
var defaultProfileYAML []byte

// DefaultProfileYAML is the embedded default profile, the lenient reading of
// every open point; `mph conform --print-profile` shows it as a template.
func DefaultProfileYAML() []byte { return defaultProfileYAML }

// Profile holds every choice the API document leaves "not shown". See
// profile.default.yaml for the meaning of each field.
type Profile struct {
	Auth       AuthProfile       `yaml:"auth"`
	Customers  CustomersProfile  `yaml:"customers"`
	Issuance   IssuanceProfile   `yaml:"issuance"`
	Cards      CardsProfile      `yaml:"cards"`
	GiftCards  GiftCardsProfile  `yaml:"giftCards"`
	Betting    BettingProfile    `yaml:"betting"`
	Webhooks   WebhooksProfile   `yaml:"webhooks"`
	RateLimits RateLimitsProfile `yaml:"rateLimits"`
	Errors     ErrorsProfile     `yaml:"errors"`
	// TestData sizes the harness's own data to business rules the document
	// leaves open.
	TestData TestDataProfile `yaml:"testData"`
	// Strictness of readings where the document leaves room: lenient by
	// default, strict when the provider declares it.
	Strict StrictProfile `yaml:"strict"`
	// Undetermined lists the keys discovery could not settle: a spec
	// depending on one reaches no verdict naming it.
	Undetermined []string `yaml:"undetermined"`
}

// TestDataProfile sizes what the harness sends so that no business rule the
// document leaves open refuses it.
type TestDataProfile struct {
	// EmailDomain is the domain of every e-mail address the harness sends.
	EmailDomain string `yaml:"emailDomain"`
	// NameMaxLength bounds the nameOnCard the harness sends.
	NameMaxLength int `yaml:"nameMaxLength"`
	// CardsPerCustomer is how many cards the fixtures issue to one customer
	// before they register the next.
	CardsPerCustomer int `yaml:"cardsPerCustomer"`
	// MaxProbeAmount (USD, major units) is the most a spec spends to provoke
	// a refusal through an unknown without the balances control.
	MaxProbeAmount string `yaml:"maxProbeAmount"`
}

// StrictProfile switches the lenient readings of the document to strict ones.
type StrictProfile struct {
	// EnvelopePath: the echoed path (after the version root) is exactly the
	// request path, without a query string.
	EnvelopePath bool `yaml:"envelopePath"`
	// AllCardFields: every field of the Card table is present and non-null.
	AllCardFields bool `yaml:"allCardFields"`
	// MaskedPan16: maskedPan has 16 positions (6 digits, 6 masks, 4 digits).
	MaskedPan16 bool `yaml:"maskedPan16"`
	// MinimumAsValidation: an amount below a documented minimum is a payload
	// validation failure whose message is an array of strings.
	MinimumAsValidation bool `yaml:"minimumAsValidation"`
	// CreatedStatusCompleted: createdStatus is COMPLETED.
	CreatedStatusCompleted bool `yaml:"createdStatusCompleted"`
	// MessageWording: messages are checked for their wording (keyword
	// families), beyond their documented meaning.
	MessageWording bool `yaml:"messageWording"`
	// ApplicationJSON: answers are labelled exactly application/json.
	ApplicationJSON bool `yaml:"applicationJson"`
	// ListingFreshness: a listing still missing a write after
	// cards.listingFreshness is a failure, not no verdict.
	ListingFreshness bool `yaml:"listingFreshness"`
	// KYBRefusesReads: a merchant below KYB Tier 2 is refused reads too.
	KYBRefusesReads bool `yaml:"kybRefusesReads"`
	// ContactSuccessTrue: the contact update answers success true.
	ContactSuccessTrue bool `yaml:"contactSuccessTrue"`
	// AllListedFields: the access token, the card configuration and the
	// secure card details carry every member the document lists, non-null.
	AllListedFields bool `yaml:"allListedFields"`
	// TokenTypeCase: tokenType is exactly "Bearer".
	TokenTypeCase bool `yaml:"tokenTypeCase"`
	// TokenMerchantIDEcho: the token answer's merchantId is the merchantId
	// of the exchange.
	TokenMerchantIDEcho bool `yaml:"tokenMerchantIdEcho"`
	// ErrorEnvelopeComplete: every error carries all six members of the
	// error envelope (lenient: statusCode, message and error, as the
	// document shows the gift order 404; the others checked when present).
	ErrorEnvelopeComplete bool `yaml:"errorEnvelopeComplete"`
	// GiftReconciliation: a gift order still not fulfilled after
	// giftCards.verifyAttempts verifies is a failure, not no verdict.
	GiftReconciliation bool `yaml:"giftReconciliation"`
}

type AuthProfile struct {
	MerchantIDHeader string `yaml:"merchantIdHeader"`
}

type CustomersProfile struct {
	Fields            map[string]string `yaml:"fields"`
	CustomerIDPointer string            `yaml:"customerIdPointer"`
	ListPointer       string            `yaml:"listPointer"`
	ListIDField       string            `yaml:"listIdField"`
	// ApprovalWait bounds how long a new customer may take to be approved:
	// the first issuance to it is retried within it while refused.
	ApprovalWait time.Duration `yaml:"approvalWait"`
}

type IssuanceProfile struct {
	Path            string         `yaml:"path"`
	CustomerIDField string         `yaml:"customerIdField"`
	ReferenceField  string         `yaml:"referenceField"`
	Extra           map[string]any `yaml:"extra" profile:"open"`
	CardPointer     string         `yaml:"cardPointer"`
	InitialBalance  string         `yaml:"initialBalance"`
	// DuplicateReference: how a second issuance with an existing reference
	// is answered: conflict (409), replay (2xx with the original card) or
	// either.
	DuplicateReference string `yaml:"duplicateReference"`
}

type CardsProfile struct {
	ListMaxLimit int `yaml:"listMaxLimit"`
	// ListingFreshness bounds how long listings and the vault balance may
	// take to show a write.
	ListingFreshness time.Duration `yaml:"listingFreshness"`
	// WithdrawVaultCredit and WithdrawCardDebit: which side pays the
	// withdrawalFee (either, or one reading, or unchecked).
	WithdrawVaultCredit string `yaml:"withdrawVaultCredit"`
	WithdrawCardDebit   string `yaml:"withdrawCardDebit"`
	// FundFeeUnit: whether fundFee is an amount, a percentage or either.
	FundFeeUnit string `yaml:"fundFeeUnit"`
	// SpendLimitTimezone: the IANA zone of the limits' calendar day and
	// month, "" when unknown.
	SpendLimitTimezone string `yaml:"spendLimitTimezone"`
	// SameStatus: the answer to PATCH status with the card's current status:
	// ok (200), refused (4xx) or any.
	SameStatus string `yaml:"sameStatus"`
	// SpendLimitsPut: what becomes of the limits a PUT spend-limits does
	// not supply: keep (their value), unset, default (the value a new card
	// shows), or any of the three.
	SpendLimitsPut string `yaml:"spendLimitsPut"`
	// CreationWait bounds how long a new card may take to show what its
	// processor assigns later (its maskedPan; createdStatus COMPLETED).
	CreationWait time.Duration `yaml:"creationWait"`
}

type QuoteProfile struct {
	Params          map[string]string `yaml:"params" profile:"open"`
	AmountPointer   string            `yaml:"amountPointer"`
	SubtotalPointer string            `yaml:"subtotalPointer"`
	FeePointer      string            `yaml:"feePointer"`
	TotalPointer    string            `yaml:"totalPointer"`
	TotalIsSum      bool              `yaml:"totalIsSum"`
}

// GiftQuoteProfile is the gift quote: a quote, and whether a purchase right
// after it costs exactly the quoted total.
type GiftQuoteProfile struct {
	QuoteProfile `yaml:",inline"`
	HoldsPrice   bool `yaml:"holdsPrice"`
}

type GiftCardsProfile struct {
	ProductCode string           `yaml:"productCode"`
	FaceValue   string           `yaml:"faceValue"`
	Quote       GiftQuoteProfile `yaml:"quote"`
	Purchase    struct {
		Fields               map[string]string `yaml:"fields"`
		OrderPointer         string            `yaml:"orderPointer"`
		ReferencePointer     string            `yaml:"referencePointer"`
		TransactionIDPointer string            `yaml:"transactionIdPointer"`
		// VoucherPointer: where the purchase answer carries the voucher
		// ("" finds a member named voucher anywhere).
		VoucherPointer     string `yaml:"voucherPointer"`
		DuplicateReference string `yaml:"duplicateReference"`
	} `yaml:"purchase"`
	LookupOrderPointer string `yaml:"lookupOrderPointer"`
	// LookupVoucher: pointers, inside the looked-up order, to the voucher's
	// code, pin and instructions.
	LookupVoucher map[string]string `yaml:"lookupVoucher"`
	// VerifyAttempts bounds the verify calls a spec makes while an order is
	// still PROCESSING, VerifyInterval the pause between them.
	VerifyAttempts int           `yaml:"verifyAttempts"`
	VerifyInterval time.Duration `yaml:"verifyInterval"`
}

type BettingProfile struct {
	Quote QuoteProfile `yaml:"quote"`
}

type WebhooksProfile struct {
	DeliveryKindPointer      string `yaml:"deliveryKindPointer"`
	DeliveryReferencePointer string `yaml:"deliveryReferencePointer"`
	// DeliveryWait bounds how long a spec waits for a delivery.
	DeliveryWait time.Duration `yaml:"deliveryWait"`
	// DispatchedMeans: what dispatched:true means: either, sent or queued.
	DispatchedMeans string `yaml:"dispatchedMeans"`

	// Pre-configured deliveries and authenticity (profile_webhooks.go).
	Preconfigured    bool             `yaml:"preconfigured"`
	CallbackURLMatch string           `yaml:"callbackUrlMatch"`
	Signature        SignatureProfile `yaml:"signature"`
}

type ErrorsProfile struct {
	Status  map[string]int  `yaml:"status"`
	Refuses map[string]bool `yaml:"refuses"`
}

type RateLimitsProfile struct {
	ProbeMaxRequests int `yaml:"probeMaxRequests"`
	ProbeConcurrency int `yaml:"probeConcurrency"`
	// MaxRetryAfter is the longest Retry-After a spec waits out; a longer
	// window is no verdict on the recovery check.
	MaxRetryAfter time.Duration `yaml:"maxRetryAfter"`
	// Envelope: whether a 429 carries the error envelope (optional or required).
	Envelope string `yaml:"envelope"`
}

// DefaultProfile returns the default profile: the lenient reading of every
// open point.
func DefaultProfile() *Profile {
	p, err := parseProfile(nil)
	if err != nil {
		panic("target: embedded default profile is invalid: " + err.Error())
	}
	return p
}

// LoadProfile reads a profile file over the defaults: keys the file does not
// mention keep their default. An empty path gives the defaults.
func LoadProfile(path string) (*Profile, error) {
	if path == "" {
		return DefaultProfile(), nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("profile: %w", err)
	}
	p, err := parseProfile(b)
	if err != nil {
		return nil, fmt.Errorf("profile %s: %w", path, err)
	}
	return p, nil
}

// ParseProfile reads a profile overlay (YAML) over the defaults, as
// LoadProfile reads a file: e.g. an embedded profile of the sandbox.
func ParseProfile(overlay []byte) (*Profile, error) { return parseProfile(overlay) }

func parseProfile(overlay []byte) (*Profile, error) {
	var p Profile
	if err := yaml.Unmarshal(defaultProfileYAML, &p); err != nil {
		return nil, err
	}
	if len(overlay) > 0 {
		if err := checkKeys(overlay, &p); err != nil {
			return nil, err
		}
		// Decoding onto the defaults merges: absent keys keep their value.
		if err := yaml.Unmarshal(overlay, &p); err != nil {
			return nil, err
		}
	}
	return &p, p.validate()
}

func (p *Profile) validate() error {
	if err := p.validateChoices(); err != nil {
		return err
	}
	if p.Cards.SpendLimitTimezone != "" {
		if _, err := time.LoadLocation(p.Cards.SpendLimitTimezone); err != nil {
			return fmt.Errorf("cards.spendLimitTimezone must be an IANA time zone name such as UTC, or \"\" (unknown), not %q", p.Cards.SpendLimitTimezone)
		}
	}
	for k, st := range p.Errors.Status {
		if st != 0 && (st < 400 || st > 499) {
			return fmt.Errorf("errors.status.%s must be 0 (any 4xx) or a 4xx status, not %d", k, st)
		}
	}
	if p.Cards.ListMaxLimit < 50 {
		return fmt.Errorf("cards.listMaxLimit must be at least the documented default of 50, not %d", p.Cards.ListMaxLimit)
	}
	if p.Issuance.Path == "" || p.Issuance.CustomerIDField == "" {
		return fmt.Errorf("issuance.path and issuance.customerIdField are required")
	}
	if p.GiftCards.VerifyAttempts < 1 || p.GiftCards.VerifyInterval < 0 || p.GiftCards.VerifyInterval > time.Minute {
		return fmt.Errorf("giftCards.verifyAttempts must be positive and giftCards.verifyInterval between 0 and 1m")
	}
	for _, k := range []string{"code", "pin", "instructions"} {
		if p.GiftCards.LookupVoucher[k] == "" {
			return fmt.Errorf("giftCards.lookupVoucher.%s is required", k)
		}
	}
	if err := p.validateWaits(); err != nil {
		return err
	}
	if err := p.Webhooks.validate(); err != nil {
		return err
	}
	if p.RateLimits.ProbeMaxRequests < 1 || p.RateLimits.ProbeConcurrency < 1 {
		return fmt.Errorf("rateLimits.probeMaxRequests and probeConcurrency must be positive")
	}
	if err := p.TestData.validate(); err != nil {
		return err
	}
	for _, k := range p.Undetermined {
		if !KnownKey(k) {
			return fmt.Errorf("undetermined: %q is not a profile key%s", k, nearest(k, allKeys()))
		}
	}
	return nil
}

// validateChoices checks every key whose value is one of a few words.
func (p *Profile) validateChoices() error {
	for _, c := range []struct {
		key, value string
		allowed    []string
	}{
		{"auth.merchantIdHeader", p.Auth.MerchantIDHeader, []string{"either", "both", "token", "requests", "none"}},
		{"issuance.initialBalance", p.Issuance.InitialBalance, []string{"either", "amount", "amount-minus-fund-fee", "unchecked"}},
		{"issuance.duplicateReference", p.Issuance.DuplicateReference, []string{"conflict", "replay", "either"}},
		{"giftCards.purchase.duplicateReference", p.GiftCards.Purchase.DuplicateReference, []string{"conflict", "replay", "either"}},
		{"cards.withdrawVaultCredit", p.Cards.WithdrawVaultCredit, []string{"either", "amount-minus-fee", "amount", "unchecked"}},
		{"cards.withdrawCardDebit", p.Cards.WithdrawCardDebit, []string{"either", "amount", "amount-plus-fee", "unchecked"}},
		{"cards.fundFeeUnit", p.Cards.FundFeeUnit, []string{"either", "amount", "percent"}},
		{"cards.sameStatus", p.Cards.SameStatus, []string{"ok", "refused", "any"}},
		{"cards.spendLimitsPut", p.Cards.SpendLimitsPut, []string{"any", "keep", "unset", "default"}},
		{"webhooks.dispatchedMeans", p.Webhooks.DispatchedMeans, []string{"either", "sent", "queued"}},
		{"rateLimits.envelope", p.RateLimits.Envelope, []string{"optional", "required"}},
	} {
		if !slices.Contains(c.allowed, c.value) {
			return fmt.Errorf("%s must be %s, not %q", c.key, orList(c.allowed), c.value)
		}
	}
	return nil
}

// validateWaits checks the bounds of every wait the profile sets.
func (p *Profile) validateWaits() error {
	for _, w := range []struct {
		key     string
		v, most time.Duration
	}{
		{"webhooks.deliveryWait", p.Webhooks.DeliveryWait, 5 * time.Minute},
		{"cards.listingFreshness", p.Cards.ListingFreshness, 5 * time.Minute},
		{"cards.creationWait", p.Cards.CreationWait, 5 * time.Minute},
		{"customers.approvalWait", p.Customers.ApprovalWait, 5 * time.Minute},
	} {
		if w.v <= 0 || w.v > w.most {
			return fmt.Errorf("%s must be between 0 and %s, not %s", w.key, w.most, w.v)
		}
	}
	if p.RateLimits.MaxRetryAfter < 0 {
		return fmt.Errorf("rateLimits.maxRetryAfter must not be negative")
	}
	return nil
}

func (t TestDataProfile) validate() error {
	if t.EmailDomain == "" || strings.ContainsAny(t.EmailDomain, "@ /") {
		return fmt.Errorf("testData.emailDomain must be a domain name, not %q", t.EmailDomain)
	}
	if t.NameMaxLength < 9 {
		return fmt.Errorf("testData.nameMaxLength must be at least 9 (an initial, a space and a unique seven-letter token), not %d", t.NameMaxLength)
	}
	if t.CardsPerCustomer < 1 {
		return fmt.Errorf("testData.cardsPerCustomer must be positive, not %d", t.CardsPerCustomer)
	}
	if r, ok := new(big.Rat).SetString(t.MaxProbeAmount); !ok || r.Sign() <= 0 {
		return fmt.Errorf("testData.maxProbeAmount must be a positive amount such as \"50.00\", not %q", t.MaxProbeAmount)
	}
	return nil
}

// orList renders allowed values as "a, b or c".
func orList(allowed []string) string {
	if len(allowed) == 1 {
		return allowed[0]
	}
	return strings.Join(allowed[:len(allowed)-1], ", ") + " or " + allowed[len(allowed)-1]
}
