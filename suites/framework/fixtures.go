package framework

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/merchant-harness/mph/client"
	"github.com/merchant-harness/mph/schemas"
)

var refSeq atomic.Int64

// Ref returns a new unique reference carrying the run-id prefix, e.g.
// "mph1a2b3c-p1-7-card-9f2c". Everything the suites create uses one.
func Ref(kind string) string {
	b := make([]byte, 2)
	_, _ = rand.Read(b)
	return fmt.Sprintf("%s-p%d-%d-%s-%s", Cfg().RunID, GinkgoParallelProcess(), refSeq.Add(1), kind, hex.EncodeToString(b))
}

// refuseLiveFixture skips the spec instead of creating state with LIVE
// credentials when --allow-live was not given (whatever the spec's labels).
func refuseLiveFixture(what string) {
	GinkgoHelper()
	if h.liveRefused() {
		Skip("refused: this spec needs " + what + " created, the primary credentials are LIVE; pass --allow-live (MPH_ALLOW_LIVE=1) to run it")
	}
}

// CustomerBody returns a complete, valid registration body for the target
// (documented fields plus the profile's names for the undocumented ones).
func CustomerBody() JSON {
	ref := Ref("cus")
	body := JSON{
		"firstName":   "Ada",
		"lastName":    "Harness",
		"email":       ref + "@example.com",
		"phoneNumber": "5550100",
	}
	values := map[string]any{
		"phoneCountryCode": "+1",
		"dateOfBirth":      "1990-04-12",
		"idType":           "passport",
		"idNumber":         "P" + hex.EncodeToString([]byte(ref))[:8],
		"street":           "1 Conformance Way",
		"city":             "Testville",
		"state":            "CA",
		"postalCode":       "94105",
		"country":          "USA",
	}
	for logical, wire := range Profile().Customers.Fields {
		if wire == "" {
			continue
		}
		if v, ok := values[logical]; ok {
			body[wire] = v
		}
	}
	return body
}

// NewCustomer registers a customer and returns its customerId. Failing to
// register is a harness error (specs about registration call the endpoint
// themselves).
func NewCustomer(ctx context.Context) string {
	GinkgoHelper()
	refuseLiveFixture("a customer")
	resp := Must(API().Post(ctx, "/cards/customers", CustomerBody()))
	if resp.Status != http.StatusOK && resp.Status != http.StatusCreated {
		HarnessError("fixture: registering a customer answered HTTP %d", resp.Status)
	}
	v, ok := Ptr(Decode(resp), Profile().Customers.CustomerIDPointer)
	id, _ := v.(string)
	if !ok || id == "" {
		HarnessError("fixture: the registration answer has no customer id at %s (profile customers.customerIdPointer)", Profile().Customers.CustomerIDPointer)
	}
	return id
}

var (
	sharedCustomerMu sync.Mutex
	sharedCustomerID string
)

// SharedCustomer returns a customer registered once per process (for specs
// that just need some customer to issue cards to).
func SharedCustomer(ctx context.Context) string {
	GinkgoHelper()
	sharedCustomerMu.Lock()
	defer sharedCustomerMu.Unlock()
	if sharedCustomerID == "" {
		sharedCustomerID = NewCustomer(ctx)
	}
	return sharedCustomerID
}

// Card is an issued card as the suites track it.
type Card struct {
	ID         string
	Reference  string
	NameOnCard string
	MaskedPan  string
	Status     string
	Balance    Money
	UpdatedAt  string
	Raw        JSON
}

// CardFrom reads a Card object.
func CardFrom(obj JSON) Card {
	c := Card{Raw: obj}
	c.ID, _ = obj["id"].(string)
	c.Reference, _ = obj["reference"].(string)
	c.NameOnCard, _ = obj["nameOnCard"].(string)
	c.MaskedPan, _ = obj["maskedPan"].(string)
	c.Status, _ = obj["status"].(string)
	c.UpdatedAt, _ = obj["updatedAt"].(string)
	c.Balance, _ = MoneyOf(obj["balanceAmount"])
	return c
}

// CardOpt changes an issuance request.
type CardOpt func(*cardReq)

type cardReq struct {
	customerID string
	name       string
	amount     Money
	reference  string
	noRef      bool
	extra      JSON
}

// WithAmount sets the initial funding (default 5.00).
func WithAmount(a Money) CardOpt { return func(r *cardReq) { r.amount = a } }

// WithName sets nameOnCard.
func WithName(n string) CardOpt { return func(r *cardReq) { r.name = n } }

// WithReference sets the card reference (default: a run-id reference).
func WithReference(ref string) CardOpt { return func(r *cardReq) { r.reference = ref } }

// WithCustomer issues to this customer (default: the process's shared customer).
func WithCustomer(id string) CardOpt { return func(r *cardReq) { r.customerID = id } }

