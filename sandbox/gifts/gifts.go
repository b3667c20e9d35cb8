// Package gifts serves the gift card endpoints and the quotes: the product
// catalogue, quotes, purchases debiting the NGN balance, verification that
// reconciles an order, look-ups, and the betting quote, with the faults and
// settings that change them.
package gifts

import (
	"net/http"
	"strings"

	"github.com/merchant-harness/mph/money"
	"github.com/merchant-harness/mph/sandbox/answer"
	"github.com/merchant-harness/mph/sandbox/fault"
	"github.com/merchant-harness/mph/sandbox/ids"
	"github.com/merchant-harness/mph/sandbox/settings"
	"github.com/merchant-harness/mph/sandbox/state"
	"github.com/merchant-harness/mph/sandbox/validate"
	"github.com/merchant-harness/mph/sandbox/wording"
)

// Endpoints serve the gift cards and quotes of one sandbox.
type Endpoints struct {
	faults fault.Set
	set    *settings.Settings
}

// New serves them under faults fs and the settings' hooks set.
func New(fs fault.Set, set *settings.Settings) *Endpoints { return &Endpoints{faults: fs, set: set} }

type product struct {
	Code, Name, Currency string
	Min, Max             money.Amount
	Site                 string
}

// giftCatalogue of docs/sandbox.md (all environments), sorted by code.
var giftCatalogue = []product{
	{"AMAZON_US", "Amazon.com", "USD", 5_00, 500_00, "amazon.com/redeem"},
	{"APPLE_US", "Apple", "USD", 10_00, 500_00, "apple.com/redeem"},
	{"NETFLIX_US", "Netflix", "USD", 15_00, 200_00, "netflix.com/redeem"},
	{"STEAM_US", "Steam", "USD", 5_00, 200_00, "store.steampowered.com/account/redeemwalletcode"},
}

var productCodes = func() []string {
	out := make([]string, len(giftCatalogue))
	for i, p := range giftCatalogue {
		out[i] = p.Code
	}
	return out
}()

func findProduct(code string) *product {
	for i := range giftCatalogue {
		if giftCatalogue[i].Code == code {
			return &giftCatalogue[i]
		}
	}
	return nil
}

type giftQuote struct {
	ProductCode  string       `json:"productCode"`
	ProductName  string       `json:"productName"`
	Currency     string       `json:"currency"`
	FaceValue    money.Amount `json:"faceValue"`
	ExchangeRate money.Amount `json:"exchangeRate"`
	SubtotalNgn  money.Amount `json:"subtotalNgn"`
	FeeNgn       money.Amount `json:"feeNgn"`
	TotalNgn     money.Amount `json:"totalNgn"`
}

func quoteGift(p *product, face, rate money.Amount) giftQuote {
	sub := money.MulRate(face, rate)
	return giftQuote{
		ProductCode: p.Code, ProductName: p.Name, Currency: p.Currency,
		FaceValue: face, ExchangeRate: rate,
		SubtotalNgn: sub, FeeNgn: state.GiftFeeNGN, TotalNgn: sub + state.GiftFeeNGN,
	}
}

// giftAmount validates a face value against the product's bounds.
func giftAmount(v *validate.Fields, p *product, text string, present bool) (money.Amount, bool) {
	if !present {
		v.Add("amount should not be empty")
		return 0, false
	}
	if p == nil {
		// Without a product the bounds are unknown; still check it is money.
		a, ok := v.CheckAmount("amount", text, 1, false, money.Max)
		return a, ok
	}
	return v.CheckAmount("amount", text, p.Min, false, p.Max)
}

// Quote is GET /gift-cards/quote?productCode=..&amount=..
func (s *Endpoints) Quote(rc *answer.Req) {
	q := rc.R.URL.Query()
	v := validate.Of(nil)
	code := q.Get("productCode")
	var p *product
	if code == "" {
		v.Add("productCode should not be empty")
	} else if v.OneOf("productCode", code, productCodes...) {
		p = findProduct(code)
	}
	amt, present := q["amount"]
	text := ""
	if present {
		text = amt[0]
	}
	face, _ := giftAmount(&v, p, text, present && text != "")
	if rc.Invalid(&v) {
		return
	}
	rc.EnvelopeA(http.StatusOK, quoteGift(p, face, s.set.GiftRate(rc.Now)))
}

