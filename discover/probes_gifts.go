package discover

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/merchant-harness/mph/api"
	"github.com/merchant-harness/mph/client"
)

// Parameter sets tried for the gift quote, the profile's first; values are
// templates the suites fill ({productCode}, {amount}).
var giftQuoteParams = []map[string]string{
	{"productCode": "{productCode}", "amount": "{amount}"},
	{"productCode": "{productCode}", "faceValue": "{amount}"},
	{"product": "{productCode}", "amount": "{amount}"},
	{"productCode": "{productCode}", "value": "{amount}"},
}

// Parameter sets tried for the betting quote.
var bettingQuoteParams = []map[string]string{
	{"amount": "5000.00", "provider": "BET9JA"},
	{"amount": "5000.00", "bookmaker": "BET9JA"},
	{"amount": "5000.00"},
}

func fill(params map[string]string, product, amount string) url.Values {
	q := url.Values{}
	for k, v := range params {
		v = strings.ReplaceAll(v, "{productCode}", product)
		q.Set(k, strings.ReplaceAll(v, "{amount}", amount))
	}
	return q
}

// quote tries the parameter sets in order and returns the first accepted
// one with its decoded answer.
func (p *prober) quote(ctx context.Context, path string, sets []map[string]string, product, amount string) (map[string]string, any, int, error) {
	for i, set := range sets {
		resp, err := p.api.Get(ctx, path, fill(set, product, amount))
		if err != nil {
			return nil, nil, 0, err
		}
		if resp.Status == http.StatusOK {
			return set, decode(resp), i, nil
		}
	}
	return nil, nil, 0, nil
}

// totalNames are the member names read as a quote's total, in order: the
// document calls it "the total NGN charge against the corporate vault" and
// "the total vault debit".
var totalNames = []string{"total", "charge", "debit", "due", "payable"}

// quoteReading is where a quote answer carries its amounts and how each was
// found ("" pointer: not found).
type quoteReading struct {
	base, fee, total          string
	baseHow, feeHow, totalHow string
}

// quoteMembers reads a quote answer every way it knows: the total, fee and
// remaining amount (subtotal or amount) by name, the amount also by the
// value sent; then a member missing by name as the number the other two
// make (a total equal to subtotal plus fee, a fee equal to total minus
// subtotal, a subtotal equal to total minus fee).
func quoteMembers(doc any, baseNames []string, sent string) quoteReading {
	var q quoteReading
	nums := numberKeys(doc)
	for _, name := range totalNames {
		for _, l := range nums {
			k := strings.ToLower(l.Key)
			if q.total == "" && strings.Contains(k, name) && !strings.Contains(k, "subtotal") {
				q.total, q.totalHow = l.Pointer, "the answer's number named "+l.Key
			}
		}
	}
	for _, l := range nums {
		if q.fee == "" && l.Pointer != q.total && strings.Contains(strings.ToLower(l.Key), "fee") {
			q.fee, q.feeHow = l.Pointer, "the answer's number named "+l.Key
		}
	}
	for _, name := range baseNames {
		for _, l := range nums {
			if q.base == "" && strings.Contains(strings.ToLower(l.Key), name) && l.Pointer != q.total && l.Pointer != q.fee {
				q.base, q.baseHow = l.Pointer, "the answer's number named "+l.Key
			}
		}
	}
	if q.base == "" && sent != "" {
		if ptr, ok := findNumber(doc, sent); ok && ptr != q.total && ptr != q.fee {
			q.base, q.baseHow = ptr, "the number equal to the amount sent"
		}
	}
	q.byArithmetic(doc, nums)
	return q
}

