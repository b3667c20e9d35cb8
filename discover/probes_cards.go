package discover

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"net/http"
	"strings"

	"github.com/merchant-harness/mph/api"
	"github.com/merchant-harness/mph/client"
	"github.com/merchant-harness/mph/schemas"
)

const mismatchMerchant = "mer_discovery_mismatch"

func decode(resp *client.Response) any {
	var v any
	_ = resp.JSON(&v)
	return v
}

func ok2xx(resp *client.Response) bool { return resp.Status >= 200 && resp.Status <= 299 }

func is4xx(resp *client.Response) bool { return resp.Status >= 400 && resp.Status <= 499 }

// config reads GET /cards/config's data.
func (p *prober) config(ctx context.Context) (map[string]any, error) {
	resp, err := p.api.Get(ctx, "/cards/config", nil)
	if err != nil {
		return nil, err
	}
	if resp.Status != http.StatusOK {
		return nil, fmt.Errorf("GET /cards/config answered HTTP %d", resp.Status)
	}
	d, _ := resp.Map()["data"].(map[string]any)
	if d == nil {
		return nil, errors.New("GET /cards/config answered no data object")
	}
	return d, nil
}

func num(d map[string]any, k string) string {
	if n, ok := d[k].(json.Number); ok {
		return n.String()
	}
	return ""
}

func (p *prober) readFees(ctx context.Context) error {
	d, err := p.config(ctx)
	if err != nil {
		return err
	}
	p.fees = fees{num(d, "creationFee"), num(d, "fundFee"), num(d, "withdrawalFee"), num(d, "minFunding")}
	p.note("fees from GET /cards/config: creationFee %s, fundFee %s, withdrawalFee %s, minFunding %s", p.fees.creation, p.fees.fund, p.fees.withdrawal, p.fees.minFunding)
	return nil
}

// merchantHeader finds where a mismatching X-Merchant-Id is refused.
func (p *prober) merchantHeader(ctx context.Context) error {
	body := client.TokenBody{MerchantID: p.cfg.Primary.MerchantID, SecretKey: p.cfg.Primary.SecretKey}
	tok, err := p.anon.WithHeader("X-Merchant-Id", mismatchMerchant).Post(ctx, client.TokenPath, body)
	if err != nil {
		return err
	}
	req, err := p.api.WithHeader("X-Merchant-Id", mismatchMerchant).RawAuth().Get(ctx, "/cards/config", nil)
	if err != nil {
		return err
	}
	match, err := p.api.WithHeader("X-Merchant-Id", p.cfg.Primary.MerchantID).Get(ctx, "/cards/config", nil)
	if err != nil {
		return err
	}
	atToken := tok.Status == http.StatusUnauthorized
	atRequests := req.Status == http.StatusUnauthorized && match.Status == http.StatusOK
	mode := map[[2]bool]string{{true, true}: "both", {true, false}: "token", {false, true}: "requests", {false, false}: "none"}[[2]bool{atToken, atRequests}]
	p.found("auth.merchantIdHeader", mode, fmt.Sprintf("a mismatching X-Merchant-Id got HTTP %d at POST /auth/token and HTTP %d at GET /cards/config (a matching one HTTP %d)", tok.Status, req.Status, match.Status), "high")
	return nil
}

// customerValues are the registration values, by logical field.
func customerValues() map[string]string {
	return map[string]string{
		"phoneCountryCode": "+1", "dateOfBirth": "1990-04-12", "idType": "passport",
		"idNumber": "P7D15C0V", "street": "1 Discovery Way", "city": "Probeville",
		"state": "CA", "postalCode": "94105", "country": "USA",
	}
}

// customers registers one customer with the default field names (renamed
// once when the refusal's messages name other candidates) and finds where
// the answer carries its id and where the listing carries it.
func (p *prober) customers(ctx context.Context) error {
	names := api.DefaultProfile().Customers.Fields
	vals := customerValues()
	resp, err := p.register(ctx, names, vals)
	if err != nil {
		return err
	}
	how := "registration with these names"
	if resp.Status == http.StatusBadRequest {
		if alt, changed := renamed(names, messages(resp)); len(changed) > 0 {
			if resp, err = p.register(ctx, alt, vals); err != nil {
				return err
			}
			names, how = alt, "renamed after the refusal's messages ("+strings.Join(changed, ", ")+"); registration"
		}
	}
	if !ok2xx(resp) {
		p.note("POST /cards/customers answered HTTP %d: registration, issuance and card keys stay undetermined", resp.Status)
		p.undetermined("customers.fields", fmt.Sprintf("registration answered HTTP %d", resp.Status))
		return nil
	}
	p.note("POST /cards/customers answers HTTP %d on success", resp.Status)
	p.names = names
	doc := decode(resp)
	p.customerFields(doc, names, vals, how, resp.Status)
	ptr, id, ok := findKey(doc, "customerId", "id")
	if !ok {
		p.undetermined("customers.customerIdPointer", "no customerId or id member in the registration answer")
		return nil
	}
	p.customer = id
	sure := "high"
	if !strings.HasSuffix(ptr, "/customerId") {
		sure = "medium"
	}
	p.found("customers.customerIdPointer", ptr, "the registration answer's "+ptr, sure)
	return p.customerList(ctx)
}

