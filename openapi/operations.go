package openapi

import (
	"sort"
	"strings"

	"github.com/merchant-harness/mph/api"
	"github.com/merchant-harness/mph/requirements"
)

// opInfo is what the document says of one operation beyond its answer.
type opInfo struct {
	id, summary string
	reqs        []string // requirement ID prefixes or IDs covering it
	params      func(*api.Profile) []any
	body        func(*api.Profile) obj
	success     []string // success statuses
}

// money is a USD amount, with its documented minimum when it has one.
func money(min float64) obj {
	m := obj{"type": "number"}
	if min > 0 {
		m["minimum"] = min
	}
	return m
}

func str() obj { return obj{"type": "string"} }

func notShown(o obj) obj { o[NotShown] = true; return o }

func objectSchema(props obj, required ...string) obj {
	o := obj{"type": "object", "properties": props}
	if len(required) > 0 {
		o["required"] = required
	}
	return o
}

func idParam(name, desc string) any {
	return obj{"name": name, "in": "path", "required": true, "description": desc, "schema": str()}
}

var cardID = func(*api.Profile) []any {
	return []any{idParam("id", "Card id (crd_...) or its merchant reference.")}
}

// ops maps an endpoint key to what the document says of it. Issuance is
// keyed "POST issuance" because its path comes from the profile.
var ops = map[string]opInfo{
	"POST /auth/token": {id: "getAccessToken", summary: "Obtain access token", reqs: []string{"AUTH"},
		body: func(*api.Profile) obj {
			return objectSchema(obj{"merchantId": str(), "secretKey": str()}, "merchantId", "secretKey")
		}},
	"GET /cards/config":     {id: "getCardConfig", summary: "Fees, minimum funding, vault balance", reqs: []string{"CONFIG"}},
	"POST /cards/customers": {id: "registerCustomer", summary: "Register cardholder customer", reqs: []string{"CUST"}, body: customerBody, success: []string{"200", "201"}},
	"GET /cards/customers":  {id: "listCustomers", summary: "List cardholder customers", reqs: []string{"CUST-07", "ISO-05"}},
	"GET /cards": {id: "listCards", summary: "List cards", reqs: []string{"LIST", "ISO-04"}, params: func(*api.Profile) []any {
		return []any{
			obj{"name": "status", "in": "query", "schema": obj{"type": "string", "enum": []any{"ACTIVE", "FROZEN", "ALL"}}},
			obj{"name": "search", "in": "query", "description": "Cardholder name, reference, or last 4 digits of the PAN.", "schema": str()},
			obj{"name": "limit", "in": "query", "description": "Maximum records returned; default 50.", "schema": obj{"type": "number", "default": 50}},
		}
	}},
	"POST issuance":                     {id: "issueCard", summary: "Issue a card (request and response shape: not shown)", reqs: []string{"ISSUE", "ISO-06"}, body: issuanceBody, success: []string{"200", "201"}},
	"GET /cards/{id}":                   {id: "getCard", summary: "Get one card", reqs: []string{"GET", "ISO-01"}, params: cardID},
	"GET /cards/{id}/secure":            {id: "revealCard", summary: "Reveal full credentials", reqs: []string{"SECURE"}, params: cardID},
	"POST /cards/{id}/withdraw":         {id: "withdraw", summary: "Sweep balance to vault", reqs: []string{"WITHDRAW"}, params: cardID, body: amountBody},
	"PUT /cards/{id}/spend-limits":      {id: "setSpendLimits", summary: "Set spend limits", reqs: []string{"LIMITS", "TXN"}, params: cardID, body: limitsBody},
	"PATCH /cards/{id}/status":          {id: "setCardStatus", summary: "Freeze or unfreeze", reqs: []string{"STATUS"}, params: cardID, body: statusBody},
	"PATCH /cards/{id}/contact":         {id: "updateContact", summary: "Update cardholder contact", reqs: []string{"CONTACT"}, params: cardID, body: contactBody},
	"POST /cards/{id}/simulate-webhook": {id: "simulateWebhook", summary: "Simulate card webhook (TEST only)", reqs: []string{"WEBHOOK"}, params: cardID, body: webhookBody},
	"GET /gift-cards/quote": {id: "quoteGiftCard", summary: "Gift card price quote (parameters and answer: not shown)", reqs: []string{"QUOTE-01", "QUOTE-03", "QUOTE-04"},
		params: func(p *api.Profile) []any { return profileParams(p.GiftCards.Quote.Params) }},
	"POST /gift-cards/purchase": {id: "purchaseGiftCard", summary: "Buy gift card", reqs: []string{"GIFT-01", "GIFT-02", "GIFT-03", "GIFT-04", "GIFT-19"}, body: purchaseBody},
	"GET /gift-cards/verify/{reference}": {id: "verifyGiftOrder", summary: "Verify order, retrieve voucher", reqs: []string{"GIFT-05", "GIFT-06", "GIFT-07", "GIFT-08", "GIFT-09", "GIFT-10", "GIFT-11", "GIFT-12", "GIFT-13", "GIFT-14", "GIFT-15", "GIFT-16", "ISO-03"},
		params: func(*api.Profile) []any {
			return []any{idParam("reference", "Client order reference or internal transaction reference.")}
		}},
	"GET /gift-cards/transactions/{reference}": {id: "lookupGiftTransaction", summary: "Look up order by transaction reference (answer: not shown)", reqs: []string{"GIFT-17", "GIFT-18"},
		params: func(*api.Profile) []any { return []any{idParam("reference", "Transaction reference.")} }},
	"GET /betting/quote": {id: "quoteBettingDeposit", summary: "Betting deposit quote (parameters and answer: not shown)", reqs: []string{"QUOTE-02"},
		params: func(p *api.Profile) []any { return profileParams(p.Betting.Quote.Params) }},
}

