package framework

// Test money accounting: every request that spends or returns money
// (issuance, gift purchase, withdrawal) is observed at the transport of the
// suites' clients, whatever spec sends it, so the run can state what it spent
// and swept back, refuse to go over --max-spend, and sweep back in teardown
// every card it created.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"

	"github.com/merchant-harness/mph/client"
	"github.com/merchant-harness/mph/config"
	"github.com/merchant-harness/mph/money"
	"github.com/merchant-harness/mph/result"
)

// errInterrupted refuses spending requests once the run is interrupted.
var errInterrupted = errors.New("the run is interrupted: no new spending request is sent")

// OverBudgetError refuses a request that would take the run over --max-spend;
// Must turns it into a skip of the spec with this reason.
type OverBudgetError struct{ Msg string }

func (e *OverBudgetError) Error() string { return e.Msg }

// createdCard is a card the run issued, and who issued it.
type createdCard struct {
	ID  string
	Who config.Credentials
}

// ledger is this process's account of test money.
type ledger struct {
	mu        sync.Mutex
	max       map[string]int64
	fees      cardFees
	issued    int64 // Σ issuance amounts (USD minor units)
	cards     []createdCard
	withdrawn int64 // Σ withdrawal amounts
	withdraws int
	ngnSpent  int64
	gifts     int
	lastGift  int64 // NGN cost of the last purchase: the estimate of the next
	customers int
	custIDs   []createdCard // the customers registered, and by whom (run_resources.go)
	reserved  map[string]int64
	refused   int
	byArea    map[string]*areaSpend
	closed    bool // interrupted: no new spending request is sent
	inflight  int  // issuances and purchases sent and not yet booked
}

// areaSpend is what the specs of one top-level container spent.
type areaSpend struct {
	cards, gifts int
	funded, ngn  int64
}

// cardFees are the target's fees from GET /cards/config.
type cardFees struct {
	loaded        bool
	creation      int64
	withdrawal    int64
	vaultStart    int64
	vaultStartSet bool
}

var books = &ledger{reserved: map[string]int64{}, byArea: map[string]*areaSpend{}}

// area names the top-level container of the running spec.
func (l *ledger) area() *areaSpend {
	name := "(outside a spec)"
	if r := CurrentSpecReport(); len(r.ContainerHierarchyTexts) > 0 {
		name = r.ContainerHierarchyTexts[0]
	} else if r.LeafNodeText != "" {
		name = r.LeafNodeText
	}
	a := l.byArea[name]
	if a == nil {
		a = &areaSpend{}
		l.byArea[name] = a
	}
	return a
}

// areasLocked renders the spend per area in minor units, fees included.
func (l *ledger) areasLocked() map[string]result.AreaSpend {
	if len(l.byArea) == 0 {
		return nil
	}
	out := map[string]result.AreaSpend{}
	for name, a := range l.byArea {
		sp := result.AreaSpend{Cards: a.cards, GiftOrders: a.gifts, Spent: map[string]int64{}}
		if a.cards > 0 {
			sp.Spent["USD"] = a.funded + int64(a.cards)*l.fees.creation
		}
		if a.gifts > 0 {
			sp.Spent["NGN"] = a.ngn
		}
		out[name] = sp
	}
	return out
}

// spendKind classifies a request by what it does with money.
type spendKind int

const (
	spendNone spendKind = iota
	spendIssue
	spendWithdraw
	spendGift
	spendCustomer
)

// classify names what a request to rel (the path below the merchant root) does.
func classify(method, rel string) spendKind {
	if method != http.MethodPost {
		return spendNone
	}
	switch {
	case rel == Profile().Issuance.Path:
		return spendIssue
	case rel == "/gift-cards/purchase":
		return spendGift
	case rel == "/cards/customers":
		return spendCustomer
	case strings.HasPrefix(rel, "/cards/") && strings.HasSuffix(rel, "/withdraw") && strings.Count(rel, "/") == 3:
		return spendWithdraw
	}
	return spendNone
}

