// Package wording holds the messages of the sandbox's own answers, fixed by
// docs/sandbox.md: the server writes them and the rewriting settings
// recognise them (sandbox/rewrite).
package wording

import "time"

// Messages fixed by docs/sandbox.md.
const (
	Bearer        = "Missing or invalid bearer token: send Authorization: Bearer <ACCESS_TOKEN>"
	Expired       = "Bearer token expired: request a new access token"
	BadCreds      = "Invalid credentials: merchantId or secretKey is incorrect"
	MerchantHdr   = "X-Merchant-Id does not match the credentials"
	KYB           = "Live operations require KYB Tier 2 or higher"
	CardNotFound  = "Virtual card not found"
	CustNotFound  = "Customer not found"
	LiveSimulate  = "Webhook simulation is available with TEST credentials only"
	FrozenSecure  = "Card is frozen: secure details are available for ACTIVE cards only"
	TooLarge      = "Payload Too Large"
	MalformedJSON = "Malformed JSON body"
	NotObject     = "Request body must be a JSON object"
	ContentType   = "Content-Type must be application/json"
)

// IPNotAllowed is the refusal of a caller outside the IP whitelist.
func IPNotAllowed(ip string) string {
	return "IP address " + ip + " is not allowed for this merchant account"
}

// TimeLayout is the form of the sandbox's timestamps: ISO 8601 UTC with
// milliseconds, as JavaScript's toISOString.
const TimeLayout = "2006-01-02T15:04:05.000Z"

// Timestamp is t in the sandbox's form (TimeLayout).
func Timestamp(t time.Time) string { return t.UTC().Format(TimeLayout) }