// WithField adds a body member.
func WithField(k string, v any) CardOpt {
	return func(r *cardReq) {
		if r.extra == nil {
			r.extra = JSON{}
		}
		r.extra[k] = v
	}
}

// IssuanceBody builds the issuance request body from the profile.
func IssuanceBody(customerID, name string, amount Money, reference string) JSON {
	p := Profile().Issuance
	body := JSON{}
	for k, v := range p.Extra {
		body[k] = v
	}
	body[p.CustomerIDField] = customerID
	body["nameOnCard"] = name
	body["amount"] = amount.JSON()
	if p.ReferenceField != "" && reference != "" {
		body[p.ReferenceField] = reference
	}
	return body
}

// IssueCard sends an issuance request and returns the raw answer (for specs
// about issuance itself).
func IssueCard(ctx context.Context, opts ...CardOpt) (*client.Response, JSON) {
	GinkgoHelper()
	refuseLiveFixture("a card")
	r := cardReq{name: "Ada Harness", amount: M("5.00")}
	for _, o := range opts {
		o(&r)
	}
	if r.customerID == "" {
		r.customerID = SharedCustomer(ctx)
	}
	if r.reference == "" && !r.noRef {
		r.reference = Ref("card")
	}
	body := IssuanceBody(r.customerID, r.name, r.amount, r.reference)
	for k, v := range r.extra {
		body[k] = v
	}
	return Must(API().Post(ctx, Profile().Issuance.Path, body)), body
}

// NewCard issues a card for a spec that needs one; failing to issue is a
// harness error. The answer is schema-checked as a Card.
func NewCard(ctx context.Context, opts ...CardOpt) Card {
	GinkgoHelper()
	resp, _ := IssueCard(ctx, opts...)
	if resp.Status != http.StatusOK && resp.Status != http.StatusCreated {
		HarnessError("fixture: issuing a card answered HTTP %d", resp.Status)
	}
	v, ok := Ptr(Decode(resp), Profile().Issuance.CardPointer)
	obj, _ := v.(JSON)
	if !ok || obj == nil {
		HarnessError("fixture: the issuance answer has no card at %s (profile issuance.cardPointer)", Profile().Issuance.CardPointer)
	}
	c := CardFrom(obj)
	if c.ID == "" {
		HarnessError("fixture: the issued card has no id")
	}
	return c
}

// GetCard reads a card (by id or reference) with GET /cards/{id}, asserting
// the answer's schema, and returns it.
func GetCard(ctx context.Context, idOrRef string) Card {
	GinkgoHelper()
	resp := Must(API().Get(ctx, "/cards/"+client.Seg(idOrRef), nil))
	body := ExpectEnvelopeA(resp, schemas.CardResponse)
	ExpectCardFields(Data(body))
	return CardFrom(Data(body))
}

// Config is the card configuration.
type Config struct {
	Environment   string
	CreationFee   Money
	FundFee       Money
	WithdrawalFee Money
	MinFunding    Money
	ExchangeRate  Money
	VaultBalance  Money
}

// GetConfig reads GET /cards/config (schema-checked).
func GetConfig(ctx context.Context) Config {
	GinkgoHelper()
	resp := Must(API().Get(ctx, "/cards/config", nil))
	d := Data(ExpectEnvelopeA(resp, schemas.ConfigResponse))
	c := Config{}
	c.Environment, _ = d["environment"].(string)
	c.CreationFee = ExpectMoney(d["creationFee"], "creationFee")
	c.FundFee = ExpectMoney(d["fundFee"], "fundFee")
	c.WithdrawalFee = ExpectMoney(d["withdrawalFee"], "withdrawalFee")
	c.MinFunding = ExpectMoney(d["minFunding"], "minFunding")
	c.ExchangeRate = ExpectMoney(d["exchangeRate"], "exchangeRate")
	c.VaultBalance = ExpectMoney(d["vaultBalance"], "vaultBalance")
	return c
}

// SetCardStatus freezes or unfreezes a card and asserts success.
func SetCardStatus(ctx context.Context, id, status string) Card {
	GinkgoHelper()
	resp := Must(API().Patch(ctx, "/cards/"+client.Seg(id)+"/status", JSON{"status": status}))
	body := ExpectEnvelopeA(resp, schemas.StatusResponse)
	c, _ := Data(body)["card"].(JSON)
	Expect(c).NotTo(BeNil())
	return CardFrom(c)
}

var (
	sharedCardMu sync.Mutex
	sharedCard   *Card
)

// SharedCard returns a card issued once per process, for specs that only
// read it or address it without changing it (never withdraw, freeze or
// limit it: issue your own with NewCard).
func SharedCard(ctx context.Context) Card {
	GinkgoHelper()
	sharedCardMu.Lock()
	defer sharedCardMu.Unlock()
	if sharedCard == nil {
		c := NewCard(ctx, WithAmount(M("1.00")))
		sharedCard = &c
	}
	return *sharedCard
}
