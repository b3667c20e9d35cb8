package framework

import (
	"context"
	"crypto/rand"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/merchant-harness/mph/client"
	"github.com/merchant-harness/mph/schemas"
)

var refSeq atomic.Int64

// Ref returns a new unique reference carrying the run-id prefix, e.g.
// "mph1a2b3c1c00039a" for kind "card": the run id, this process's number,
// the kind's first letter, a sequence and two random hex digits. A
// reference's form is not shown ("merchant reference of the card"; "client
// order reference"), so it holds letters and digits only, at most 20 with a
// run id of the default form (plausible rules accept it), and the
// references of a run have one length: none is part of another, so a
// search by one finds it alone.
func Ref(kind string) string {
	b := make([]byte, 1)
	_, _ = rand.Read(b)
	k := "r"
	if kind != "" && kind[0] >= 'a' && kind[0] <= 'z' {
		k = kind[:1]
	}
	return fmt.Sprintf("%s%s%s%s%02x", Cfg().RunID, base36(uint64(GinkgoParallelProcess()), 1), k, base36(uint64(refSeq.Add(1)), 4), b[0])
}

// base36 renders n in lower-case base 36, zero-padded to width digits.
func base36(n uint64, width int) string {
	s := strconv.FormatUint(n, 36)
	if len(s) < width {
		s = strings.Repeat("0", width-len(s)) + s
	}
	return s
}

// refuseLiveFixture skips the spec instead of creating state with LIVE
// credentials when --allow-live was not given (whatever the spec's labels).
func refuseLiveFixture(what string) {
	GinkgoHelper()
	if h.liveRefused() {
		Skip("refused: this spec needs " + what + " created, the primary credentials are LIVE; " + AllowLiveHint + " to run it")
	}
}

// CustomerBody returns a complete, valid registration body for the target
// (documented fields plus the profile's names for the undocumented ones),
// with an identity of its own (NewIdentity).
func CustomerBody() JSON { return RegistrationBody(NewIdentity()) }

// NewCustomer registers a customer with an identity of its own and returns
// its customerId. Failing to register is a harness error (specs about
// registration call the endpoint themselves).
func NewCustomer(ctx context.Context) string {
	GinkgoHelper()
	return NewCustomerWith(ctx, NewIdentity())
}

// NewCustomerWith registers a customer with this identity (e.g. one named as
// the card it will hold: a search by cardholder name then finds the card
// whether the target reads "cardholder" as the card's name or as the
// customer's) and returns its customerId.
func NewCustomerWith(ctx context.Context, id Identity) string {
	GinkgoHelper()
	refuseLiveFixture("a customer")
	resp := Must(API().Post(ctx, "/cards/customers", RegistrationBody(id)))
	skipIfStillRateLimited(resp, nil)
	if resp.Status != http.StatusOK && resp.Status != http.StatusCreated {
		HarnessError("fixture: registering a customer answered HTTP %d", resp.Status)
	}
	cid, ok := CustomerIDFrom(resp)
	if !ok {
		HarnessError("fixture: the registration answer has no customer id at %s (profile customers.customerIdPointer) nor a member named customerId", Profile().Customers.CustomerIDPointer)
	}
	return cid
}

// NewCardholder registers a customer with a name of two unique
// letters-only words in capitals and returns its id and that name, "FIRST
// LAST", for the cards issued to it: a search by cardholder name then finds
// them, and them alone, whether the target reads "cardholder" as the card's
// name or the customer's, matches substrings, whole values or any word,
// case-sensitively or not, and keeps the name as given or embosses it in
// capitals (none of which is shown).
func NewCardholder(ctx context.Context) (customerID, name string) {
	GinkgoHelper()
	first, last := nameToken(nextUnique()), nameToken(nextUnique())
	id := NewIdentity()
	id.FirstName, id.LastName = strings.ToUpper(first), strings.ToUpper(last)
	return NewCustomerWith(ctx, id), id.FullName()
}

// CustomerIDFrom reads the customerId of a registration answer: at the
// profile's customers.customerIdPointer, else the member the document names
// ("the returned customerId") anywhere in it; a string or a number (its
// type is not shown: a number is sent back to issuance as a number).
func CustomerIDFrom(resp *client.Response) (string, bool) {
	v, _ := AtPointerOrNamed(Decode(resp), Profile().Customers.CustomerIDPointer, "customerId")
	id, ok := IDString(v)
	if ok {
		pool.registered(id, v)
	}
	return id, ok
}

// SharedCustomer returns a customer of the pool that can take one more
// card, proven approved (it was issued a card; a new one is issued a small
// card first): the fixtures issue at most testData.cardsPerCustomer cards
// to one customer (a cap on cards per customer is a business rule the
// document leaves open), then register the next one. A spec that reads the
// vault and then issues to the shared customer calls it first.
func SharedCustomer(ctx context.Context) string {
	GinkgoHelper()
	return pool.withRoom(ctx, 1)
}