func (p *prober) register(ctx context.Context, names, vals map[string]string) (*client.Response, error) {
	ref := p.ref("cus")
	body := map[string]any{"firstName": "Ada", "lastName": "Discovery", "email": ref + "@example.com", "phoneNumber": "5550100"}
	for logical, wire := range names {
		body[wire] = vals[logical]
	}
	return p.api.Post(ctx, "/cards/customers", body)
}

// customerFields confirms the registration names the answer echoes.
func (p *prober) customerFields(doc any, names map[string]string, vals map[string]string, how string, status int) {
	echoed, total := 0, 0
	out := map[string]string{}
	for logical, wire := range names {
		out[logical] = wire
		total++
		if ptr, ok := findString(doc, vals[logical]); ok && strings.HasSuffix(ptr, "/"+wire) {
			echoed++
		}
	}
	sure := "medium"
	if echoed == total {
		sure = "high"
	}
	p.found("customers.fields", out, fmt.Sprintf("%s answered HTTP %d; %d of %d values echoed under the same names", how, status, echoed, total), sure)
}

func (p *prober) customerList(ctx context.Context) error {
	resp, err := p.api.Get(ctx, "/cards/customers", nil)
	if err != nil {
		return err
	}
	ptr, field, ok := findArrayWith(decode(resp), p.customer)
	if resp.Status != http.StatusOK || !ok {
		p.undetermined("customers.listPointer", fmt.Sprintf("GET /cards/customers (HTTP %d) lists no object carrying the new customer's id", resp.Status))
		p.undetermined("customers.listIdField", "see customers.listPointer")
		return nil
	}
	p.found("customers.listPointer", ptr, "the array in GET /cards/customers holding the new customer", "high")
	p.found("customers.listIdField", field, "the member of that entry equal to the new customer's id", "high")
	return nil
}

// issuance issues one card of 2.00 USD and reads the answer's shape.
func (p *prober) issuance(ctx context.Context) error {
	if p.customer == "" {
		p.undetermined("issuance.cardPointer", "no customer could be registered")
		return nil
	}
	ref := p.ref("card")
	body := map[string]any{"customerId": p.customer, "nameOnCard": "Ada Discovery", "amount": json.Number("2.00"), "reference": ref}
	resp, err := p.api.Post(ctx, "/cards", body)
	if err != nil {
		return err
	}
	if !ok2xx(resp) {
		p.note("POST /cards answered HTTP %d: issuance keys stay undetermined", resp.Status)
		p.undetermined("issuance.path", fmt.Sprintf("POST /cards with customerId answered HTTP %d", resp.Status))
		return nil
	}
	p.note("POST /cards answers HTTP %d on success", resp.Status)
	p.found("issuance.path", "/cards", fmt.Sprintf("the path the document refers to; answered HTTP %d", resp.Status), "high")
	p.found("issuance.customerIdField", "customerId", "the documented customerId was accepted", "high")
	doc := decode(resp)
	ptr, card, ok := findObject(doc, "maskedPan", "id")
	if !ok {
		p.undetermined("issuance.cardPointer", "no object with id and maskedPan in the issuance answer")
		return nil
	}
	p.card, _ = card["id"].(string)
	p.found("issuance.cardPointer", ptr, "the object with id and maskedPan in the issuance answer", "high")
	if r, _ := card["reference"].(string); r == ref {
		p.found("issuance.referenceField", "reference", "the card's reference is the one sent as reference", "high")
	} else {
		p.found("issuance.referenceField", "", "the card's reference is not the one sent as reference", "medium")
	}
	p.cardBal = num(card, "balanceAmount")
	p.initialBalance("2.00")
	return nil
}

func (p *prober) initialBalance(amount string) {
	minusFee := decSub(amount, p.fees.fund)
	switch {
	case sameDecimal(p.cardBal, amount) && sameDecimal(amount, minusFee):
		p.found("issuance.initialBalance", "amount", "the new card holds the funding "+amount+" (fundFee is 0: amount-minus-fund-fee would read the same)", "medium")
	case sameDecimal(p.cardBal, amount):
		p.found("issuance.initialBalance", "amount", "the new card holds the funding "+amount, "high")
	case sameDecimal(p.cardBal, minusFee):
		p.found("issuance.initialBalance", "amount-minus-fund-fee", "the new card holds "+p.cardBal+" = funding "+amount+" - fundFee "+p.fees.fund, "high")
	default:
		p.found("issuance.initialBalance", "unchecked", "the new card holds "+p.cardBal+", neither the funding nor funding - fundFee", "medium")
	}
}

// decSub is a - b as a decimal string ("" when either is not a number).
func decSub(a, b string) string {
	if schemas.NumberReadable(a) != "" || schemas.NumberReadable(b) != "" {
		return ""
	}
	x, ok1 := new(big.Rat).SetString(a)
	y, ok2 := new(big.Rat).SetString(b)
	if !ok1 || !ok2 {
		return ""
	}
	return new(big.Rat).Sub(x, y).FloatString(2)
}

func decAdd(a, b string) string {
	x, ok1 := new(big.Rat).SetString(a)
	y, ok2 := new(big.Rat).SetString(b)
	if !ok1 || !ok2 {
		return ""
	}
	return new(big.Rat).Add(x, y).FloatString(2)
}
