package framework

// Answers whose shape is not shown (registration, issuance, purchase) are
// read at the profile's pointer; when it does not resolve, the member the
// document names ("the returned customerId", a card's id, "voucher
// details") is looked for anywhere in the answer.

import (
	"encoding/json"
	"sort"
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
