// Package state is the sandbox's mutable state: the world of merchants, each
// merchant's environments with their balances, customers, cards and gift
// orders under one lock, the simulated transactions and the webhook delivery
// log, the resources rendered as the API shows them and the program's fees
// and rates. It decides nothing: the handlers, faults and settings of
// package sandbox change it under its locks.
package state

import (
	"net/netip"
	"sort"
	"sync"
	"sync/atomic"
)

// Env is an environment: TEST or LIVE.
type Env uint8

// Environments.
const (
	EnvTest Env = iota
	EnvLive
)

func (e Env) String() string {
	if e == EnvLive {
		return "LIVE"
	}
	return "TEST"
}

// ParseEnv reads TEST or LIVE.
func ParseEnv(s string) (Env, bool) {
	switch s {
	case "TEST":
		return EnvTest, true
	case "LIVE":
		return EnvLive, true
	}
	return 0, false
}

// World is the whole mutable state. Reset swaps in a freshly seeded world, so
// a request holding the old one finishes consistently against it.
type World struct {
	Merchants map[string]*Merchant // immutable after seeding
	Keys      map[string]KeyRef    // secret key -> merchant and environment

	TxMu sync.Mutex
	Txns map[string]*Txn // simulated card transactions by id

	delMu      sync.Mutex
	deliveries []Delivery // ring of the last maxDeliveries attempts
}

// KeyRef is what a secret key names: a merchant and an environment.
type KeyRef struct {
	Merchant *Merchant
	Env      Env
}

// Merchant is a seeded merchant: its environments and its webhook.
type Merchant struct {
	ID      string
	KYB     int
	Envs    [2]*EnvState
	Webhook atomic.Pointer[WebhookConfig]
}

// WebhookConfig is where a merchant's card events go and their signing key.
type WebhookConfig struct {
	URL    string
	Secret string
}

// EnvState is the state of one merchant in one environment. Mu guards every
// field and everything reachable from it (cards, customers, orders).
type EnvState struct {
	Merchant *Merchant
	Env      Env

	Whitelist atomic.Pointer[[]netip.Addr] // nil or empty: no whitelist; read on every call, lock-free

	FirstToken atomic.Int64 // Unix nanoseconds of the first token issued (fault token-issued-once)

	Mu        sync.RWMutex
	Vault     int64 // USD cents
	NGN       int64 // NGN kobo
	Fees      int64 // USD cents collected as fees
	Spent     int64 // USD cents of approved card transactions (left the system)
	Customers []*Customer
	CustByID  map[string]*Customer
	Cards     []*Card // issuance order
	CardByID  map[string]*Card
	CardByRef map[string]*Card
	Orders    []*GiftOrder
	OrderRef  map[string]*GiftOrder // client reference
	OrderTxID map[string]*GiftOrder // transactionId
}

// Customer is a registered cardholder, kept as the API shows it.
type Customer struct {
	Rec CustomerJSON
}

// Card is a virtual card. Strings shown on every read are precomputed at
// issuance so that GET /cards stays cheap.
type Card struct {
	ID, Ref      string
	CustomerID   string
	Brand        string
	PAN          string // 16 digits
	PANGrouped   string
	MaskedPAN    string
	Last4        string
	CVV          string
	ExpMonth     string
	ExpYear      string
	NameOnCard   string
	NameLower    string
	RefLower     string
	Billing      Address
	ColorTheme   string
	CreatedAt    string
	UpdatedAt    string
	Balance      int64
	Frozen       bool
	Email        string
	Mobile       string
	Limits       [4]int64 // transaction, daily, monthly, all-time; 0 = unset
	DayKey       int      // yyyymmdd of daySpent
	DaySpent     int64
	MonthKey     int // yyyymm of monthSpent
	MonthSpent   int64
	AllTimeSpent int64
	FrozenOnce   bool // fault txn-unfreeze-still-declines only
}

// LimitNames are the wire names of Card.Limits, in their order.
var LimitNames = [4]string{"transactionLimit", "dailyLimit", "monthlyLimit", "allTimeLimit"}

// The indices of Card.Limits.
const (
	LimTransaction = iota
	LimDaily
	LimMonthly
	LimAllTime
)

