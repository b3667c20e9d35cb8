// Package schemas holds the JSON Schemas (draft 2020-12) of the Merchant
// Payments API v1 responses and validates response bodies against them.
//
// One file per envelope, resource and endpoint answer is embedded; the files
// reference each other with $ref and are compiled once, on first use, with
// format assertions enabled. Only what the API document states is asserted;
// where it says "not shown" the schema is deliberately permissive (see
// README.md). Unknown extra fields are always allowed.
//
// Validate reports every violation with its JSON pointer, the failing
// keyword and the offending value; secrets (full PANs, CVVs, PINs, tokens,
// secret keys) are masked in that report.
package schemas

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// BaseURI is the prefix of every schema's $id; a schema's $id is BaseURI
// followed by its file name. Nothing is ever fetched from it.
const BaseURI = "https://mph.merchant-harness.example/schemas/"

// Names of the schemas (file names), for Validate.
const (
	// Envelopes.
	EnvelopeA     = "envelope-a.json" // status "success", data object|array, timestamp, path
	EnvelopeB     = "envelope-b.json" // success bool, message, data object, timestamp
	ErrorEnvelope = "error.json"      // status "error", statusCode, message string|[]string, error, timestamp, path
	GiftNotFound  = "gift-404.json"   // gift order 404: statusCode 404, message, error only
	GiftOrder     = "gift-order.json" // flat gift card order (resource)
	Card          = "card.json"       // Card resource
	SecureDetails = "secure-card-details.json"
	CardConfig    = "card-config.json"
	AccessToken   = "access-token.json"
	SpendLimits   = "spend-limits.json"
	BillingAddr   = "billing-address.json"

	// Endpoint answers (200 bodies) whose shape the document states.
	TokenResponse             = "token-response.json"              // POST /auth/token
	ConfigResponse            = "config-response.json"             // GET /cards/config
	CardResponse              = "card-response.json"               // GET /cards/{id}
	CardListResponse          = "card-list-response.json"          // GET /cards
	SecureResponse            = "secure-response.json"             // GET /cards/{id}/secure
	WithdrawResponse          = "withdraw-response.json"           // POST /cards/{id}/withdraw
	SpendLimitsResponse       = "spend-limits-response.json"       // PUT /cards/{id}/spend-limits
	StatusResponse            = "status-response.json"             // PATCH /cards/{id}/status
	ContactResponse           = "contact-response.json"            // PATCH /cards/{id}/contact
	WebhookSimulationResponse = "webhook-simulation-response.json" // POST /cards/{id}/simulate-webhook
	GiftOrderResponse         = "gift-order-response.json"         // GET /gift-cards/verify/{reference}

	// Endpoint answers the document does not show: permissive on purpose.
	CustomerResponse     = "customer-response.json"      // POST /cards/customers (Envelope A only)
	CustomerListResponse = "customer-list-response.json" // GET /cards/customers (Envelope A only)
	CardIssuanceResponse = "card-issuance-response.json" // POST /cards (Envelope A only)
	GiftQuoteResponse    = "gift-quote-response.json"    // GET /gift-cards/quote (any object)
	GiftPurchaseResponse = "gift-purchase-response.json" // POST /gift-cards/purchase (any object)
	GiftLookupResponse   = "gift-lookup-response.json"   // GET /gift-cards/transactions/{reference} (any object)
	BettingQuoteResponse = "betting-quote-response.json" // GET /betting/quote (any object)
)

// commonFile holds shared $defs only; it is not a schema to validate against.
const commonFile = "common.json"

//go:embed *.json
var files embed.FS

// ValidationError is returned by Validate when a body does not match its
// schema. Its Error text never contains a full PAN, a CVV, a PIN, a token or
// a secret key.
type ValidationError struct {
	Schema     string // schema name, e.g. "card-list-response.json"
	Violations []Violation
}