// CustomerFor returns a proven customer of the pool that can take n more
// cards (at most testData.cardsPerCustomer), e.g. for a sequence of
// issuances that must all succeed.
func CustomerFor(ctx context.Context, n int) string {
	GinkgoHelper()
	return pool.withRoom(ctx, n)
}

// UnknownCustomerID returns a customer id no customer has, in the form and
// JSON type of a real one (the pool's customer), so that a target checking
// the id's form answers "does not exist", not a malformed payload.
func UnknownCustomerID(ctx context.Context) string {
	GinkgoHelper()
	return pool.lookalike(SharedCustomer(ctx))
}

// UnknownCardID returns a card id no card has, in the form of a real one
// (the process's shared card's, its last four letters or digits changed):
// a target checking an id's form answers "does not exist", not a malformed
// request. With LIVE credentials and no --allow-live no card is issued for
// it: the id is crd_ and the run id.
func UnknownCardID(ctx context.Context) string {
	GinkgoHelper()
	if h.liveRefused() {
		return "crd_" + Cfg().RunID + "nosuchcard"
	}
	return rotateTail(SharedCard(ctx).ID)
}

// UnknownCardReference returns a card reference no card has, in the form
// of the references the harness gives its cards (a kind letter no other
// reference carries).
func UnknownCardReference() string { return Ref("zunknown") }

// SameName reports whether a nameOnCard is the name given: equal in any
// letter case, white space collapsed (embossing renders names in capitals;
// that a card echoes the input's case is not stated).
func SameName(got, given string) bool {
	return strings.EqualFold(strings.Join(strings.Fields(got), " "), strings.Join(strings.Fields(given), " "))
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
	// Sent is the issuance request body (NewCard), Issued the card object
	// of the issuance answer (nil when it carries none: its shape is not
	// shown) and Answer the answer itself; the other fields come from a
	// fresh GET /cards/{id}. IssuedStatus is the status the new card had
	// before NewCard made it ACTIVE (the initial status is not stated).
	Sent, Issued JSON
	Answer       *client.Response
	IssuedStatus string
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
	nameSet    bool
	cardholder bool
	extra      JSON
}

// WithAmount sets the initial funding (default 5.00).
func WithAmount(a Money) CardOpt { return func(r *cardReq) { r.amount = a } }

// WithName sets nameOnCard ("" sends an empty one; default: CardName()).
func WithName(n string) CardOpt { return func(r *cardReq) { r.name, r.nameSet = n, true } }

// WithReference sets the card reference (default: a run-id reference).
func WithReference(ref string) CardOpt { return func(r *cardReq) { r.reference = ref } }

// WithCustomer issues to this customer (default: the pool's current customer).
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

// WithCardholder issues to a new customer named as the card
// (NewCardholder): a search by cardholder name finds the card under either
// reading of "cardholder name" (the card's nameOnCard or its customer's
// name).
func WithCardholder() CardOpt { return func(r *cardReq) { r.cardholder = true } }

// IssuanceBody builds the issuance request body from the profile; the
// customer id goes in the JSON type the registration answered it in.
func IssuanceBody(customerID, name string, amount Money, reference string) JSON {
	p := Profile().Issuance
	body := JSON{}
	for k, v := range p.Extra {
		body[k] = v
	}
	body[p.CustomerIDField] = pool.wire(customerID)
	body["nameOnCard"] = name
	body["amount"] = amount.JSON()
	if p.ReferenceField != "" && reference != "" {
		body[p.ReferenceField] = reference
	}
	return body
}

// newCardReq applies the options over the defaults: a unique letters-only
// name, 5.00, a run-id reference, the pool's customer (or a new one named
// as the card, WithCardholder).
func newCardReq(ctx context.Context, opts []CardOpt) cardReq {
	GinkgoHelper()
	r := cardReq{amount: M("5.00")}
	for _, o := range opts {
		o(&r)
	}
	if r.cardholder && r.customerID == "" {
		var name string
		r.customerID, name = NewCardholder(ctx)
		if !r.nameSet {
			r.name, r.nameSet = name, true
		}
	}
	if !r.nameSet {
		r.name = CardName()
	}
	return r
}

// issueOnce sends one issuance request for r (a new reference unless given).
func issueOnce(ctx context.Context, r cardReq) (*client.Response, JSON) {
	GinkgoHelper()
	ref := r.reference
	if ref == "" && !r.noRef {
		ref = Ref("card")
	}
	body := IssuanceBody(r.customerID, r.name, r.amount, ref)
	for k, v := range r.extra {
		body[k] = v
	}
	return Must(API().Post(ctx, Profile().Issuance.Path, body)), body
}

