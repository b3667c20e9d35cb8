package sandbox

// Faults of the area "Cross-cutting rules" breaking the payload rules on
// some routes: handlers that read their body without checking it first
// (the registry: sandbox/fault; the hook: crossBody, from crossServe).

import (
	"bytes"
	"encoding/json"
	"io"
	"math/big"
	"net/http"
	"strings"

	"github.com/merchant-harness/mph/sandbox/fault"
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
var crossBodyFaults = fault.Mask(fault.BodyUnchecked500TokenPurchase, fault.BodyUnchecked500Cards, fault.BodyNotObject500, fault.BodyWrongType500,
	fault.BodyContentTypeUnchecked, fault.AmountOverflow500, fault.GiftAmountSignIgnored)

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
	unchecked := (module && s.faults.On(fault.BodyUnchecked500TokenPurchase)) || (!module && s.faults.On(fault.BodyUnchecked500Cards))
	switch {
	case unchecked && (len(trimmed) == 0 || string(trimmed) == "null" || (isObj && missingAny(obj, required))):
		return s.crossFail(rc, "Cannot read properties of undefined")
	case s.faults.On(fault.BodyNotObject500) && decErr == nil && v != nil && !isObj:
		return s.crossFail(rc, "body.entries is not a function")
	case s.faults.On(fault.BodyWrongType500) && isObj && hasComposite(obj):
		return s.crossFail(rc, "value.trim is not a function")
	case s.faults.On(fault.AmountOverflow500) && isObj && hasHugeNumber(obj):
		return s.crossFail(rc, "integer overflow")
	}
	if s.faults.On(fault.GiftAmountSignIgnored) && route == "POST /gift-cards/purchase" && isObj {
		if n, ok := obj["amount"].(json.Number); ok && strings.HasPrefix(n.String(), "-") {
			obj["amount"] = json.Number(strings.TrimPrefix(n.String(), "-"))
			raw, _ = json.Marshal(obj)
		}
	}
	if s.faults.On(fault.BodyContentTypeUnchecked) && len(trimmed) > 0 {
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
