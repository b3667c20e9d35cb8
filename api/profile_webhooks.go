package api

import "fmt"

// SignatureProfile says how deliveries prove their authenticity (not shown
// by the document). An empty Header means they are not verified.
type SignatureProfile struct {
	Header           string `yaml:"header"`
	Scheme           string `yaml:"scheme"`
	Prefix           string `yaml:"prefix"`
	Key              string `yaml:"key"`
	TimestampHeader  string `yaml:"timestampHeader"`
	ToleranceSeconds int    `yaml:"toleranceSeconds"`
}

// Signature key sources.
const (
	KeyWebhookSecret     = "webhook-secret"
	KeyMerchantSecretKey = "merchant-secret-key"
)

func (w WebhooksProfile) validate() error {
	switch w.CallbackURLMatch {
	case "normalized", "exact", "prefix":
	default:
		return fmt.Errorf("webhooks.callbackUrlMatch must be normalized, exact or prefix, not %q", w.CallbackURLMatch)
	}
	s := w.Signature
	if s.Header == "" {
		return nil
	}
	if s.Scheme != "hmac-sha256-hex" {
		return fmt.Errorf("webhooks.signature.scheme must be hmac-sha256-hex, not %q", s.Scheme)
	}
	switch s.Key {
	case KeyWebhookSecret, KeyMerchantSecretKey:
	default:
		return fmt.Errorf("webhooks.signature.key must be %s or %s, not %q", KeyWebhookSecret, KeyMerchantSecretKey, s.Key)
	}
	if s.TimestampHeader != "" && s.ToleranceSeconds < 1 {
		return fmt.Errorf("webhooks.signature.toleranceSeconds must be positive when a timestampHeader is set")
	}
	return nil
}
