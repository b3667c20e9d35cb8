package schemas

import (
	"fmt"
	"sort"
	"strings"
)

// walkSchema calls f on every schema object reachable through the
// structural keywords; the insides of conditions and alternatives (if, not,
// anyOf, oneOf, contains, propertyNames) are not assertions and are skipped.
func walkSchema(v any, ptr string, f func(string, map[string]any)) {
	m, ok := v.(map[string]any)
	if !ok {
		return
	}
	f(ptr, m)
	for _, k := range sortedKeys(m) {
		sub := ptr + "/" + escapePtr(k)
		switch k {
		case "properties", "$defs", "patternProperties", "dependentSchemas":
			named, _ := m[k].(map[string]any)
			for _, name := range sortedKeys(named) {
				walkSchema(named[name], sub+"/"+escapePtr(name), f)
			}
		case "items", "then", "else", "additionalProperties", "unevaluatedProperties":
			walkSchema(m[k], sub, f)
		case "allOf", "prefixItems":
			list, _ := m[k].([]any)
			for i, e := range list {
				walkSchema(e, fmt.Sprintf("%s/%d", sub, i), f)
			}
		}
	}
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func escapePtr(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}
