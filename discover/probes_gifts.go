package discover

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"sort"
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

// quoteMembers finds the fee and total members by name and the remaining
// amount member (subtotal or amount) by name or by the value sent.
func quoteMembers(doc any, baseNames []string, sent string) (base, fee, total string) {
	for _, l := range numberKeys(doc) {
		k := strings.ToLower(l.Key)
		switch {
		case total == "" && strings.Contains(k, "total") && !strings.Contains(k, "subtotal"):
			total = l.Pointer
		case fee == "" && strings.Contains(k, "fee"):
			fee = l.Pointer
		}
	}
	for _, name := range baseNames {
		for _, l := range numberKeys(doc) {
			if base == "" && strings.Contains(strings.ToLower(l.Key), name) && l.Pointer != total && l.Pointer != fee {
				base = l.Pointer
			}
		}
	}
	if base == "" && sent != "" {
		base, _ = findNumber(doc, sent)
	}
	return base, fee, total
}

func (p *prober) giftQuote(ctx context.Context) error {
	g := api.DefaultProfile().GiftCards
	set, doc, i, err := p.quote(ctx, "/gift-cards/quote", giftQuoteParams, g.ProductCode, g.FaceValue)
	if err != nil || set == nil {
		p.undetermined("giftCards.quote.params", "no tried parameter set was accepted")
		return err
	}
	p.found("giftCards.quote.params", set, fmt.Sprintf("parameter set %d of %d tried was accepted", i+1, len(giftQuoteParams)), sureOf(i))
	base, fee, total := quoteMembers(doc, []string{"subtotal", "cost", "price"}, "")
	p.quotePointers("giftCards.quote", doc, map[string]string{"subtotalPointer": base, "feePointer": fee, "totalPointer": total}, base, fee, total)
	return nil
}

func (p *prober) bettingQuote(ctx context.Context) error {
	set, doc, i, err := p.quote(ctx, "/betting/quote", bettingQuoteParams, "", "")
	if err != nil || set == nil {
		p.undetermined("betting.quote.params", "no tried parameter set was accepted")
		return err
	}
	p.found("betting.quote.params", set, fmt.Sprintf("parameter set %d of %d tried was accepted", i+1, len(bettingQuoteParams)), sureOf(i))
	base, fee, total := quoteMembers(doc, []string{"amount", "deposit"}, set["amount"])
	p.quotePointers("betting.quote", doc, map[string]string{"amountPointer": base, "feePointer": fee, "totalPointer": total}, base, fee, total)
	return nil
}

// quotePointers records the members found and whether total = base + fee.
func (p *prober) quotePointers(prefix string, doc any, ptrs map[string]string, base, fee, total string) {
	keys := make([]string, 0, len(ptrs))
	for k := range ptrs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if ptrs[k] == "" {
			p.undetermined(prefix+"."+k, "no matching number in the answer")
			continue
		}
		p.found(prefix+"."+k, ptrs[k], "the answer's number named "+lastToken(ptrs[k]), "medium")
	}
	if base == "" || fee == "" || total == "" {
		return
	}
	b, _ := at(doc, base)
	f, _ := at(doc, fee)
	t, _ := at(doc, total)
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