// amountOf reads the body's amount exactly (0 when absent or malformed).
func amountOf(body []byte) int64 {
	var v struct {
		Amount json.Number `json:"amount"`
	}
	if json.Unmarshal(body, &v) != nil {
		return 0
	}
	a, err := money.Parse(v.Amount.String())
	if err != nil || a < 0 {
		return 0
	}
	return a.Minor()
}

// customerOf reads the customer id of an issuance request body.
func customerOf(body []byte) string {
	var b map[string]any
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if dec.Decode(&b) != nil {
		return ""
	}
	id, _ := IDString(b[Profile().Issuance.CustomerIDField])
	return id
}

// admit reserves what the request may spend, or refuses it over the budget.
func (l *ledger) admit(kind spendKind, body []byte) (cur string, need int64, err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed && kind != spendWithdraw {
		return "", 0, errInterrupted
	}
	switch kind {
	case spendIssue:
		cur, need = "USD", amountOf(body)+l.fees.creation
	case spendGift:
		cur, need = "NGN", l.lastGift
	default:
		return "", 0, nil
	}
	if limit, ok := l.max[cur]; ok {
		spent := l.spentLocked()[cur] + l.reserved[cur]
		if spent+need > limit || (need == 0 && spent >= limit) {
			l.refused++
			return "", 0, &OverBudgetError{fmt.Sprintf("refused by --max-spend: this request would spend about %s %s, the run has spent %s of its %s %s",
				money.Amount(need), cur, money.Amount(spent), money.Amount(limit), cur)}
		}
	}
	l.reserved[cur] += need
	l.inflight++
	return cur, need, nil
}

// release ends an admitted request (booked or not).
func (l *ledger) release(cur string, need int64) {
	if cur == "" {
		return
	}
	l.mu.Lock()
	l.reserved[cur] -= need
	l.inflight--
	l.mu.Unlock()
}

// settle waits, at most d, for the issuances and purchases in flight to be
// booked: the interrupt's teardown must know every card they create.
func (l *ledger) settle(ctx context.Context, d time.Duration) {
	for end := time.Now().Add(d); time.Now().Before(end) && ctx.Err() == nil; time.Sleep(10 * time.Millisecond) {
		l.mu.Lock()
		n := l.inflight
		l.mu.Unlock()
		if n == 0 {
			return
		}
	}
}

// spentLocked is the money spent so far per currency, fees included.
func (l *ledger) spentLocked() map[string]int64 {
	out := map[string]int64{}
	if n := int64(len(l.cards)); n > 0 || l.issued > 0 {
		out["USD"] = l.issued + n*l.fees.creation
	}
	if l.gifts > 0 {
		out["NGN"] = l.ngnSpent
	}
	return out
}

// sweptLocked is what withdrawals credited to the vault, per the profile.
func (l *ledger) sweptLocked() map[string]int64 {
	if l.withdraws == 0 {
		return nil
	}
	credit := l.withdrawn
	if Profile().Cards.WithdrawVaultCredit != "amount" {
		credit -= int64(l.withdraws) * l.fees.withdrawal
	}
	return map[string]int64{"USD": credit}
}

