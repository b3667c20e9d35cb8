package fault

import (
	"bytes"
	"encoding/json"
	"math/big"
	"strings"
)

// The hooks of the cross-cutting faults that need no server state: the
// module and route a path belongs to, and the body faults (handlers that
// read their body without checking it first).

// Module names the module of a path below the base: "gift" for the
// gift card and betting routes, "card" for the others.
func Module(rest string) string {
	if strings.HasPrefix(rest, "/gift-cards/") || strings.HasPrefix(rest, "/betting/") {
		return "gift"
	}
	return "card"
}

// Route names the route of method and rest, its card id as {id}.
func Route(method, rest string) string {
	segs := strings.Split(strings.Trim(rest, "/"), "/")
	if len(segs) >= 2 && segs[0] == "cards" && segs[1] != "customers" && segs[1] != "config" {
		segs[1] = "{id}"
	}
	return method + " /" + strings.Join(segs, "/")
}

// bodyRequired are the members each route's handler reads first, by
// route ("METHOD /cards/{id}/withdraw").
var bodyRequired = map[string][]string{
	"POST /auth/token":                  {"merchantId", "secretKey"},
	"POST /gift-cards/purchase":         {"amount", "recipientEmail", "recipientName"},
	"POST /cards/customers":             {"firstName", "lastName", "email", "phoneNumber"},
	"POST /cards":                       {"customerId", "nameOnCard", "amount"},
	"POST /cards/{id}/withdraw":         {"amount"},
	"PUT /cards/{id}/spend-limits":      nil,
	"PATCH /cards/{id}/status":          {"status"},
	"PATCH /cards/{id}/contact":         nil,
	"POST /cards/{id}/simulate-webhook": {"event_type"},
}

// bodyFaults are the faults of BendBody.
var bodyFaults = Mask(BodyUnchecked500TokenPurchase, BodyUnchecked500Cards, BodyNotObject500, BodyWrongType500,
	BodyContentTypeUnchecked, AmountOverflow500, GiftAmountSignIgnored)

// ReadsBody reports whether a body fault is on and reads the body of the
// request method to rest (its path below the base) before its handler.
func (f Set) ReadsBody(method, rest string) bool {
	_, takes := bodyRequired[Route(method, rest)]
	return takes && f.AnyOf(bodyFaults)
}

// BendBody is the hook of the body faults, before authentication, on a
// request whose body a fault reads (ReadsBody): for its raw body, it
// returns the crash message of a handler the body makes fail ("": none),
// the body to hand on (bent as a fault says) and whether the request is to
// be labelled JSON whatever its Content-Type.
func (f Set) BendBody(method, rest string, raw []byte) (crash string, body []byte, relabel bool) {
	route := Route(method, rest)
	required := bodyRequired[route]
	trimmed := bytes.TrimSpace(raw)
	var v any
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	dec.UseNumber()
	decErr := dec.Decode(&v)
	obj, isObj := v.(map[string]any)
	module := route == "POST /auth/token" || route == "POST /gift-cards/purchase"
	unchecked := (module && f.On(BodyUnchecked500TokenPurchase)) || (!module && f.On(BodyUnchecked500Cards))
	switch {
	case unchecked && (len(trimmed) == 0 || string(trimmed) == "null" || (isObj && missingAny(obj, required))):
		return "Cannot read properties of undefined", raw, false
	case f.On(BodyNotObject500) && decErr == nil && v != nil && !isObj:
		return "body.entries is not a function", raw, false
	case f.On(BodyWrongType500) && isObj && hasComposite(obj):
		return "value.trim is not a function", raw, false
	case f.On(AmountOverflow500) && isObj && hasHugeNumber(obj):
		return "integer overflow", raw, false
	}
	if f.On(GiftAmountSignIgnored) && route == "POST /gift-cards/purchase" && isObj {
		if n, ok := obj["amount"].(json.Number); ok && strings.HasPrefix(n.String(), "-") {
			obj["amount"] = json.Number(strings.TrimPrefix(n.String(), "-"))
			raw, _ = json.Marshal(obj)
		}
	}
	return "", raw, f.On(BodyContentTypeUnchecked) && len(trimmed) > 0
}

func missingAny(obj map[string]any, names []string) bool {
	for _, n := range names {
		if v, ok := obj[n]; !ok || v == nil {
			return true
		}
	}
	return false
}

func hasComposite(obj map[string]any) bool {
	for _, v := range obj {
		switch v.(type) {
		case map[string]any, []any:
			return true
		}
	}
	return false
}

// hasHugeNumber reports a number member of magnitude 1e15 or more.
func hasHugeNumber(obj map[string]any) bool {
	limit := big.NewFloat(1e15)
	for _, v := range obj {
		n, ok := v.(json.Number)
		if !ok {
			continue
		}
		f, _, err := big.ParseFloat(n.String(), 10, 64, big.ToNearestEven)
		if err != nil || new(big.Float).Abs(f).Cmp(limit) >= 0 {
			return true
		}
	}
	return false
}
