package expect

// Answers whose shape is not shown (registration, issuance, purchase) are
// read at the profile's pointer; when it does not resolve, the member the
// document names ("the returned customerId", a card's id, "voucher
// details") is looked for anywhere in the answer.

import (
	"encoding/json"
	"sort"

	"github.com/merchant-harness/mph/suites/framework"
)

// FindMember returns the value of the first member named name in doc,
// breadth first (the shallowest wins; object members in name order, so the
// result does not depend on map order).
func FindMember(doc any, name string) (any, bool) {
	obj, ok := FindObjectWith(doc, name)
	if !ok {
		return nil, false
	}
	return obj[name], true
}

// FindObjectWith returns the shallowest object of doc holding a member
// named name (breadth first, as FindMember).
func FindObjectWith(doc any, name string) (JSON, bool) {
	level := []any{doc}
	for len(level) > 0 {
		var next []any
		for _, v := range level {
			switch x := v.(type) {
			case map[string]any:
				if _, ok := x[name]; ok {
					return x, true
				}
				keys := make([]string, 0, len(x))
				for k := range x {
					keys = append(keys, k)
				}
				sort.Strings(keys)
				for _, k := range keys {
					next = append(next, x[k])
				}
			case []any:
				next = append(next, x...)
			}
		}
		level = next
	}
	return nil, false
}

// AtPointerOrNamed reads doc at pointer; when the pointer is empty or does
// not resolve, the first member named name (the document's name for it).
func AtPointerOrNamed(doc any, pointer, name string) (any, bool) {
	if pointer != "" {
		if v, ok := Ptr(doc, pointer); ok && v != nil {
			return v, true
		}
	}
	if name == "" {
		return nil, false
	}
	return FindMember(doc, name)
}

// IDString renders an identifier the target sent as a string or a number
// ("the returned customerId": its type is not shown); ok is false for
// anything else or an empty string.
func IDString(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, x != ""
	case json.Number:
		return x.String(), true
	}
	return "", false
}

// ListedCustomerIDs reads the customer ids of a customer listing ("Customer
// record returned by registration and listing: not shown"): the
// listIdField of each element of the array at the profile's
// customers.listPointer; when that pointer holds no array, every member
// named as the listIdField or customerId anywhere in the answer. Ids are
// strings or numbers (rendered as IDString does).
func ListedCustomerIDs(doc any) []string {
	c := framework.Profile().Customers
	var out []string
	if v, ok := Ptr(doc, c.ListPointer); ok {
		if list, isList := v.([]any); isList {
			for _, e := range list {
				obj, _ := e.(map[string]any)
				if id, ok := IDString(obj[c.ListIDField]); ok {
					out = append(out, id)
				}
			}
			return out
		}
	}
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, m := range x {
				if k == c.ListIDField || k == "customerId" {
					if id, ok := IDString(m); ok {
						out = append(out, id)
						continue
					}
				}
				walk(m)
			}
		case []any:
			for _, m := range x {
				walk(m)
			}
		}
	}
	walk(doc)
	return out
}

// PurchaseVoucher reads the voucher details of a gift purchase answer
// ("Successful outcome is status 200 with voucher details"; the answer is
// not shown): at giftCards.purchase.voucherPointer, else the first member
// named voucher anywhere; ok is false when there is none (or it is null).
func PurchaseVoucher(doc any) (JSON, bool) {
	v, _ := AtPointerOrNamed(doc, framework.Profile().GiftCards.Purchase.VoucherPointer, "voucher")
	obj, ok := v.(map[string]any)
	return obj, ok && obj != nil
}
