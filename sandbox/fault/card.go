package fault

import (
	"fmt"
	"net/http"
	"strings"
	"time"
)

// Faults of the area "One card and secure details" (the registry: fault.go).

var (
	RefLookupBroken = declare("One card and secure details", "card-reference-lookup-broken", "Cards can be addressed by id only: a card's reference in the path gives 404.",
		"GET-02")
	SecureRevealsFrozen = declare("One card and secure details", "card-secure-reveals-frozen", "GET /cards/{id}/secure reveals credentials of a FROZEN card.",
		"SECURE-01")
	SecureExpMismatch = declare("One card and secure details", "secure-expiration-date-mismatch", "Secure details' expirationDate is MM/YY of the issuance year, disagreeing with expiryYear.",
		"SECURE-09")
)

// secureMemberFaults corrupt members of the secure details answer (GET
// /cards/{id}/secure): each member's own rule fails.
var secureMemberFaults = []struct {
	name, desc string
	reqs       []string
	mutate     func(d map[string]any)
}{
	{"secure-identity-wrong", "Secure details name another card in cardId and show other last 4 digits in maskedPan.", []string{"SECURE-02", "SECURE-03"},
		func(d map[string]any) {
			d["cardId"] = "crd_0000000000000000"
			d["maskedPan"] = otherLast4(d["maskedPan"])
		}},
	{"secure-formats-wrong", "Secure details give cardNumber and pan without spaces, cvv and expiryMonth as numbers, a 2-digit expiryYear and no billingAddress.",
		[]string{"SECURE-04", "SECURE-05", "SECURE-06", "SECURE-07", "SECURE-08", "SECURE-10"},
		func(d map[string]any) {
			d["cardNumber"], d["pan"] = ungrouped(d["cardNumber"]), ungrouped(d["pan"])
			d["cvv"], d["expiryMonth"] = 0, 3
			if y, ok := d["expiryYear"].(string); ok && len(y) == 4 {
				d["expiryYear"] = y[2:]
			}
			delete(d, "billingAddress")
		}},
}

var _ = func() bool {
	for _, f := range secureMemberFaults {
		mutate := f.mutate
		declareMember("One card and secure details", f.name, f.desc, http.MethodGet, pathEnds("/cards/", "/secure"),
			func(top map[string]any) {
				if d := dataMember(top); d != nil {
					mutate(d)
				}
			}, f.reqs...)
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

// cardMemberFaults corrupt members of every card answered: each member's
// own rule fails.
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
	{"card-members-wrong", "Cards carry cardType PHYSICAL, currency NGN, and createdAt and updatedAt at a +01:00 offset instead of in UTC.",
		[]string{"GET-06", "GET-11", "ISSUE-06", "ENV-06", "GET-17"},
		func(c map[string]any) {
			c["cardType"], c["currency"] = "PHYSICAL", "NGN"
			for _, k := range []string{"createdAt", "updatedAt"} {
				if t, err := time.Parse(time.RFC3339Nano, fmt.Sprint(c[k])); err == nil {
					c[k] = t.In(time.FixedZone("", 3600)).Format("2006-01-02T15:04:05.000-07:00")
				}
			}
		}},
}

var _ = func() bool {
	for _, f := range cardMemberFaults {
		declareCard("One card and secure details", f.name, f.desc, f.mutate, f.reqs...)
	}
	return true
}()