func profileParams(m map[string]string) []any {
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	out := []any{}
	for _, n := range names {
		out = append(out, notShown(obj{"name": n, "in": "query", "schema": str(), "description": "name from the target profile"}))
	}
	return out
}

func customerBody(p *api.Profile) obj {
	props := obj{"firstName": str(), "lastName": str(), "email": str(), "phoneNumber": str()}
	extra := map[string]obj{
		"dateOfBirth": {"type": "string", "pattern": `^[0-9]{4}-[0-9]{2}-[0-9]{2}$`, "description": "YYYY-MM-DD"},
		"idType":      {"type": "string", "enum": []any{"national_id", "passport", "drivers_license"}},
		"country":     {"type": "string", "pattern": `^[A-Za-z]{3}$`, "description": "3-letter country code"},
	}
	for key, wire := range p.Customers.Fields {
		s := extra[key]
		if s == nil {
			s = str()
		}
		props[wire] = notShown(s)
	}
	return objectSchema(props, "firstName", "lastName", "email", "phoneNumber")
}

func issuanceBody(p *api.Profile) obj {
	props := obj{
		p.Issuance.CustomerIDField: notShown(str()),
		"nameOnCard":               obj{"type": "string", "minLength": 1},
		"amount":                   money(1),
	}
	req := []string{p.Issuance.CustomerIDField, "nameOnCard", "amount"}
	if f := p.Issuance.ReferenceField; f != "" {
		props[f] = notShown(str())
	}
	for k := range p.Issuance.Extra {
		props[k] = notShown(obj{})
	}
	return objectSchema(props, req...)
}

func amountBody(*api.Profile) obj {
	return objectSchema(obj{"amount": money(0.10)}, "amount")
}

func limitsBody(*api.Profile) obj {
	return objectSchema(obj{"transactionLimit": money(0), "dailyLimit": money(0), "monthlyLimit": money(0), "allTimeLimit": money(0)})
}

func statusBody(*api.Profile) obj {
	return objectSchema(obj{"status": obj{"type": "string", "enum": []any{"ACTIVE", "FROZEN"}}}, "status")
}

func contactBody(*api.Profile) obj {
	return objectSchema(obj{"email": str(), "mobile": obj{"type": "string", "description": "local form, or international form with a leading +"}})
}

func webhookBody(*api.Profile) obj {
	return objectSchema(obj{"event_type": obj{"type": "string", "enum": []any{"authorization", "settlement", "reversal", "decline"}}}, "event_type")
}

func purchaseBody(p *api.Profile) obj {
	props := obj{"amount": obj{"type": "number", "description": "face value"}, "recipientEmail": str(), "recipientName": str()}
	for _, wire := range p.GiftCards.Purchase.Fields {
		props[wire] = notShown(str())
	}
	return objectSchema(props, "amount", "recipientEmail", "recipientName")
}

// reqIDs expands prefixes ("AUTH") and IDs into catalogue IDs.
func reqIDs(specs []string) []string {
	var out []string
	for _, r := range requirements.All() {
		for _, s := range specs {
			if r.ID == s || strings.HasPrefix(r.ID, s+"-") {
				out = append(out, r.ID)
				break
			}
		}
	}
	return out
}

func operation(ep api.Endpoint, p *api.Profile) obj {
	key := ep.Key()
	if ep.Order == "issuance" {
		key = "POST issuance"
	}
	info := ops[key]
	op := obj{
		"operationId":        info.id,
		"summary":            info.summary,
		"tags":               []any{requirements.Area(ep.Requirement)},
		"x-mph-requirements": reqIDs(append([]string{ep.Requirement}, info.reqs...)),
		"responses":          responses(ep, info),
	}
	params := []any{}
	if info.params != nil {
		params = info.params(p)
	}
	if h := merchantHeader(ep, p); h != nil {
		params = append(params, h)
	}
	if len(params) > 0 {
		op["parameters"] = params
	}
	if info.body != nil {
		op["requestBody"] = obj{"required": true, "content": obj{"application/json": obj{"schema": info.body(p)}}}
	}
	if ep.Token() {
		op["security"] = []any{}
	}
	if ep.Order == "issuance" {
		op[NotShown] = true
	}
	return op
}

// merchantHeader is the X-Merchant-Id header where the profile says the
// target checks it (where it is sent: not shown).
func merchantHeader(ep api.Endpoint, p *api.Profile) any {
	w := p.Auth.MerchantIDHeader
	if w == "none" || (w == "token" && !ep.Token()) || (w == "requests" && ep.Token()) {
		return nil
	}
	return notShown(obj{"name": "X-Merchant-Id", "in": "header", "required": false, "schema": str(),
		"description": "Must match the credentials' merchant (Authentication 8)."})
}

func responses(ep api.Endpoint, info opInfo) obj {
	out := obj{}
	success := info.success
	if len(success) == 0 {
		success = []string{"200"}
	}
	for _, st := range success {
		r := obj{"description": "Success.", "content": jsonContent(componentName(ep.Schema))}
		if ep.NotShown {
			r[NotShown] = true
		}
		out[st] = r
	}
	for code := range errorStatuses {
		out[code] = obj{"$ref": "#/components/responses/Error" + code}
	}
	if strings.HasPrefix(ep.Template, "/gift-cards/") && strings.HasSuffix(ep.Template, "/{reference}") {
		out["404"] = obj{"$ref": "#/components/responses/GiftNotFound"}
	}
	out["429"] = obj{"$ref": "#/components/responses/TooManyRequests"}
	return out
}