// GiftOrder is a gift card purchase.
type GiftOrder struct {
	Reference     string
	TransactionID string
	ProductCode   string
	ProductName   string
	Currency      string
	FaceValue     int64
	CostNGN       int64
	Voucher       Voucher
	Recipient     Recipient
	Status        string // PROCESSING or SUCCESS
	Held          bool
	VerifyCalls   int // variant gift-verify-two-step
	Env           Env
	CreatedAt     string
	VariantCode   string
	Phone, Note   string
}

// Txn is a simulated card transaction (a test control's).
type Txn struct {
	ID       string
	State    *EnvState
	CardID   string
	Amount   int64
	Settled  bool
	Approved bool
}

// FindCard resolves a card by id, then by reference.
func (st *EnvState) FindCard(idOrRef string) *Card {
	if c := st.CardByID[idOrRef]; c != nil {
		return c
	}
	return st.CardByRef[idOrRef]
}

// FindOrder resolves a gift order by client reference, then by transactionId.
func (st *EnvState) FindOrder(ref string) *GiftOrder {
	if o := st.OrderRef[ref]; o != nil {
		return o
	}
	return st.OrderTxID[ref]
}

// Seed is a merchant of the seeded world.
type Seed struct {
	ID, TestKey string
	LiveKey     string // "" when the merchant has no LIVE key
	KYBTier     int
	Vault, NGN  int64           // starting balances of each environment: USD cents, NGN kobo
	Whitelist   [2][]netip.Addr // the IP whitelist per environment (none: nil)
}

// NewWorld is the world of seeds, as a reset leaves it.
func NewWorld(seeds []Seed) *World {
	w := &World{
		Merchants: map[string]*Merchant{},
		Keys:      map[string]KeyRef{},
		Txns:      map[string]*Txn{},
	}
	for _, d := range seeds {
		m := &Merchant{ID: d.ID, KYB: d.KYBTier}
		for _, env := range []Env{EnvTest, EnvLive} {
			st := &EnvState{
				Merchant: m, Env: env,
				Vault:     d.Vault,
				NGN:       d.NGN,
				CustByID:  map[string]*Customer{},
				CardByID:  map[string]*Card{},
				CardByRef: map[string]*Card{},
				OrderRef:  map[string]*GiftOrder{},
				OrderTxID: map[string]*GiftOrder{},
			}
			if wl := append([]netip.Addr(nil), d.Whitelist[env]...); len(wl) > 0 {
				st.Whitelist.Store(&wl)
			}
			m.Envs[env] = st
		}
		w.Merchants[d.ID] = m
		w.Keys[d.TestKey] = KeyRef{m, EnvTest}
		if d.LiveKey != "" {
			w.Keys[d.LiveKey] = KeyRef{m, EnvLive}
		}
	}
	return w
}

// CardByIDAnywhere finds a card by id in any merchant and environment.
func (w *World) CardByIDAnywhere(id string) (*EnvState, *Card) {
	for _, m := range w.Merchants {
		for _, st := range m.Envs {
			st.Mu.RLock()
			c := st.CardByID[id]
			st.Mu.RUnlock()
			if c != nil {
				return st, c
			}
		}
	}
	return nil, nil
}

// FindOrderAnywhere finds an order of any merchant in env (fault
// gift-verify-tenant-leak); it returns with the owner's state locked.
func (w *World) FindOrderAnywhere(env Env, ref string) (*EnvState, *GiftOrder) {
	for _, m := range w.Merchants {
		st := m.Envs[env]
		st.Mu.Lock()
		if o := st.FindOrder(ref); o != nil {
			return st, o
		}
		st.Mu.Unlock()
	}
	return nil, nil
}

// FindCardAnywhere searches every merchant and environment by card id; it
// returns the card and its rendering.
func (w *World) FindCardAnywhere(id string) (*Card, CardJSON) {
	for _, m := range w.Merchants {
		for _, st := range m.Envs {
			st.Mu.RLock()
			c := st.CardByID[id]
			var out CardJSON
			if c != nil {
				out = c.JSON()
			}
			st.Mu.RUnlock()
			if c != nil {
				return c, out
			}
		}
	}
	return nil, CardJSON{}
}

// MerchantIDs are the merchants' ids, sorted.
func (w *World) MerchantIDs() []string {
	ids := make([]string, 0, len(w.Merchants))
	for id := range w.Merchants {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}
