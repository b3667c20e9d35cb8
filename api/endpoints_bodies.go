package api

import "encoding/json"

// JSONType is a member's documented JSON type ("" when the document does not
// give one).
type JSONType string

// JSON types of request members.
const (
	TypeString JSONType = "string"
	TypeNumber JSONType = "number"
)

// Field is one documented member of a request body and its documented
// constraints, each with the document's words (Cite).
type Field struct {
	Name string   // wire name (for ProfileName fields, the logical name)
	Type JSONType // "" when the document gives none
	// Required: the document says the member is required (or that the
	// body contains it).
	Required bool
	NonEmpty bool     // "non-empty"
	Enum     []string // "exactly" these values
	Min      string   // documented minimum, a decimal ("0.10")
	Cite     string   // the document's words for the member
	// ProfileName gives the wire name when the profile sets it (the
	// document does not show it), nil when Name is the wire name.
	ProfileName func(*Profile) string
}

// Wire is the member's name on the wire.
func (f Field) Wire(p *Profile) string {
	if f.ProfileName != nil {
		return f.ProfileName(p)
	}
	return f.Name
}

// Body is a request body: its documented members and a valid sample.
type Body struct {
	Fields []Field
	// AllOptional: every member is optional, so an absent (or null) body
	// may be a no-op update.
	AllOptional bool
	Cite        string
	// Sample builds a valid, harmless body: the smallest documented
	// amounts, no change a probe could regret.
	Sample func(SampleInput) map[string]any
}

// SampleInput is what a sample body needs from the run.
type SampleInput struct {
	Profile    *Profile
	Ref        string         // a unique reference of the run for this request
	CustomerID string         // an existing customer of the merchant (issuance)
	Customer   map[string]any // a valid registration body (customer registration)
	MerchantID string         // the credentials (token exchange)
	SecretKey  string
	Status     string // the card's current status (PATCH status); "" is ACTIVE
}

// emailDomain is the domain of the e-mail addresses of the samples: the
// profile's testData.emailDomain (example.com without a profile).
func (in SampleInput) emailDomain() string {
	if in.Profile == nil || in.Profile.TestData.EmailDomain == "" {
		return "example.com"
	}
	return in.Profile.TestData.EmailDomain
}

// Required returns the body's required members.
func (b *Body) Required() []Field {
	var out []Field
	for _, f := range b.Fields {
		if f.Required {
			out = append(out, f)
		}
	}
	return out
}

var tokenBody = &Body{
	Cite: "Body: `merchantId` (string), `secretKey` (string), both required.",
	Fields: []Field{
		{Name: "merchantId", Type: TypeString, Required: true, Cite: "`merchantId` (string), `secretKey` (string), both required"},
		{Name: "secretKey", Type: TypeString, Required: true, Cite: "`merchantId` (string), `secretKey` (string), both required"},
	},
	Sample: func(in SampleInput) map[string]any {
		return map[string]any{"merchantId": in.MerchantID, "secretKey": in.SecretKey}
	},
}

var customerBody = &Body{
	Cite: "| firstName | string | yes |",
	Fields: []Field{
		{Name: "firstName", Type: TypeString, Required: true, Cite: "| firstName | string | yes |"},
		{Name: "lastName", Type: TypeString, Required: true, Cite: "| lastName | string | yes |"},
		{Name: "email", Type: TypeString, Required: true, Cite: "| email | string | yes |"},
		{Name: "phoneNumber", Type: TypeString, Required: true, Cite: "| phoneNumber | string | yes |"},
	},
	Sample: func(in SampleInput) map[string]any {
		out := make(map[string]any, len(in.Customer))
		for k, v := range in.Customer {
			out[k] = v
		}
		return out
	},
}

var issuanceBody = &Body{
	Cite: "the body contains `nameOnCard` (non-empty) and `amount` (number, at least 1 USD)",
	Fields: []Field{
		{Name: "customerId", Required: true, Cite: "it takes a customer id and returns a card",
			ProfileName: func(p *Profile) string { return p.Issuance.CustomerIDField }},
		{Name: "nameOnCard", Type: TypeString, Required: true, NonEmpty: true, Cite: "the body contains `nameOnCard` (non-empty)"},
		{Name: "amount", Type: TypeNumber, Required: true, Min: "1.00", Cite: "`amount` (number, at least 1 USD)"},
	},
	Sample: func(in SampleInput) map[string]any {
		p := in.Profile.Issuance
		out := map[string]any{}
		for k, v := range p.Extra {
			out[k] = v
		}
		out[p.CustomerIDField] = in.CustomerID
		out["nameOnCard"] = "Ada Harness"
		out["amount"] = json.Number("1.00")
		if p.ReferenceField != "" && in.Ref != "" {
			out[p.ReferenceField] = in.Ref
		}
		return out
	},
}

