package sandbox

import (
	"net/netip"
	"sync"
	"sync/atomic"

	"github.com/merchant-harness/mph/money"
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

func parseEnv(s string) (Env, bool) {
	switch s {
	case "TEST":
		return EnvTest, true
	case "LIVE":
		return EnvLive, true
	}
	return 0, false
}

// world is the whole mutable state. Reset swaps in a freshly seeded world, so
// a request holding the old one finishes consistently against it.
type world struct {
	merchants map[string]*merchant // immutable after seeding
	keys      map[string]keyRef    // secret key -> merchant and environment

	txMu sync.Mutex
	txns map[string]*txn // simulated card transactions by id

	delMu      sync.Mutex
	deliveries []Delivery // ring of the last maxDeliveries attempts
}

type keyRef struct {
	m   *merchant
	env Env
}

type merchant struct {
	id      string
	kyb     int
	envs    [2]*envState
	webhook atomic.Pointer[webhookConfig]
}

type webhookConfig struct {
	URL    string
	Secret string
}

// envState is the state of one merchant in one environment. mu guards every
// field and everything reachable from it (cards, customers, orders).
type envState struct {
	m   *merchant
	env Env

	whitelist atomic.Pointer[[]netip.Addr] // nil or empty: no whitelist; read on every call, lock-free

	firstToken atomic.Int64 // Unix nanoseconds of the first token issued (fault token-issued-once)

	mu        sync.RWMutex
	vault     int64 // USD cents
	ngn       int64 // NGN kobo
	fees      int64 // USD cents collected as fees
	spent     int64 // USD cents of approved card transactions (left the system)
	customers []*customer
	custByID  map[string]*customer
	cards     []*card // issuance order
	cardByID  map[string]*card
	cardByRef map[string]*card
	orders    []*giftOrder
	orderRef  map[string]*giftOrder // client reference
	orderTxID map[string]*giftOrder // transactionId
}

type customer struct {
	rec customerJSON
}

// card is a virtual card. Strings shown on every read are precomputed at
// issuance so that GET /cards stays cheap.
type card struct {
	id, ref      string
	customerID   string
	brand        string
	pan          string // 16 digits
	panGrouped   string
	maskedPan    string
	last4        string
	cvv          string
	expMonth     string
	expYear      string
	nameOnCard   string
	nameLower    string
	refLower     string
	billing      Address
	colorTheme   string
	createdAt    string
	updatedAt    string
	balance      int64
	frozen       bool
	email        string
	mobile       string
	limits       [4]int64 // transaction, daily, monthly, all-time; 0 = unset
	dayKey       int      // yyyymmdd of daySpent
	daySpent     int64
	monthKey     int // yyyymm of monthSpent
	monthSpent   int64
	allTimeSpent int64
	frozenOnce   bool // fault txn-unfreeze-still-declines only
}

const (
	limTransaction = iota
	limDaily
	limMonthly
	limAllTime
)

type giftOrder struct {
	reference     string
	transactionID string
	productCode   string
	productName   string
	currency      string
	faceValue     int64
	costNGN       int64
	voucher       Voucher
	recipient     Recipient
	status        string // PROCESSING or SUCCESS
	held          bool
	verifyCalls   int // variant gift-verify-two-step
	env           Env
	createdAt     string
	variantCode   string
	phone, note   string
}

type txn struct {
	id       string
	st       *envState
	cardID   string
	amount   int64
	settled  bool
	approved bool
}

func newWorld() *world {
	w := &world{
		merchants: map[string]*merchant{},
		keys:      map[string]keyRef{},
		txns:      map[string]*txn{},
	}
	for _, d := range DemoMerchants() {
		m := &merchant{id: d.ID, kyb: d.KYBTier}
		for _, env := range []Env{EnvTest, EnvLive} {
			st := &envState{
				m: m, env: env,
				vault:     seedVault,
				ngn:       seedNGN,
				custByID:  map[string]*customer{},
				cardByID:  map[string]*card{},
				cardByRef: map[string]*card{},
				orderRef:  map[string]*giftOrder{},
				orderTxID: map[string]*giftOrder{},
			}
			if wl := seedWhitelist(d.ID, env); len(wl) > 0 {
				st.whitelist.Store(&wl)
			}
			m.envs[env] = st
		}
		w.merchants[d.ID] = m
		w.keys[d.TestKey] = keyRef{m, EnvTest}
		if d.LiveKey != "" {
			w.keys[d.LiveKey] = keyRef{m, EnvLive}
		}
	}
	return w
}

// findCard resolves a card by id, then by reference.
func (st *envState) findCard(idOrRef string) *card {
	if c := st.cardByID[idOrRef]; c != nil {
		return c
	}
	return st.cardByRef[idOrRef]
}

// findOrder resolves a gift order by client reference, then by transactionId.
func (st *envState) findOrder(ref string) *giftOrder {
	if o := st.orderRef[ref]; o != nil {
		return o
	}
	return st.orderTxID[ref]
}

// amount is a shorthand for rendering minor units.
func amount(n int64) money.Amount { return money.Amount(n) }
