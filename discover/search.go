package discover

import (
	"encoding/json"
	"math/big"
	"sort"
	"strconv"
	"strings"

	"github.com/merchant-harness/mph/schemas"
)

// Searching decoded answers (numbers as json.Number) for where a target puts
// what the document does not show: by a documented member name, or by the
// value the request sent.

// leaf is one member of a decoded document with its JSON pointer.
type leaf struct {
	Pointer string
	Key     string // the member name ("" for array elements)
	Value   any
}

// walk lists every node of doc, shallowest first (a stable order, so that the
// first match is the least nested).
func walk(doc any) []leaf {
	var out []leaf
	var rec func(p, key string, v any)
	rec = func(p, key string, v any) {
		out = append(out, leaf{p, key, v})
		switch t := v.(type) {
		case map[string]any:
			keys := make([]string, 0, len(t))
			for k := range t {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				rec(p+"/"+escape(k), k, t[k])
			}
		case []any:
			for i, x := range t {
				rec(p+"/"+strconv.Itoa(i), "", x)
			}
		}
	}
	rec("", "", doc)
	sort.SliceStable(out, func(i, j int) bool { return depth(out[i].Pointer) < depth(out[j].Pointer) })
	return out
}

func depth(p string) int { return strings.Count(p, "/") }

func escape(k string) string { return strings.ReplaceAll(strings.ReplaceAll(k, "~", "~0"), "/", "~1") }

// findKey returns the pointer of the shallowest member named one of names
// (in the order given) whose value is a non-empty string.
func findKey(doc any, names ...string) (string, string, bool) {
	all := walk(doc)
	for _, n := range names {
		for _, l := range all {
			if s, ok := l.Value.(string); ok && s != "" && strings.EqualFold(l.Key, n) {
				return l.Pointer, s, true
			}
		}
	}
	return "", "", false
}

// findMember returns the pointer of the shallowest member named one of
// names (in the order given), whatever its value (a locked voucher PIN may be
// empty or null).
func findMember(doc any, names ...string) (string, bool) {
	all := walk(doc)
	for _, n := range names {
		for _, l := range all {
			if l.Key != "" && strings.EqualFold(l.Key, n) {
				if _, isObj := l.Value.(map[string]any); !isObj {
					return l.Pointer, true
				}
			}
		}
	}
	return "", false
}

// findString returns the pointer of the shallowest string equal to want.
func findString(doc any, want string) (string, bool) {
	for _, l := range walk(doc) {
		if s, ok := l.Value.(string); ok && s == want {
			return l.Pointer, true
		}
	}
	return "", false
}

// findNumber returns the pointer of the shallowest number equal to want
// (compared exactly as decimals) whose member name is not in skip.
func findNumber(doc any, want string) (string, bool) {
	for _, l := range walk(doc) {
		if n, ok := l.Value.(json.Number); ok && sameDecimal(n.String(), want) {
			return l.Pointer, true
		}
	}
	return "", false
}

// findObject returns the pointer of the shallowest object having every member in has.
func findObject(doc any, has ...string) (string, map[string]any, bool) {
	for _, l := range walk(doc) {
		m, ok := l.Value.(map[string]any)
		if !ok {
			continue
		}
		all := true
		for _, k := range has {
			if _, ok := m[k]; !ok {
				all = false
				break
			}
		}
		if all {
			return l.Pointer, m, true
		}
	}
	return "", nil, false
}

// findArrayWith returns the pointer of the shallowest array holding an object
// with a string member equal to want, and that member's name.
func findArrayWith(doc any, want string) (string, string, bool) {
	for _, l := range walk(doc) {
		arr, ok := l.Value.([]any)
		if !ok {
			continue
		}
		for _, x := range arr {
			m, ok := x.(map[string]any)
			if !ok {
				continue
			}
			keys := make([]string, 0, len(m))
			for k := range m {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				if s, ok := m[k].(string); ok && s == want {
					return l.Pointer, k, true
				}
			}
		}
	}
	return "", "", false
}

// numberKeys lists the numeric members of doc with their pointers.
func numberKeys(doc any) []leaf {
	var out []leaf
	for _, l := range walk(doc) {
		if _, ok := l.Value.(json.Number); ok && l.Key != "" {
			out = append(out, l)
		}
	}
	return out
}

// at resolves a JSON pointer.
func at(doc any, pointer string) (any, bool) { return schemas.Resolve(doc, pointer) }

// parent is the pointer of the object holding the member at p.
func parent(p string) string {
	if i := strings.LastIndex(p, "/"); i >= 0 {
		return p[:i]
	}
	return ""
}

// sameDecimal compares two decimal strings exactly.
func sameDecimal(a, b string) bool {
	if schemas.NumberReadable(a) != "" || schemas.NumberReadable(b) != "" {
		return a == b // beyond what the harness computes with: compared as written
	}
	x, ok1 := new(big.Rat).SetString(a)
	y, ok2 := new(big.Rat).SetString(b)
	return ok1 && ok2 && x.Cmp(y) == 0
}