// record books a successful answer.
func (l *ledger) record(kind spendKind, who config.Credentials, reqBody, respBody []byte) {
	var doc any
	dec := json.NewDecoder(bytes.NewReader(respBody))
	dec.UseNumber()
	_ = dec.Decode(&doc)
	l.mu.Lock()
	defer l.mu.Unlock()
	switch kind {
	case spendIssue:
		l.issued += amountOf(reqBody)
		a := l.area()
		a.cards++
		a.funded += amountOf(reqBody)
		id, _ := IDString(issuedCardIn(doc)["id"])
		l.cards = append(l.cards, createdCard{ID: id, Who: who})
		pool.noteIssued(customerOf(reqBody))
	case spendWithdraw:
		l.withdrawn += amountOf(reqBody)
		l.withdraws++
	case spendGift:
		l.gifts++
		l.area().gifts++
		v, _ := Ptr(doc, strings.TrimSuffix(Profile().GiftCards.Purchase.OrderPointer, "/")+"/costNgn")
		if m, ok := MoneyOf(v); ok {
			if a, err := money.Parse(m.String()); err == nil {
				l.ngnSpent += a.Minor()
				l.lastGift = a.Minor()
				l.area().ngn += a.Minor()
			}
		}
	case spendCustomer:
		l.customers++
		l.noteCustomer(who, doc)
	}
}

// loadFees reads the target's fees and vault once per process.
func (l *ledger) loadFees(ctx context.Context, c *client.Client) {
	l.mu.Lock()
	loaded := l.fees.loaded
	l.mu.Unlock()
	if loaded {
		return
	}
	f, ok := readFees(ctx, c)
	l.mu.Lock()
	if !l.fees.loaded {
		f.loaded = true
		f.vaultStartSet = ok
		l.fees = f
	}
	l.mu.Unlock()
}

// readFees reads creationFee, withdrawalFee and vaultBalance (ok false when
// the configuration cannot be read).
func readFees(ctx context.Context, c *client.Client) (cardFees, bool) {
	var f cardFees
	resp, err := c.WithRecorder(client.NewRecorder()).Get(ctx, "/cards/config", nil)
	if err != nil || resp.Status != http.StatusOK {
		return f, false
	}
	d := Data(resp.Map())
	get := func(k string) (int64, bool) {
		m, ok := MoneyOf(d[k])
		if !ok {
			return 0, false
		}
		a, err := money.Parse(m.String())
		return a.Minor(), err == nil
	}
	var ok1, ok2, ok3 bool
	f.creation, ok1 = get("creationFee")
	f.withdrawal, ok2 = get("withdrawalFee")
	f.vaultStart, ok3 = get("vaultBalance")
	return f, ok1 && ok2 && ok3
}

// spendTransport observes the money requests of one identity.
type spendTransport struct {
	base     http.RoundTripper
	who      config.Credentials
	rootPath string // path of the merchant root, e.g. /v1/merchant
}

func observed(hc *http.Client, who config.Credentials, baseURL string) *http.Client {
	cp := *hc
	root := ""
	if u, err := url.Parse(baseURL); err == nil {
		root = strings.TrimRight(u.Path, "/")
	}
	cp.Transport = spendTransport{base: hc.Transport, who: who, rootPath: root}
	return &cp
}

const maxObservedBody = 4 << 20

func (t spendTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if t.base == nil {
		return nil, errors.New("suites: the HTTP client has no transport")
	}
	rel, ok := strings.CutPrefix(r.URL.Path, t.rootPath)
	kind := spendNone
	if ok {
		kind = classify(r.Method, rel)
	}
	if kind == spendNone || r.GetBody == nil {
		return t.base.RoundTrip(r)
	}
	rc, err := r.GetBody()
	if err != nil {
		return t.base.RoundTrip(r)
	}
	reqBody, _ := io.ReadAll(io.LimitReader(rc, maxObservedBody))
	_ = rc.Close()
	cur, need, err := books.admit(kind, reqBody)
	if err != nil {
		return nil, err
	}
	defer books.release(cur, need)
	resp, err := t.base.RoundTrip(r)
	if err != nil || resp.StatusCode < 200 || resp.StatusCode > 299 {
		return resp, err
	}
	body, rerr := io.ReadAll(io.LimitReader(resp.Body, maxObservedBody))
	_ = resp.Body.Close()
	resp.Body = io.NopCloser(bytes.NewReader(body))
	if rerr == nil {
		books.record(kind, t.who, reqBody, body)
	}
	return resp, rerr
}
