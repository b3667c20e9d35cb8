package api

import (
	"strings"

	"github.com/merchant-harness/mph/schemas"
)

// Envelope kinds of the API document's "Response envelopes".
const (
	EnvelopeA    = "A"    // status, data, timestamp, path
	EnvelopeB    = "B"    // success, message, data, timestamp
	EnvelopeFlat = "flat" // gift order verification: the order at top level
	EnvelopeNone = ""     // not shown
)

// Endpoint is one operation of the API, relative to the merchant root.
type Endpoint struct {
	Method   string
	Template string // e.g. "/cards/{id}/secure"
	Schema   string // schemas name of the 200 answer
	// Requirement is the catalogue ID of the endpoint's answer shape.
	Requirement string
	Envelope    string
	// NotShown marks an answer (or, for issuance, the whole operation)
	// whose shape the document does not show.
	NotShown bool
	// Order names the profile's reference field of an order-creating call
	// ("issuance", "gift"), "" otherwise.
	Order string
}

// Key is "METHOD /template", the endpoint's name in reports.
func (e Endpoint) Key() string { return e.Method + " " + e.Template }

// Token reports whether this is the token exchange (the one unauthenticated call).
func (e Endpoint) Token() bool { return e.Method == "POST" && e.Template == "/auth/token" }

// Secure reports whether the answer carries the secure card details.
func (e Endpoint) Secure() bool { return strings.HasSuffix(e.Template, "/secure") }

// Endpoints returns the 17 endpoints of the document plus card issuance,
// whose path comes from the profile (its shape is not shown).
func Endpoints(p *Profile) []Endpoint {
	if p == nil {
		p = DefaultProfile()
	}
	issuance := "/" + strings.Trim(p.Issuance.Path, "/")
	return []Endpoint{
		{"POST", "/auth/token", schemas.TokenResponse, "AUTH-01", EnvelopeA, false, ""},
		{"GET", "/cards/config", schemas.ConfigResponse, "CONFIG-01", EnvelopeA, false, ""},
		{"POST", "/cards/customers", schemas.CustomerResponse, "ENV-02", EnvelopeA, true, ""},
		{"GET", "/cards/customers", schemas.CustomerListResponse, "ENV-02", EnvelopeA, true, ""},
		{"GET", "/cards", schemas.CardListResponse, "LIST-01", EnvelopeA, false, ""},
		{"POST", issuance, schemas.CardIssuanceResponse, "ENV-02", EnvelopeA, true, "issuance"},
		{"GET", "/cards/{id}", schemas.CardResponse, "GET-01", EnvelopeA, false, ""},
		{"GET", "/cards/{id}/secure", schemas.SecureResponse, "SECURE-01", EnvelopeA, false, ""},
		{"POST", "/cards/{id}/withdraw", schemas.WithdrawResponse, "WITHDRAW-01", EnvelopeA, false, ""},
		{"PUT", "/cards/{id}/spend-limits", schemas.SpendLimitsResponse, "LIMITS-01", EnvelopeA, false, ""},
		{"PATCH", "/cards/{id}/status", schemas.StatusResponse, "STATUS-01", EnvelopeA, false, ""},
		{"PATCH", "/cards/{id}/contact", schemas.ContactResponse, "CONTACT-01", EnvelopeB, false, ""},
		{"POST", "/cards/{id}/simulate-webhook", schemas.WebhookSimulationResponse, "WEBHOOK-01", EnvelopeB, false, ""},
		{"GET", "/gift-cards/quote", schemas.GiftQuoteResponse, "QUOTE-01", EnvelopeNone, true, ""},
		{"POST", "/gift-cards/purchase", schemas.GiftPurchaseResponse, "GIFT-01", EnvelopeNone, true, "gift"},
		{"GET", "/gift-cards/verify/{reference}", schemas.GiftOrderResponse, "GIFT-05", EnvelopeFlat, false, ""},
		{"GET", "/gift-cards/transactions/{reference}", schemas.GiftLookupResponse, "GIFT-17", EnvelopeNone, true, ""},
		{"GET", "/betting/quote", schemas.BettingQuoteResponse, "QUOTE-02", EnvelopeNone, true, ""},
	}
}

// Router matches a path relative to the merchant root to an endpoint.
type Router struct{ eps []Endpoint }

// NewRouter routes to the endpoints given.
func NewRouter(eps []Endpoint) Router { return Router{eps} }

// Match returns the endpoint for method and rel ("/cards/crd_1/secure"). A
// literal segment beats a parameter, so /cards/config is never GET /cards/{id}.
func (r Router) Match(method, rel string) (Endpoint, bool) {
	segs := Segments(rel)
	best, bestScore := Endpoint{}, -1
	for _, e := range r.eps {
		if e.Method != method {
			continue
		}
		tsegs := Segments(e.Template)
		if len(tsegs) != len(segs) {
			continue
		}
		score, ok := 0, true
		for i, t := range tsegs {
			switch {
			case strings.HasPrefix(t, "{"):
				ok = ok && segs[i] != ""
			case t == segs[i]:
				score++
			default:
				ok = false
			}
		}
		if ok && score > bestScore {
			best, bestScore = e, score
		}
	}
	return best, bestScore >= 0
}

// Segments splits a path into its segments ("/cards/x/secure": cards, x, secure).
func Segments(p string) []string {
	p = strings.Trim(p, "/")
	if p == "" {
		return nil
	}
	return strings.Split(p, "/")
}
