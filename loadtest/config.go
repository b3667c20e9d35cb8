// Package loadtest is the load driver behind `mph load`: scenarios on the
// three hot paths of the Merchant Payments API v1 (POST /auth/token,
// GET /cards, GET /cards/{id}/secure), driven by vegeta's attacker with our
// own pacers, open-model latency in HDR histograms, scrubbed raw results,
// thresholds, 429 characterisation, capacity search, sharding and merging.
package loadtest

import (
	"net/http"
	"time"

	"github.com/merchant-harness/mph/api"
	"github.com/merchant-harness/mph/httpclient"
)

// Credential is one merchant's TEST credentials.
type Credential struct {
	MerchantID string
	SecretKey  string
}

// Target is what the load driver attacks.
type Target struct {
	BaseURL     string // merchant root, ending in /v1/merchant
	ControlsURL string // sandbox test controls ("" when none)
	AdminKey    string
	Creds       []Credential // Creds[0] authenticates list/secure; all are used by the token scenario
	Timeout     time.Duration
	InsecureTLS bool
	// FollowRedirects follows same-origin redirects (never another origin's).
	FollowRedirects bool
	// MaxBody caps each answer body the attack reads (default 64 KiB).
	MaxBody int64
	// RetryAfterMax is the longest Retry-After setup and the probe wait (default 30 s).
	RetryAfterMax time.Duration
	// Envelope429 is the profile's rateLimits.envelope: whether every 429
	// carries the error envelope, and so how a 429 is judged (rate429.go;
	// "" for the default).
	Envelope429 string
	Embedded    bool
	AllowLive   bool // --allow-live: writes allowed when the token states LIVE (see live.go)
	RunID       string
	Setup       SetupProfile
}

// SetupProfile says how to register a customer and issue cards on the target
// (the API document does not show these shapes; defaults match the sandbox).
type SetupProfile struct {
	CustomerFields    map[string]string // logical name -> wire name for the undocumented registration inputs
	CustomerIDPointer string            // JSON pointer of the customer id in the registration answer
	IssuancePath      string
	CustomerIDField   string
	ReferenceField    string
	Extra             map[string]any
	CardPointer       string // JSON pointer of the Card in the issuance answer
}

// DefaultSetupProfile is the setup shape of the default target profile
// (api/profile.default.yaml, the only source of its defaults).
func DefaultSetupProfile() SetupProfile { return SetupFrom(nil) }

// SetupFrom is the setup shape the target profile p gives (nil: the
// default profile); a key p leaves empty keeps the default profile's.
func SetupFrom(p *api.Profile) SetupProfile {
	d := api.DefaultProfile()
	sp := SetupProfile{
		CustomerFields: d.Customers.Fields, CustomerIDPointer: d.Customers.CustomerIDPointer,
		IssuancePath: d.Issuance.Path, CustomerIDField: d.Issuance.CustomerIDField,
		ReferenceField: d.Issuance.ReferenceField, Extra: d.Issuance.Extra, CardPointer: d.Issuance.CardPointer,
	}
	if p == nil {
		return sp
	}
	for _, o := range []struct {
		dst *string
		src string
	}{
		{&sp.CustomerIDPointer, p.Customers.CustomerIDPointer}, {&sp.IssuancePath, p.Issuance.Path},
		{&sp.CustomerIDField, p.Issuance.CustomerIDField}, {&sp.CardPointer, p.Issuance.CardPointer},
	} {
		if o.src != "" {
			*o.dst = o.src
		}
	}
	if len(p.Customers.Fields) > 0 {
		sp.CustomerFields = p.Customers.Fields
	}
	sp.ReferenceField, sp.Extra = p.Issuance.ReferenceField, p.Issuance.Extra
	return sp
}

// httpClient is the client of setup, tokens and the probe's single
// requests (built by httpclient: timeout, TLS choice, redirect policy).
func (t *Target) httpClient() *http.Client {
	return httpclient.New(httpclient.Options{Timeout: t.Timeout, InsecureTLS: t.InsecureTLS, FollowRedirects: t.FollowRedirects})
}

// attackOptions fills the network settings of the target into o where the
// caller left them unset.
func (t *Target) attackOptions(o AttackOptions) AttackOptions {
	if o.MaxBody <= 0 {
		o.MaxBody = t.MaxBody
	}
	o.FollowRedirects = o.FollowRedirects || t.FollowRedirects
	return o
}

// setupMaxBody bounds what setup reads of one answer.
const setupMaxBody = 1 << 20
