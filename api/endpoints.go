package api

import (
	"net/url"
	"strings"
)

// Envelope kinds of the API document's "Response envelopes".
const (
	EnvelopeA    = "A"    // status, data, timestamp, path
	EnvelopeB    = "B"    // success, message, data, timestamp
	EnvelopeFlat = "flat" // gift order verification: the order at top level
	EnvelopeNone = ""     // not shown
)

// Effect is what a successful call does to the target's state: the
// cross-cutting specs send a write only with a harmless body, and a LIVE
// write only with --allow-live.
type Effect int

// Effects.
const (
	Read       Effect = iota // reads only
	Write                    // changes test state: a customer, a card's limits, status or contact, a webhook
	MoneyWrite               // moves money: card issuance, withdrawal, gift card purchase
)

// Resource is what a path parameter names.
type Resource string

// Resources named by path parameters.
const (
	ResCard            Resource = "card"             // "card id or reference"
	ResGiftOrder       Resource = "gift-order"       // "the client order reference or the internal transaction reference"
	ResGiftTransaction Resource = "gift-transaction" // "transaction reference"
)

// Param is a path parameter and what it names.
type Param struct {
	Name string // the template's name: "id", "reference"
	Of   Resource
}

// NotFound is the form of the endpoint's 404 when its parameter names nothing.
type NotFound int

// 404 forms.
const (
	NotFoundNone     NotFound = iota // no path parameter: no 404 of the endpoint's own
	NotFoundEnvelope                 // the error envelope ("404 | card, customer or transaction does not exist")
	NotFoundGift                     // "shown with only statusCode, message and error" (the full envelope is allowed too)
)

// Carries is what a successful answer carries that a cross-cutting rule
// looks at (a set).
type Carries uint

// What answers carry.
const (
	CarriesCard      Carries = 1 << iota // a Card
	CarriesSecure                        // the secure card details (PCI-sensitive)
	CarriesGiftOrder                     // a gift order (purchase, verification, lookup)
	ListsCards                           // the card listing
	ListsCustomers                       // the customer listing
)

// Endpoint is one operation of the API, relative to the merchant root, with
// what the cross-cutting rules need to know about it.
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

	// Slug is the endpoint's short stable name in spec IDs and labels
	// ("card-secure"); a test keeps it unique and of the spec ID alphabet.
	Slug   string
	Params []Param // path parameters, in order
	// Query is a valid query of the call (the quotes' parameters are the
	// profile's: "Query parameters ... not shown"); nil: none.
	Query    func(*Profile) url.Values
	Effect   Effect
	TestOnly bool  // "simulate card webhook (TEST only)"
	Body     *Body // nil: the call takes no body
	Carries  Carries
	NotFound NotFound
	// OrderAt is where the answer carries the gift order ("" the top
	// level), for endpoints carrying one.
	OrderAt func(*Profile) string
}

// Key is "METHOD /template", the endpoint's name in reports.
func (e Endpoint) Key() string { return e.Method + " " + e.Template }

// Token reports whether this is the token exchange (the one unauthenticated call).
func (e Endpoint) Token() bool { return e.Method == "POST" && e.Template == "/auth/token" }

// Bearer reports whether the call needs "Authorization: Bearer
// <ACCESS_TOKEN>" ("All endpoints except the token exchange").
func (e Endpoint) Bearer() bool { return !e.Token() }

// Secure reports whether the answer carries the secure card details.
func (e Endpoint) Secure() bool { return e.Carries&CarriesSecure != 0 }

// Has reports whether the answer carries all of c.
func (e Endpoint) Has(c Carries) bool { return e.Carries&c == c }

// Writes reports whether the call changes state (Write or MoneyWrite).
func (e Endpoint) Writes() bool { return e.Effect != Read }

// Path returns the request path with the parameters' values escaped, in
// order ("/cards/crd_1/secure" for "/cards/{id}/secure" and "crd_1").
func (e Endpoint) Path(values ...string) string {
	segs := Segments(e.Template)
	i := 0
	for k, s := range segs {
		if strings.HasPrefix(s, "{") && i < len(values) {
			segs[k] = url.PathEscape(values[i])
			i++
		}
	}
	return "/" + strings.Join(segs, "/")
}

// Endpoints returns the 17 endpoints of the document plus card issuance,
// whose path comes from the profile (its shape is not shown).
func Endpoints(p *Profile) []Endpoint {
	if p == nil {
		p = DefaultProfile()
	}
	return endpointTable("/" + strings.Trim(p.Issuance.Path, "/"))
}

// EndpointBySlug returns the endpoint of the table with that slug.
func EndpointBySlug(p *Profile, slug string) (Endpoint, bool) {
	for _, e := range Endpoints(p) {
		if e.Slug == slug {
			return e, true
		}
	}
	return Endpoint{}, false
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
