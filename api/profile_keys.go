package api

import (
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"
)

// checkKeys refuses a profile overlay naming a key the profile does not have
// (a misspelt key would otherwise be ignored, and the rule it was meant to
// set would keep its default), naming the nearest valid key. The keys of a
// map are those of the defaults, except maps marked profile:"open" (body
// members and query parameters the target needs, free by nature).
func checkKeys(overlay []byte, defaults *Profile) error {
	var doc yaml.Node
	if err := yaml.Unmarshal(overlay, &doc); err != nil {
		return err
	}
	if len(doc.Content) == 0 {
		return nil
	}
	return walkKeys(doc.Content[0], reflect.ValueOf(defaults).Elem(), "")
}

func walkKeys(n *yaml.Node, v reflect.Value, path string) error {
	if n.Kind != yaml.MappingNode {
		return nil // a scalar or list where a section is expected: the decoder says so
	}
	valid := keysOf(v)
	if valid == nil {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i].Value
		child, ok := valid[k]
		if !ok {
			names := make([]string, 0, len(valid))
			for name := range valid {
				names = append(names, join(path, name))
			}
			return fmt.Errorf("line %d: unknown profile key %q%s", n.Content[i].Line, join(path, k), nearest(join(path, k), names))
		}
		if child.IsValid() {
			if err := walkKeys(n.Content[i+1], child, join(path, k)); err != nil {
				return err
			}
		}
	}
	return nil
}

// keysOf lists the keys a section accepts, each with the value below it (the
// zero Value where the key is a leaf or an open map); nil accepts any key.
func keysOf(v reflect.Value) map[string]reflect.Value {
	switch v.Kind() {
	case reflect.Struct:
		out := map[string]reflect.Value{}
		t := v.Type()
		for i := 0; i < t.NumField(); i++ {
			name, opts, _ := strings.Cut(t.Field(i).Tag.Get("yaml"), ",")
			if opts == "inline" {
				for k, c := range keysOf(v.Field(i)) {
					out[k] = c
				}
				continue
			}
			if name == "" || name == "-" {
				continue
			}
			if t.Field(i).Tag.Get("profile") == "open" {
				out[name] = reflect.Value{}
				continue
			}
			out[name] = v.Field(i)
		}
		return out
	case reflect.Map:
		out := map[string]reflect.Value{}
		for _, k := range v.MapKeys() {
			out[fmt.Sprint(k.Interface())] = reflect.Value{}
		}
		return out
	}
	return nil
}

// KnownKey reports whether path (dotted, e.g. "cards.listMaxLimit" or
// "customers.fields.dateOfBirth") names a key of the profile.
func KnownKey(path string) bool {
	return slices.Contains(allKeys(), path)
}

// allKeys lists every key path of the default profile, sections included.
func allKeys() []string {
	var out []string
	var walk func(v reflect.Value, path string)
	walk = func(v reflect.Value, path string) {
		for k, child := range keysOf(v) {
			p := join(path, k)
			out = append(out, p)
			if child.IsValid() {
				walk(child, p)
			}
		}
	}
	walk(reflect.ValueOf(DefaultProfile()).Elem(), "")
	sort.Strings(out)
	return out
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// nearest suggests the valid key closest to the one given (by edit distance,
// case-insensitive), or lists the valid keys when none is close.
func nearest(got string, valid []string) string {
	sort.Strings(valid)
	best, bestD := "", -1
	for _, v := range valid {
		if d := distance(strings.ToLower(got), strings.ToLower(v)); bestD < 0 || d < bestD {
			best, bestD = v, d
		}
	}
	if best != "" && bestD <= max(2, len(got)/3) {
		return fmt.Sprintf(": did you mean %q?", best)
	}
	return fmt.Sprintf(" (valid here: %s)", strings.Join(valid, ", "))
}

// distance is the Levenshtein distance of a and b.
func distance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}