// Purchase is POST /gift-cards/purchase: debits the quote's total
// from the NGN balance and creates a PROCESSING order.
func (s *Endpoints) Purchase(rc *answer.Req) {
	req, ok := s.parseGiftPurchase(rc)
	if !ok {
		return
	}
	s.storeGiftOrder(rc, s.newGiftOrder(rc, req))
}

// giftPurchase is a validated POST /gift-cards/purchase body.
type giftPurchase struct {
	p                           *product
	face                        money.Amount
	email, name, variant, phone string
	note, ref                   string
	hasRef                      bool
}

// parseGiftPurchase reads and validates the purchase body; on failure it
// has answered.
func (s *Endpoints) parseGiftPurchase(rc *answer.Req) (req giftPurchase, ok bool) {
	b, ok := rc.ReadBody()
	if !ok {
		return req, false
	}
	v := validate.Of(b)
	code, hasCode := v.OptStr("productCode", false, validate.MaxShort)
	if !hasCode {
		code = "AMAZON_US"
	}
	if code == "" {
		v.Add("productCode should not be empty")
	} else if v.OneOf("productCode", code, productCodes...) {
		req.p = findProduct(code)
	}
	raw, present := v.Raw("amount")
	req.face, _ = giftAmount(&v, req.p, string(raw), present)
	req.email = v.Str("recipientEmail", true, validate.MaxText)
	v.Match("recipientEmail", req.email, validate.Email, "must be an email")
	req.name = v.Str("recipientName", !s.faults.On(fault.GiftNameOptional), validate.MaxText)
	req.variant, _ = v.OptStr("variantCode", false, validate.MaxShort)
	var hasPhone bool
	req.phone, hasPhone = v.OptStr("recipientPhone", false, validate.MaxShort)
	if hasPhone && !validate.Phone.MatchString(req.phone) {
		v.Add("recipientPhone must be a valid phone number")
	}
	req.note, _ = v.OptStr("note", false, validate.MaxNote)
	req.ref, req.hasRef = v.OptStr("reference", false, validate.MaxShort)
	if req.hasRef && !validate.Reference.MatchString(req.ref) {
		v.Add("reference must contain only letters, digits, '.', '_' or '-'")
	}
	s.set.GiftRules(&v, req.face, req.email)
	return req, !rc.Invalid(&v)
}

// newGiftOrder builds the PROCESSING order of a purchase, priced by its quote.
func (s *Endpoints) newGiftOrder(rc *answer.Req, req giftPurchase) *state.GiftOrder {
	p := req.p
	quote := quoteGift(p, req.face, s.set.GiftRate(rc.Now))
	ref := req.ref
	if !req.hasRef {
		ref = "gft_" + ids.Hex(8)
	}
	return &state.GiftOrder{
		Reference:     ref,
		TransactionID: "GCT_" + strings.ToUpper(ids.Hex(8)),
		ProductCode:   p.Code,
		ProductName:   p.Name,
		Currency:      p.Currency,
		FaceValue:     int64(req.face),
		CostNGN:       giftCost(quote, s.faults.On(fault.GiftCostDiffers)),
		Voucher: state.Voucher{
			Code:         s.set.VoucherCode(),
			PIN:          ids.Digits(6),
			SerialNumber: "SN" + ids.Digits(12),
			Instructions: "Redeem at " + p.Site + " before the expiry date shown on the voucher.",
		},
		Recipient:   state.Recipient{Email: req.email, Name: req.name},
		Status:      s.set.PurchaseStatus(),
		Env:         rc.St.Env,
		CreatedAt:   wording.Timestamp(rc.Now),
		VariantCode: req.variant, Phone: req.phone, Note: req.note,
	}
}