var withdrawBody = &Body{
	Cite: "Body: `amount` (number, required, USD, minimum 0.10).",
	Fields: []Field{
		{Name: "amount", Type: TypeNumber, Required: true, Min: "0.10", Cite: "`amount` (number, required, USD, minimum 0.10)"},
	},
	Sample: func(SampleInput) map[string]any { return map[string]any{"amount": json.Number("0.10")} },
}

var limitsBody = &Body{
	Cite:        "`transactionLimit`, `dailyLimit`, `monthlyLimit`, `allTimeLimit`, each an optional number in USD",
	AllOptional: true,
	Fields: []Field{
		{Name: "transactionLimit", Type: TypeNumber, Cite: "each an optional number in USD"},
		{Name: "dailyLimit", Type: TypeNumber, Cite: "each an optional number in USD"},
		{Name: "monthlyLimit", Type: TypeNumber, Cite: "each an optional number in USD"},
		{Name: "allTimeLimit", Type: TypeNumber, Cite: "each an optional number in USD"},
	},
	Sample: func(SampleInput) map[string]any { return map[string]any{"transactionLimit": json.Number("25.00")} },
}

var statusBody = &Body{
	Cite: "Body: `status` (string, required, exactly `ACTIVE` or `FROZEN`).",
	Fields: []Field{
		{Name: "status", Type: TypeString, Required: true, Enum: []string{"ACTIVE", "FROZEN"}, Cite: "`status` (string, required, exactly `ACTIVE` or `FROZEN`)"},
	},
	Sample: func(in SampleInput) map[string]any {
		st := in.Status
		if st == "" {
			st = "ACTIVE"
		}
		return map[string]any{"status": st}
	},
}

var contactBody = &Body{
	Cite:        "Body: `email` (string, optional), `mobile` (string, optional; local form or international form with a leading `+`).",
	AllOptional: true,
	Fields: []Field{
		{Name: "email", Type: TypeString, Cite: "`email` (string, optional)"},
		{Name: "mobile", Type: TypeString, Cite: "`mobile` (string, optional; local form or international form with a leading `+`)"},
	},
	Sample: func(in SampleInput) map[string]any { return map[string]any{"email": in.Ref + "@" + in.emailDomain()} },
}

var simulateBody = &Body{
	Cite: "Body: `event_type` (string, required): `authorization`, `settlement`, `reversal` or `decline`.",
	Fields: []Field{
		{Name: "event_type", Type: TypeString, Required: true, Enum: []string{"authorization", "settlement", "reversal", "decline"},
			Cite: "`event_type` (string, required): `authorization`, `settlement`, `reversal` or `decline`"},
	},
	Sample: func(SampleInput) map[string]any { return map[string]any{"event_type": "authorization"} },
}

// The purchase's three members are what it takes; the other inputs are the
// "Optional further inputs".
var purchaseBody = &Body{
	Cite: "Body: `amount` (number, face value), `recipientEmail` (string), `recipientName` (string). Optional further inputs exist",
	Fields: []Field{
		{Name: "amount", Type: TypeNumber, Required: true, Cite: "`amount` (number, face value)"},
		{Name: "recipientEmail", Type: TypeString, Required: true, Cite: "`recipientEmail` (string)"},
		{Name: "recipientName", Type: TypeString, Required: true, Cite: "`recipientName` (string)"},
	},
	Sample: func(in SampleInput) map[string]any {
		g := in.Profile.GiftCards
		out := map[string]any{
			"amount":         json.Number(g.FaceValue),
			"recipientEmail": in.Ref + "@" + in.emailDomain(),
			"recipientName":  "Grace Harness",
		}
		if f := g.Purchase.Fields["productCode"]; f != "" && g.ProductCode != "" {
			out[f] = g.ProductCode
		}
		if f := g.Purchase.Fields["reference"]; f != "" && in.Ref != "" {
			out[f] = in.Ref
		}
		return out
	},
}