// Violation is one failed assertion.
type Violation struct {
	Pointer  string // JSON pointer into the instance, e.g. "/data/maskedPan" ("" is the whole body)
	Rule     string // failing keyword, e.g. "pattern", "required", "format", "const"
	Message  string // what is wrong, secrets masked
	Value    string // offending value as JSON, masked and truncated; "" when absent
	Location string // schema keyword location, e.g. "card.json#/properties/maskedPan/pattern"
}

func (e *ValidationError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "response does not match schema %s: %d violation(s)", e.Schema, len(e.Violations))
	for _, v := range e.Violations {
		b.WriteByte('\n')
		b.WriteString(v.String())
	}
	return b.String()
}

// String renders one violation as "<pointer>: <message> (rule <keyword>, value <v>)".
func (v Violation) String() string {
	p := v.Pointer
	if p == "" {
		p = "(root)"
	}
	val := v.Value
	if val == "" {
		val = "absent"
	}
	return fmt.Sprintf("%s: %s (rule %s, value %s)", p, v.Message, v.Rule, val)
}

type compiled struct {
	schemas map[string]*jsonschema.Schema
	err     error
}

var (
	once  sync.Once
	state compiled
)

func load() compiled {
	once.Do(func() { state = compileAll() })
	return state
}

// compileAll compiles every embedded schema file with one compiler.
func compileAll() compiled {
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	for _, f := range timestampFormats {
		c.RegisterFormat(f)
	}
	c.UseLoader(noRemote{})
	entries, err := fs.ReadDir(files, ".")
	if err != nil {
		return compiled{err: err}
	}
	for _, e := range entries {
		raw, err := files.ReadFile(e.Name())
		if err != nil {
			return compiled{err: err}
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
		if err != nil {
			return compiled{err: fmt.Errorf("schemas: %s: %w", e.Name(), err)}
		}
		if err := c.AddResource(BaseURI+e.Name(), doc); err != nil {
			return compiled{err: fmt.Errorf("schemas: %s: %w", e.Name(), err)}
		}
	}
	out := compiled{schemas: make(map[string]*jsonschema.Schema, len(entries))}
	for _, e := range entries {
		s, err := c.Compile(BaseURI + e.Name())
		if err != nil {
			return compiled{err: fmt.Errorf("schemas: compile %s: %w", e.Name(), err)}
		}
		out.schemas[e.Name()] = s
	}
	return out
}

// noRemote refuses to load anything that is not embedded: every $ref must
// resolve inside this package.
type noRemote struct{}

func (noRemote) Load(url string) (any, error) {
	return nil, fmt.Errorf("schemas: $ref to %s is not an embedded schema", url)
}

// Names lists the schemas Validate accepts, sorted.
func Names() []string {
	entries, _ := fs.ReadDir(files, ".")
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		if e.Name() != commonFile {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	return names
}

// ErrUnknownSchema is wrapped by Validate's error for a name not in Names.
var ErrUnknownSchema = errors.New("schemas: unknown schema")

// Validate checks a raw JSON body against the named schema. It returns nil
// when the body conforms, a *ValidationError listing every violation when it
// does not (a body that is not JSON is one violation with rule "json"), and
// another error only for a programming error (unknown name, broken schema).
func Validate(name string, body []byte) error {
	st := load()
	if st.err != nil {
		return st.err
	}
	sch, ok := st.schemas[name]
	if !ok || name == commonFile {
		return fmt.Errorf("%w %q", ErrUnknownSchema, name)
	}
	if why := unreadableNumber(body); why != "" {
		return &ValidationError{Schema: name, Violations: []Violation{{
			Rule:    "number-bounds",
			Message: why + " (RFC 8259 §6: an implementation may limit the range and precision of numbers; not judged further)",
		}}}
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(body))
	if err != nil {
		return &ValidationError{Schema: name, Violations: []Violation{{
			Rule:    "json",
			Message: "body is not a single valid JSON value: " + maskText(err.Error()),
			Value:   renderValue(truncate(string(body), 1024), "", ""),
		}}}
	}
	err = sch.Validate(inst)
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return fmt.Errorf("schemas: validate %s: %w", name, err)
	}
	return &ValidationError{Schema: name, Violations: violations(ve, inst)}
}
