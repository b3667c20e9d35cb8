package sandbox

import (
	"fmt"
	"net/http"
	"strings"
	"time"
)

// Faults of the area "One card and secure details" (the registry: faults.go).

var (
	fRefLookupBroken = declareFault("One card and secure details", "card-reference-lookup-broken", "Cards can be addressed by id only: a card's reference in the path gives 404.",
		"GET-02")
	fSecureRevealsFrozen = declareFault("One card and secure details", "card-secure-reveals-frozen", "GET /cards/{id}/secure reveals credentials of a FROZEN card.",
		"SECURE-01")
	fSecureExpMismatch = declareFault("One card and secure details", "secure-expiration-date-mismatch", "Secure details' expirationDate is MM/YY of the issuance year, disagreeing with expiryYear.",
		"SECURE-09")
)

// secureMemberFaults each corrupt one member of the secure details answer
// (GET /cards/{id}/secure), so that the suites' rule for it alone fails.
var secureMemberFaults = []struct {
	name, desc, req string
	mutate          func(d map[string]any)
}{
	{"secure-card-id-wrong", "Secure details name another card in cardId.", "SECURE-02",
		func(d map[string]any) { d["cardId"] = "crd_0000000000000000" }},
	{"secure-masked-pan-other-digits", "Secure details' maskedPan shows other last 4 digits than the card's.", "SECURE-03",
		func(d map[string]any) { d["maskedPan"] = otherLast4(d["maskedPan"]) }},
	{"secure-card-number-ungrouped", "Secure details' cardNumber is 16 digits without the spaces grouping them in fours.", "SECURE-04",
		func(d map[string]any) { d["cardNumber"] = ungrouped(d["cardNumber"]) }},
	{"secure-pan-ungrouped", "Secure details' pan is not in the form of cardNumber (no spaces).", "SECURE-05",
		func(d map[string]any) { d["pan"] = ungrouped(d["pan"]) }},
	{"secure-cvv-number", "Secure details' cvv is a number instead of a string.", "SECURE-06",
		func(d map[string]any) { d["cvv"] = 0 }},
	{"secure-expiry-month-number", "Secure details' expiryMonth is a number instead of a 2-digit string.", "SECURE-07",
		func(d map[string]any) { d["expiryMonth"] = 3 }},
	{"secure-expiry-year-two-digits", "Secure details' expiryYear has 2 digits instead of 4.", "SECURE-08",
		func(d map[string]any) {
			if y, ok := d["expiryYear"].(string); ok && len(y) == 4 {
				d["expiryYear"] = y[2:]
			}
		}},
	{"secure-billing-address-missing", "Secure details carry no billingAddress.", "SECURE-10",
		func(d map[string]any) { delete(d, "billingAddress") }},
}

var _ = func() bool {
	for _, f := range secureMemberFaults {
		mutate := f.mutate
		declareMemberFault("One card and secure details", f.name, f.desc, http.MethodGet, pathEnds("/cards/", "/secure"),
			func(top map[string]any) {
				if d := dataMember(top); d != nil {
					mutate(d)
				}
			}, f.req)
	}
	return true
}()

// otherLast4 changes the last 4 digits of a masked PAN.
func otherLast4(v any) any {
	s, ok := v.(string)
	if !ok || len(s) < 4 {
		return v
	}
	last := []byte(s[len(s)-4:])
	for i, c := range last {
		if c >= '0' && c <= '9' {
			last[i] = '0' + (c-'0'+1)%10
		}
	}
	return s[:len(s)-4] + string(last)
}

func ungrouped(v any) any {
	if s, ok := v.(string); ok {
		return strings.ReplaceAll(s, " ", "")
	}
	return v
}

// cardMemberFaults each corrupt one member of every card answered, so that
// the suites' rule for that member alone fails.
var cardMemberFaults = []struct {
	name, desc string
	reqs       []string
	mutate     func(c map[string]any)
}{
	{"card-id-prefix-wrong", "Card ids are answered in the form card_... instead of crd_....", []string{"GET-05"},
		func(c map[string]any) {
			if id, ok := c["id"].(string); ok {
				c["id"] = "card_" + strings.TrimPrefix(id, "crd_")
			}
		}},
	{"card-type-physical", "Cards carry cardType PHYSICAL instead of VIRTUAL.", []string{"GET-06", "ISSUE-06"},
		func(c map[string]any) { c["cardType"] = "PHYSICAL" }},
	{"card-currency-ngn", "Cards carry currency NGN instead of USD.", []string{"GET-11", "ISSUE-06"},
		func(c map[string]any) { c["currency"] = "NGN" }},
	{"card-timestamps-local-offset", "Cards' createdAt and updatedAt are given at a +01:00 offset instead of in UTC.", []string{"ENV-06", "GET-17"},
		func(c map[string]any) {
			for _, k := range []string{"createdAt", "updatedAt"} {
				if t, err := time.Parse(time.RFC3339Nano, fmt.Sprint(c[k])); err == nil {
					c[k] = t.In(time.FixedZone("", 3600)).Format("2006-01-02T15:04:05.000-07:00")
				}
			}
		}},
}

var _ = func() bool {
	for _, f := range cardMemberFaults {
		declareCardFault("One card and secure details", f.name, f.desc, f.mutate, f.reqs...)
	}
	return true
}()