// storeGiftOrder debits the NGN balance and stores o under the merchant's
// lock, then answers: 200, a duplicate-reference replay or conflict, or an
// insufficient balance.
func (s *Endpoints) storeGiftOrder(rc *answer.Req, o *state.GiftOrder) {
	st := rc.St
	st.Mu.Lock()
	if prev := st.FindOrder(o.Reference); prev != nil {
		switch s.set.GiftReplay(prev, o) {
		case settings.GiftReplayed:
			out := prev.JSON()
			st.Mu.Unlock()
			rc.EnvelopeA(http.StatusOK, out) // idempotent replay of the original order
			return
		case settings.GiftRefused:
			st.Mu.Unlock()
			rc.Error(http.StatusUnprocessableEntity, "Reference '"+o.Reference+"' was already used with other parameters")
			return
		}
	}
	if st.FindOrder(o.Reference) != nil {
		st.Mu.Unlock()
		rc.Error(http.StatusConflict, "Gift card order with reference '"+o.Reference+"' already exists")
		return
	}
	if s.set.VelocityExceeded(st, o.Recipient.Name, rc.Now) {
		st.Mu.Unlock()
		rc.Error(http.StatusBadRequest, "Too many gift cards for this recipient: try again later")
		return
	}
	if st.NGN < o.CostNGN {
		avail := st.NGN
		st.Mu.Unlock()
		rc.Error(http.StatusBadRequest, "Insufficient NGN balance: required "+
			money.Amount(o.CostNGN).String()+" NGN, available "+money.Amount(avail).String()+" NGN")
		return
	}
	if !s.faults.On(fault.GiftNotDebited) && (s.set.DebitsAtPurchase() || o.Status == "SUCCESS") {
		st.NGN -= o.CostNGN
	}
	st.Orders = append(st.Orders, o)
	st.OrderRef[o.Reference] = o
	st.OrderTxID[o.TransactionID] = o
	out := o.JSON()
	st.Mu.Unlock()
	code := http.StatusOK
	if s.faults.On(fault.GiftPurchase201) {
		code = http.StatusCreated
	}
	rc.EnvelopeA(code, out)
}

// Verify is GET /gift-cards/verify/{reference}: reconciles a
// PROCESSING order to SUCCESS (unless held) and never charges again.
func (s *Endpoints) Verify(rc *answer.Req) {
	st := rc.St
	st.Mu.Lock()
	o := s.set.FindGiftOrder(st, rc.ID)
	if s.faults.On(fault.GiftVerifyByTxnID404) {
		o = st.OrderRef[rc.ID] // client reference only
	}
	if o == nil && s.faults.On(fault.GiftVerifyTenantLeak) {
		st.Mu.Unlock()
		st, o = rc.World.FindOrderAnywhere(st.Env, rc.ID) // returns with st locked when found
		if o == nil {
			rc.GiftNotFound(rc.ID)
			return
		}
	}
	if o == nil {
		st.Mu.Unlock()
		rc.GiftNotFound(rc.ID)
		return
	}
	o.VerifyCalls++
	waits := s.set.ReconcileWaits(o, rc.Now) // reconciliation has not completed yet
	if !waits && o.Status == "PROCESSING" && (!o.Held || s.faults.On(fault.GiftHoldIgnored)) && !s.faults.On(fault.GiftNeverReconciles) {
		o.Status = "SUCCESS"
		if !s.set.DebitsAtPurchase() {
			st.NGN -= o.CostNGN
		}
	}
	if s.faults.On(fault.GiftVerifyChargesAgain) {
		st.NGN -= o.CostNGN
	}
	out := o.JSON()
	st.Mu.Unlock()
	if s.faults.On(fault.GiftVerifyEnveloped) {
		rc.EnvelopeA(http.StatusOK, out)
		return
	}
	rc.JSON(http.StatusOK, out)
}

// giftCost is the NGN charge of a purchase: the quote's total (its subtotal
// without the fee under the fault gift-cost-differs-from-quote).
func giftCost(q giftQuote, subtotalOnly bool) int64 {
	if subtotalOnly {
		return int64(q.SubtotalNgn)
	}
	return int64(q.TotalNgn)
}

// Lookup is GET /gift-cards/transactions/{reference}: the order as
// it stands, without reconciliation.
func (s *Endpoints) Lookup(rc *answer.Req) {
	st := rc.St
	st.Mu.RLock()
	o := s.set.FindGiftOrder(st, rc.ID)
	var out state.GiftOrderJSON
	if o != nil {
		out = o.JSON()
	}
	st.Mu.RUnlock()
	if o == nil {
		rc.GiftNotFound(rc.ID)
		return
	}
	rc.EnvelopeA(http.StatusOK, out)
}
