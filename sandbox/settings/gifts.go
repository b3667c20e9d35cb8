package settings

import (
	"strings"
	"time"

	"github.com/merchant-harness/mph/money"
	"github.com/merchant-harness/mph/sandbox/ids"
	"github.com/merchant-harness/mph/sandbox/state"
	"github.com/merchant-harness/mph/sandbox/validate"
	"github.com/merchant-harness/mph/sandbox/variant"
)

// ReconcileWaits reports whether verify leaves a PROCESSING order as it is
// this time (the reconciliation settings).
func (s *Settings) ReconcileWaits(o *state.GiftOrder, now time.Time) bool {
	v := &s.v
	switch {
	case v.On(variant.GiftTwoStep):
		return o.VerifyCalls == 1
	case v.On(variant.GiftThirdCall):
		return o.VerifyCalls < 3
	case v.On(variant.GiftAfterSeconds):
		t, err := time.Parse(time.RFC3339Nano, o.CreatedAt)
		return err == nil && now.Sub(t) < 3*time.Second
	}
	return false
}

// FindGiftOrder resolves verify's and lookup's reference; the caller holds
// st's lock.
func (s *Settings) FindGiftOrder(st *state.EnvState, ref string) *state.GiftOrder {
	if !s.v.On(variant.GiftTxnRefSeparate) {
		return st.FindOrder(ref)
	}
	if o := st.OrderRef[ref]; o != nil {
		return o
	}
	if id, ok := strings.CutPrefix(ref, "TXN-"); ok {
		return st.OrderTxID["GCT_"+id]
	}
	return nil
}

// PurchaseStatus is a new order's status (gift-purchase-success-at-once
// fulfils it at once).
func (s *Settings) PurchaseStatus() string {
	if s.v.On(variant.GiftSuccessAtOnce) {
		return "SUCCESS"
	}
	return "PROCESSING"
}

// VelocityExceeded reports whether merchant st already sold 3 orders to
// recipient name within the hour; the caller holds st's lock.
func (s *Settings) VelocityExceeded(st *state.EnvState, name string, now time.Time) bool {
	if !s.v.On(variant.GiftVelocity) {
		return false
	}
	n := 0
	for _, o := range st.Orders {
		t, err := time.Parse(time.RFC3339Nano, o.CreatedAt)
		if err == nil && now.Sub(t) < time.Hour && strings.EqualFold(o.Recipient.Name, name) {
			n++
		}
	}
	return n >= 3
}

// GiftRate is the NGN exchange rate at now, in kobo per dollar.
func (s *Settings) GiftRate(now time.Time) money.Amount {
	if s.v.On(variant.GiftPriceMoves) {
		return state.ExchangeRate + money.Amount(now.Unix()%5)*10
	}
	return state.ExchangeRate
}

// VoucherCode is a new voucher's code.
func (s *Settings) VoucherCode() string {
	if s.v.On(variant.LookupVoucherCardNumber) {
		return ids.Digits(4) + " " + ids.Digits(4) + " " + ids.Digits(4) + " " + ids.Digits(4)
	}
	return ids.Alnum(4) + "-" + ids.Alnum(4) + "-" + ids.Alnum(4) + "-" + ids.Alnum(4)
}

// DebitsAtPurchase reports whether a purchase debits the NGN balance at once.
func (s *Settings) DebitsAtPurchase() bool { return !s.v.On(variant.GiftDebitOnFulfil) }

// GiftDup is how a purchase reusing an order's reference is answered.
type GiftDup int

const (
	GiftConflict GiftDup = iota // the sandbox's 409
	GiftReplayed                // 200 with the original order
	GiftRefused                 // 422: the reference was used with other parameters
)

// GiftReplay decides a purchase o reusing prev's reference under the
// duplicate settings.
func (s *Settings) GiftReplay(prev, o *state.GiftOrder) GiftDup {
	v := &s.v
	switch {
	case v.On(variant.GiftDupReplay):
		return GiftReplayed
	case v.On(variant.GiftDupCompares):
		if prev.FaceValue == o.FaceValue && prev.ProductCode == o.ProductCode && prev.Recipient == o.Recipient &&
			prev.Phone == o.Phone && prev.Note == o.Note && prev.VariantCode == o.VariantCode {
			return GiftReplayed
		}
		return GiftRefused
	}
	return GiftConflict
}

// undeliverable are domains that take no mail (RFC 2606, RFC 6761, RFC 7505 null MX).
var undeliverable = []string{"example.com", "example.org", "example.net", ".test", ".invalid", ".example", ".localhost"}

// GiftRules adds the purchase business rules' violations to v.
func (s *Settings) GiftRules(v *validate.Fields, face money.Amount, email string) {
	if s.v.On(variant.GiftMax100) && (face < 5_00 || face > 100_00) && face != 0 {
		v.Add("amount must be between 5 and 100")
	}
	if s.v.On(variant.GiftDenominations) && face != 0 {
		switch face {
		case 10_00, 25_00, 50_00, 100_00:
		default:
			v.Add("amount must be one of the following values: 10, 25, 50, 100")
		}
	}
	if s.v.On(variant.GiftRecipientDeliverable) {
		_, domain, _ := strings.Cut(strings.ToLower(email), "@")
		for _, d := range undeliverable {
			if domain == d || (strings.HasPrefix(d, ".") && strings.HasSuffix(domain, d)) || strings.HasSuffix(domain, "."+d) {
				v.Add("recipientEmail must be an address that can receive mail")
				return
			}
		}
	}
}