// byArithmetic finds the one member missing by name as the number the two
// others make.
func (q *quoteReading) byArithmetic(doc any, nums []leaf) {
	val := func(p string) string { v, _ := at(doc, p); return fmt.Sprint(v) }
	find := func(want string, skip ...string) string {
		for _, l := range nums {
			if !contains(skip, l.Pointer) && sameDecimal(fmt.Sprint(l.Value), want) {
				return l.Pointer
			}
		}
		return ""
	}
	switch {
	case q.total == "" && q.base != "" && q.fee != "":
		if p := find(decAdd(val(q.base), val(q.fee)), q.base, q.fee); p != "" {
			q.total, q.totalHow = p, "the number equal to "+lastToken(q.base)+" + "+lastToken(q.fee)
		}
	case q.fee == "" && q.base != "" && q.total != "":
		if p := find(decSub(val(q.total), val(q.base)), q.base, q.total); p != "" {
			q.fee, q.feeHow = p, "the number equal to "+lastToken(q.total)+" - "+lastToken(q.base)
		}
	case q.base == "" && q.fee != "" && q.total != "":
		if p := find(decSub(val(q.total), val(q.fee)), q.fee, q.total); p != "" {
			q.base, q.baseHow = p, "the number equal to "+lastToken(q.total)+" - "+lastToken(q.fee)
		}
	}
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

func (p *prober) giftQuote(ctx context.Context) error {
	g := api.DefaultProfile().GiftCards
	set, doc, i, err := p.quote(ctx, "/gift-cards/quote", giftQuoteParams, g.ProductCode, g.FaceValue)
	if err != nil || set == nil {
		p.undetermined("giftCards.quote.params", "no tried parameter set was accepted")
		return err
	}
	p.found("giftCards.quote.params", set, fmt.Sprintf("parameter set %d of %d tried was accepted", i+1, len(giftQuoteParams)), sureOf(i))
	p.quotePointers("giftCards.quote", "subtotalPointer", doc, quoteMembers(doc, []string{"subtotal", "cost", "price"}, ""))
	return nil
}

func (p *prober) bettingQuote(ctx context.Context) error {
	set, doc, i, err := p.quote(ctx, "/betting/quote", bettingQuoteParams, "", "")
	if err != nil || set == nil {
		p.undetermined("betting.quote.params", "no tried parameter set was accepted")
		return err
	}
	p.found("betting.quote.params", set, fmt.Sprintf("parameter set %d of %d tried was accepted", i+1, len(bettingQuoteParams)), sureOf(i))
	p.quotePointers("betting.quote", "amountPointer", doc, quoteMembers(doc, []string{"amount", "deposit"}, set["amount"]))
	return nil
}

// quotePointers records the members found, how, and whether total = base
// + fee; what no reading settled is undetermined.
func (p *prober) quotePointers(prefix, baseKey string, doc any, q quoteReading) {
	for _, m := range []struct{ key, ptr, how string }{
		{baseKey, q.base, q.baseHow}, {"feePointer", q.fee, q.feeHow}, {"totalPointer", q.total, q.totalHow},
	} {
		if m.ptr == "" {
			p.undetermined(prefix+"."+m.key, "no number in the answer by the names tried, nor as the sum or difference of the others")
			continue
		}
		p.found(prefix+"."+m.key, m.ptr, m.how, "medium")
	}
	if q.base == "" || q.fee == "" || q.total == "" {
		p.undetermined(prefix+".totalIsSum", "the answer's amounts were not all found")
		return
	}
	b, _ := at(doc, q.base)
	f, _ := at(doc, q.fee)
	t, _ := at(doc, q.total)
	sum := decAdd(fmt.Sprint(b), fmt.Sprint(f))
	p.found(prefix+".totalIsSum", sameDecimal(sum, fmt.Sprint(t)), fmt.Sprintf("%v + %v vs total %v", b, f, t), "medium")
}

func sureOf(i int) string {
	if i == 0 {
		return "high"
	}
	return "medium"
}

func lastToken(p string) string { return p[strings.LastIndex(p, "/")+1:] }

// giftPurchase buys one gift card of the smallest tried face value and finds
// the order, its reference and transaction id, and the lookup's order.
func (p *prober) giftPurchase(ctx context.Context) error {
	keys := []string{"giftCards.purchase.orderPointer", "giftCards.purchase.referencePointer", "giftCards.purchase.transactionIdPointer", "giftCards.lookupOrderPointer"}
	if p.o.SkipPurchase {
		for _, k := range keys {
			p.undetermined(k, "no gift card was bought (--skip-purchase)")
		}
		return nil
	}
	g := api.DefaultProfile().GiftCards
	ref := p.ref("gift")
	var resp *client.Response
	for _, face := range []string{"5.00", g.FaceValue} {
		body := map[string]any{"amount": json.Number(face), "recipientEmail": ref + "@example.com", "recipientName": "Grace Discovery",
			g.Purchase.Fields["productCode"]: g.ProductCode, g.Purchase.Fields["reference"]: ref}
		var err error
		if resp, err = p.api.Post(ctx, "/gift-cards/purchase", body); err != nil {
			return err
		}
		if resp.Status == http.StatusOK || resp.Status == http.StatusCreated {
			p.note("POST /gift-cards/purchase of face value %s answers HTTP %d on success", face, resp.Status)
			break
		}
	}
	if !ok2xx(resp) {
		for _, k := range keys {
			p.undetermined(k, fmt.Sprintf("the gift card purchase answered HTTP %d", resp.Status))
		}
		return nil
	}
	return p.purchaseAnswer(ctx, decode(resp), ref)
}

func (p *prober) purchaseAnswer(ctx context.Context, doc any, ref string) error {
	refPtr, ok := findString(doc, ref)
	if !ok {
		p.undetermined("giftCards.purchase.referencePointer", "the purchase answer does not carry the reference sent")
		p.undetermined("giftCards.purchase.orderPointer", "the purchase answer does not carry the reference sent")
	} else {
		p.found("giftCards.purchase.referencePointer", refPtr, "where the purchase answer carries the reference sent", "high")
		p.found("giftCards.purchase.orderPointer", parent(refPtr), "the object carrying the reference sent", "high")
	}
	txPtr, tx, ok := findKey(doc, "transactionId")
	if !ok {
		p.undetermined("giftCards.purchase.transactionIdPointer", "no transactionId member in the purchase answer")
		p.undetermined("giftCards.lookupOrderPointer", "no transaction id to look up")
		return nil
	}
	p.found("giftCards.purchase.transactionIdPointer", txPtr, "the documented transactionId member", "high")
	resp, err := p.api.Get(ctx, "/gift-cards/transactions/"+client.Seg(tx), nil)
	if err != nil {
		return err
	}
	ldoc := decode(resp)
	lp, ok := findString(ldoc, tx)
	if resp.Status != http.StatusOK || !ok {
		p.undetermined("giftCards.lookupOrderPointer", fmt.Sprintf("GET /gift-cards/transactions/{id} answered HTTP %d without the transaction id", resp.Status))
		return nil
	}
	p.found("giftCards.lookupOrderPointer", parent(lp), "the object carrying the transaction id in GET /gift-cards/transactions/{id}", "high")
	order, _ := at(ldoc, parent(lp))
	p.lookupVoucher(order)
	return nil
}

// Names tried for the voucher members of the lookup's order (the lookup's
// body is not shown; the verify order has voucher.code, .pin, .instructions).
var voucherNames = map[string][]string{
	"code":         {"code", "voucherCode", "cardNumber"},
	"pin":          {"pin", "redemptionPin", "voucherPin", "pinCode"},
	"instructions": {"instructions", "redemptionInstructions", "voucherInstructions"},
}

// lookupVoucher finds, inside the lookup's order, the voucher members.
func (p *prober) lookupVoucher(order any) {
	out := map[string]string{}
	for _, k := range []string{"code", "instructions", "pin"} {
		ptr, ok := findMember(order, voucherNames[k]...)
		if !ok {
			p.undetermined("giftCards.lookupVoucher", "the lookup's order has no "+k+" member by the names tried")
			return
		}
		out[k] = ptr
	}
	p.found("giftCards.lookupVoucher", out, "the voucher members by name in the lookup's order", "medium")
}
