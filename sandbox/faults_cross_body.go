package sandbox

// Faults of the area "Cross-cutting rules" breaking the payload rules on
// some routes: handlers that read their body without checking it first
// (the registry: faults.go; the hook: crossBody, from crossServe).

import (
	"bytes"
	"encoding/json"
	"io"
	"math/big"
	"net/http"
	"strings"
)

var (
	fBodyUnchecked500TokenPurchase = declareFault(crossArea, "body-unchecked-500-token-purchase", "POST /auth/token and POST /gift-cards/purchase fail with 500 on a null or empty body or one missing a required member (the handler reads the member before checking it).",
		"ERR-22", "ERR-07", "AUTH-08")
	fBodyUnchecked500Cards = declareFault(crossArea, "body-unchecked-500-card-module", "The card module's writes (registration, issuance, withdraw, spend limits, status, contact, simulation) fail with 500 on a null or empty body or one missing a required member.",
		"ERR-22", "ERR-07")
	fBodyNotObject500 = declareFault(crossArea, "body-not-object-500", "A JSON body that is not an object (an array, a string) makes every handler fail with 500.",
		"ERR-22")
	fBodyWrongType500 = declareFault(crossArea, "body-wrong-type-500", "A body member given as a JSON object or array where a string or number is documented makes the handler fail with 500.",
		"ERR-22")
	fBodyContentTypeUnchecked = declareFault(crossArea, "body-content-type-unchecked", "Bodies are read as JSON whatever their Content-Type (text/plain included).",
		"ERR-22")
	fAmountOverflow500 = declareFault(crossArea, "amount-overflow-500", "An amount or limit too large for the ledger's integer minor units (1e400, 1e29) makes the handler fail with 500.",
		"ERR-22")
	fGiftAmountSignIgnored = declareFault(crossArea, "gift-amount-sign-ignored", "A gift card purchase takes the absolute value of its amount: -25.00 buys a 25.00 card.",
		"ERR-22")
)

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

// crossRoute names the route of method and rest, its card id as {id}.
func crossRoute(method, rest string) string {
	segs := strings.Split(strings.Trim(rest, "/"), "/")
	if len(segs) >= 2 && segs[0] == "cards" && segs[1] != "customers" && segs[1] != "config" {
		segs[1] = "{id}"
	}
	return method + " /" + strings.Join(segs, "/")
}

// crossBodyFaults are the faults of crossBody.
var crossBodyFaults = faultMask(fBodyUnchecked500TokenPurchase, fBodyUnchecked500Cards, fBodyNotObject500, fBodyWrongType500,
	fBodyContentTypeUnchecked, fAmountOverflow500, fGiftAmountSignIgnored)

// crossBody answers a body a body fault makes the handler fail on (500),
// or bends the request as the fault says; true when it answered.
func (s *Server) crossBody(rc *reqCtx, rest string) bool {
	route := crossRoute(rc.r.Method, rest)
	required, takesBody := bodyRequired[route]
	if !takesBody {
		return false
	}
	raw, err := io.ReadAll(io.LimitReader(rc.r.Body, maxBody+1))
	if err != nil {
		return false
	}
	trimmed := bytes.TrimSpace(raw)
	var v any
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	dec.UseNumber()
	decErr := dec.Decode(&v)
	obj, isObj := v.(map[string]any)
	module := route == "POST /auth/token" || route == "POST /gift-cards/purchase"
	unchecked := (module && s.faults.on(fBodyUnchecked500TokenPurchase)) || (!module && s.faults.on(fBodyUnchecked500Cards))
	switch {
	case unchecked && (len(trimmed) == 0 || string(trimmed) == "null" || (isObj && missingAny(obj, required))):
		return s.crossFail(rc, "Cannot read properties of undefined")
	case s.faults.on(fBodyNotObject500) && decErr == nil && v != nil && !isObj:
		return s.crossFail(rc, "body.entries is not a function")
	case s.faults.on(fBodyWrongType500) && isObj && hasComposite(obj):
		return s.crossFail(rc, "value.trim is not a function")
	case s.faults.on(fAmountOverflow500) && isObj && hasHugeNumber(obj):
		return s.crossFail(rc, "integer overflow")
	}
	if s.faults.on(fGiftAmountSignIgnored) && route == "POST /gift-cards/purchase" && isObj {
		if n, ok := obj["amount"].(json.Number); ok && strings.HasPrefix(n.String(), "-") {
			obj["amount"] = json.Number(strings.TrimPrefix(n.String(), "-"))
			raw, _ = json.Marshal(obj)
		}
	}
	if s.faults.on(fBodyContentTypeUnchecked) && len(trimmed) > 0 {
		rc.r.Header.Set("Content-Type", "application/json")
	}
	rc.r.Body = io.NopCloser(bytes.NewReader(raw))
	return false
}

// crossFail answers 500 as a crashing handler would.
func (s *Server) crossFail(rc *reqCtx, msg string) bool {
	s.writeError(rc, http.StatusInternalServerError, "Internal server error: "+msg)
	return true
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
