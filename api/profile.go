package api

import (
	_ "embed"
	"fmt"
	"os"
	"time"

	"gopkg.in/yaml.v3"
)

//go:embed profile.default.yaml
var defaultProfileYAML []byte

// DefaultProfileYAML is the embedded default profile, which matches the
// reference sandbox; `mph conform --print-profile` shows it as a template.
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
	// Strictness of readings where the document leaves room: lenient by
	// default, strict when the provider declares it.
	Strict StrictProfile `yaml:"strict"`
	// Undetermined lists the keys discovery could not settle: a spec
	// depending on one reaches no verdict naming it.
	Undetermined []string `yaml:"undetermined"`
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
}

type AuthProfile struct {
	MerchantIDHeader string `yaml:"merchantIdHeader"`
}

type CustomersProfile struct {
	Fields            map[string]string `yaml:"fields"`
	CustomerIDPointer string            `yaml:"customerIdPointer"`
	ListPointer       string            `yaml:"listPointer"`
	ListIDField       string            `yaml:"listIdField"`
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
	ListMaxLimit        int    `yaml:"listMaxLimit"`
	WithdrawVaultCredit string `yaml:"withdrawVaultCredit"`
	SpendLimitTimezone  string `yaml:"spendLimitTimezone"`
	// SameStatus: the answer to PATCH status with the card's current status:
	// ok (200), refused (4xx) or any.
	SameStatus string `yaml:"sameStatus"`
}

type QuoteProfile struct {
	Params          map[string]string `yaml:"params" profile:"open"`
	AmountPointer   string            `yaml:"amountPointer"`
	SubtotalPointer string            `yaml:"subtotalPointer"`
	FeePointer      string            `yaml:"feePointer"`
	TotalPointer    string            `yaml:"totalPointer"`
	TotalIsSum      bool              `yaml:"totalIsSum"`
}

type GiftCardsProfile struct {
	ProductCode string       `yaml:"productCode"`
	FaceValue   string       `yaml:"faceValue"`
	Quote       QuoteProfile `yaml:"quote"`
	Purchase    struct {
		Fields               map[string]string `yaml:"fields"`
		OrderPointer         string            `yaml:"orderPointer"`
		ReferencePointer     string            `yaml:"referencePointer"`
		TransactionIDPointer string            `yaml:"transactionIdPointer"`
		DuplicateReference   string            `yaml:"duplicateReference"`
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
	// window skips the recovery check with the reason.
	MaxRetryAfter time.Duration `yaml:"maxRetryAfter"`
}

// DefaultProfile returns the profile matching the reference sandbox.
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
	switch p.Cards.WithdrawVaultCredit {
	case "amount-minus-fee", "amount", "unchecked":
	default:
		return fmt.Errorf("cards.withdrawVaultCredit must be amount-minus-fee, amount or unchecked, not %q", p.Cards.WithdrawVaultCredit)
	}
	switch p.Issuance.InitialBalance {
	case "amount", "amount-minus-fund-fee", "unchecked":
	default:
		return fmt.Errorf("issuance.initialBalance must be amount, amount-minus-fund-fee or unchecked, not %q", p.Issuance.InitialBalance)
	}
	if _, err := time.LoadLocation(p.Cards.SpendLimitTimezone); err != nil || p.Cards.SpendLimitTimezone == "" {
		return fmt.Errorf("cards.spendLimitTimezone must be an IANA time zone name such as UTC, not %q", p.Cards.SpendLimitTimezone)
	}
	for k, st := range p.Errors.Status {
		if st != 0 && (st < 400 || st > 499) {
			return fmt.Errorf("errors.status.%s must be 0 (any 4xx) or a 4xx status, not %d", k, st)
		}
	}
	switch p.Auth.MerchantIDHeader {
	case "both", "token", "requests", "none":
	default:
		return fmt.Errorf("auth.merchantIdHeader must be both, token, requests or none, not %q", p.Auth.MerchantIDHeader)
	}
	if p.Cards.ListMaxLimit < 50 {
		return fmt.Errorf("cards.listMaxLimit must be at least the documented default of 50, not %d", p.Cards.ListMaxLimit)
	}
	if p.Issuance.Path == "" || p.Issuance.CustomerIDField == "" {
		return fmt.Errorf("issuance.path and issuance.customerIdField are required")
	}
	for what, v := range map[string]string{"issuance.duplicateReference": p.Issuance.DuplicateReference, "giftCards.purchase.duplicateReference": p.GiftCards.Purchase.DuplicateReference} {
		switch v {
		case "conflict", "replay", "either":
		default:
			return fmt.Errorf("%s must be conflict, replay or either, not %q", what, v)
		}
	}
	switch p.Cards.SameStatus {
	case "ok", "refused", "any":
	default:
		return fmt.Errorf("cards.sameStatus must be ok, refused or any, not %q", p.Cards.SameStatus)
	}
	if p.GiftCards.VerifyAttempts < 1 || p.GiftCards.VerifyInterval < 0 || p.GiftCards.VerifyInterval > time.Minute {
		return fmt.Errorf("giftCards.verifyAttempts must be positive and giftCards.verifyInterval between 0 and 1m")
	}
	for _, k := range []string{"code", "pin", "instructions"} {
		if p.GiftCards.LookupVoucher[k] == "" {
			return fmt.Errorf("giftCards.lookupVoucher.%s is required", k)
		}
	}
	if p.Webhooks.DeliveryWait <= 0 || p.Webhooks.DeliveryWait > 5*time.Minute {
		return fmt.Errorf("webhooks.deliveryWait must be between 0 and 5m, not %s", p.Webhooks.DeliveryWait)
	}
	if p.RateLimits.MaxRetryAfter < 0 {
		return fmt.Errorf("rateLimits.maxRetryAfter must not be negative")
	}
	if err := p.Webhooks.validate(); err != nil {
		return err
	}
	if p.RateLimits.ProbeMaxRequests < 1 || p.RateLimits.ProbeConcurrency < 1 {
		return fmt.Errorf("rateLimits.probeMaxRequests and probeConcurrency must be positive")
	}
	return nil
}