// IssueCard sends an issuance request and returns the raw answer (for specs
// about issuance itself): a unique letters-only name, 5.00 and the pool's
// proven customer (SharedCustomer) unless the options say otherwise.
func IssueCard(ctx context.Context, opts ...CardOpt) (*client.Response, JSON) {
	GinkgoHelper()
	refuseLiveFixture("a card")
	r := newCardReq(ctx, opts)
	if r.customerID == "" {
		r.customerID = SharedCustomer(ctx)
	}
	return issueOnce(ctx, r)
}

// NewCard issues a card for a spec that needs one and reads it with
// GET /cards/{id} (real-time; the issuance answer's shape is not shown); a
// new card that is not ACTIVE is made so (the status a card starts in is
// not stated; a FROZEN card is "usable again" once ACTIVE). A refusal that
// is not the spec's subject is waited out while the customer may still be
// in verification (customers.approvalWait), then answered by issuing to a
// new customer of the pool once; what still fails is a harness error (a
// 429 after the back-off: no verdict).
func NewCard(ctx context.Context, opts ...CardOpt) Card {
	GinkgoHelper()
	refuseLiveFixture("a card")
	r := newCardReq(ctx, opts)
	pooled := r.customerID == ""
	rotated := false
	for {
		if pooled {
			r.customerID = pool.current(ctx, 1)
		}
		resp, body := issueOnce(ctx, r)
		if resp.Status == http.StatusOK || resp.Status == http.StatusCreated {
			return readIssued(ctx, resp, body, r)
		}
		skipIfStillRateLimited(resp, nil)
		if resp.Status < 400 || resp.Status > 499 || resp.Status == http.StatusUnauthorized || resp.Status == http.StatusForbidden {
			HarnessError("fixture: issuing a card answered HTTP %d (%s)", resp.Status, firstMessage(resp))
		}
		if pool.awaitApproval(ctx, r.customerID) {
			continue
		}
		if !pooled || rotated {
			HarnessError("fixture: issuing a card answered HTTP %d (%s)", resp.Status, firstMessage(resp))
		}
		pool.rotate(ctx)
		rotated = true
	}
}

// readIssued reads the card an issuance answered, again with GET, and makes
// it ACTIVE when it is not.
func readIssued(ctx context.Context, resp *client.Response, sent JSON, r cardReq) Card {
	GinkgoHelper()
	issued := IssuedCard(resp)
	id, _ := IDString(issued["id"])
	if id == "" {
		HarnessError("fixture: the issuance answer has no card id at %s (profile issuance.cardPointer) nor a member named id", Profile().Issuance.CardPointer)
	}
	c := GetCard(ctx, id)
	initial := c.Status
	if c.Status != "ACTIVE" {
		activate(ctx, id)
		c = GetCard(ctx, id)
	}
	c.Sent, c.Issued, c.Answer, c.IssuedStatus = sent, issued, resp, initial
	if c.NameOnCard == "" {
		c.NameOnCard = r.name
	}
	if ref, _ := sent[Profile().Issuance.ReferenceField].(string); c.Reference == "" && ref != "" {
		c.Reference = ref
	}
	return c
}

// activate sets a new card ACTIVE (a fixture: a refusal is a harness error).
func activate(ctx context.Context, id string) {
	GinkgoHelper()
	resp := Must(API().Patch(ctx, "/cards/"+client.Seg(id)+"/status", JSON{"status": "ACTIVE"}))
	skipIfStillRateLimited(resp, nil)
	if resp.Status != http.StatusOK {
		HarnessError("fixture: making the new card %s ACTIVE answered HTTP %d (%s)", id, resp.Status, firstMessage(resp))
	}
}

// IssuedCard returns the card object of an issuance answer: at the
// profile's issuance.cardPointer, else the shallowest object holding a
// member named id; nil when there is none.
func IssuedCard(resp *client.Response) JSON {
	return issuedCardIn(Decode(resp))
}

func issuedCardIn(doc any) JSON {
	if v, ok := Ptr(doc, Profile().Issuance.CardPointer); ok {
		if obj, isObj := v.(JSON); isObj && obj["id"] != nil {
			return obj
		}
	}
	obj, _ := FindObjectWith(doc, "id")
	return obj
}

// firstMessage is an error answer's message, cut, for a harness error.
func firstMessage(resp *client.Response) string {
	var body JSON
	if resp.JSON(&body) != nil {
		return "no JSON body"
	}
	m := strings.Join(Messages(body), "; ")
	if len(m) > 200 {
		m = m[:200] + "…"
	}
	return m
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

// GetConfig reads GET /cards/config (schema-checked): the fees, minimum
// funding and vault balance as exact amounts; environment and exchangeRate
// when present (ExchangeRate is zero without one).
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
	if d["exchangeRate"] != nil { // may be absent or null: which pair it rates is not shown
		c.ExchangeRate = ExpectMoney(d["exchangeRate"], "exchangeRate")
	}
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
