package sandbox

import (
	"strings"
	"time"

	"github.com/merchant-harness/mph/money"
	"github.com/merchant-harness/mph/sandbox/ids"
	"github.com/merchant-harness/mph/sandbox/state"
	"github.com/merchant-harness/mph/sandbox/validate"
	"github.com/merchant-harness/mph/sandbox/variant"
)

// reconcileWaits reports whether verify leaves a PROCESSING order as it is
// this time (the reconciliation settings).
func (s *Server) reconcileWaits(o *state.GiftOrder, now time.Time) bool {
	v := &s.variants
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

// findGiftOrder resolves verify's and lookup's reference; the caller holds
// st's lock.
func (s *Server) findGiftOrder(st *state.EnvState, ref string) *state.GiftOrder {
	if !s.variants.On(variant.GiftTxnRefSeparate) {
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

// purchaseStatus is a new order's status (gift-purchase-success-at-once
// fulfils it at once).
func (s *Server) purchaseStatus() string {
	if s.variants.On(variant.GiftSuccessAtOnce) {
		return "SUCCESS"
	}
	return "PROCESSING"
}

// velocityExceeded reports whether merchant st already sold 3 orders to
// recipient name within the hour; the caller holds st's lock.
func (s *Server) velocityExceeded(st *state.EnvState, name string, now time.Time) bool {
	if !s.variants.On(variant.GiftVelocity) {
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

// giftRate is the NGN exchange rate at now, in kobo per dollar.
func (s *Server) giftRate(now time.Time) money.Amount {
	if s.variants.On(variant.GiftPriceMoves) {
		return exchangeRate + money.Amount(now.Unix()%5)*10
	}
	return exchangeRate
}

// voucherCode is a new voucher's code.
func (s *Server) voucherCode() string {
	if s.variants.On(variant.LookupVoucherCardNumber) {
		return ids.Digits(4) + " " + ids.Digits(4) + " " + ids.Digits(4) + " " + ids.Digits(4)
	}
	return ids.Alnum(4) + "-" + ids.Alnum(4) + "-" + ids.Alnum(4) + "-" + ids.Alnum(4)
}

// debitsAtPurchase reports whether a purchase debits the NGN balance at once.
func (s *Server) debitsAtPurchase() bool { return !s.variants.On(variant.GiftDebitOnFulfil) }

// giftDup is how a purchase reusing an order's reference is answered.
type giftDup int

const (
	giftConflict giftDup = iota // the sandbox's 409
	giftReplayed                // 200 with the original order
	giftRefused                 // 422: the reference was used with other parameters
)

// giftReplay decides a purchase o reusing prev's reference under the
// duplicate settings.
func (s *Server) giftReplay(prev, o *state.GiftOrder) giftDup {
	v := &s.variants
	switch {
	case v.On(variant.GiftDupReplay):
		return giftReplayed
	case v.On(variant.GiftDupCompares):
		if prev.FaceValue == o.FaceValue && prev.ProductCode == o.ProductCode && prev.Recipient == o.Recipient &&
			prev.Phone == o.Phone && prev.Note == o.Note && prev.VariantCode == o.VariantCode {
			return giftReplayed
		}
		return giftRefused
	}
	return giftConflict
}

// undeliverable are domains that take no mail (RFC 2606, RFC 6761, RFC 7505 null MX).
var undeliverable = []string{"example.com", "example.org", "example.net", ".test", ".invalid", ".example", ".localhost"}

// giftRules adds the purchase business rules' violations to v.
func (s *Server) giftRules(v *validate.Fields, face money.Amount, email string) {
	if s.variants.On(variant.GiftMax100) && (face < 5_00 || face > 100_00) && face != 0 {
		v.Add("amount must be between 5 and 100")
	}
	if s.variants.On(variant.GiftDenominations) && face != 0 {
		switch face {
		case 10_00, 25_00, 50_00, 100_00:
		default:
			v.Add("amount must be one of the following values: 10, 25, 50, 100")
		}
	}
	if s.variants.On(variant.GiftRecipientDeliverable) {
		_, domain, _ := strings.Cut(strings.ToLower(email), "@")
		for _, d := range undeliverable {
			if domain == d || (strings.HasPrefix(d, ".") && strings.HasSuffix(domain, d)) || strings.HasSuffix(domain, "."+d) {
				v.Add("recipientEmail must be an address that can receive mail")
				return
			}
		}
	}
}
