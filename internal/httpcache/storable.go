// Package httpcache reads what an answer's Cache-Control lets a shared cache
// do, as RFC 9111 states it.
package httpcache

import "strings"

// SharedStorable reports whether a shared cache may store the answer to a
// request carrying Authorization, from the answer's Cache-Control field
// values (RFC 9111 §3 and §3.5), and the directive that allows it. It may
// when a directive explicitly allows shared caching of such an answer —
// public, s-maxage or must-revalidate (§3.5) — and neither no-store nor an
// unqualified private forbids storing it (§3; a qualified private only
// keeps the named fields out). Absent or empty, the answer is not storable.
func SharedStorable(values []string) (bool, string) {
	var allow string
	for _, d := range Directives(values) {
		switch d.Name {
		case "no-store":
			return false, ""
		case "private":
			if d.Value == "" {
				return false, ""
			}
		case "public", "s-maxage", "must-revalidate":
			if allow == "" {
				allow = d.Name
			}
		}
	}
	return allow != "", allow
}

// Directive is one Cache-Control directive: its name, lower case, and its
// argument unquoted ("" when it has none).
type Directive struct{ Name, Value string }

// Directives parses Cache-Control field values (a comma-separated list;
// commas inside a quoted argument belong to it).
func Directives(values []string) []Directive {
	var out []Directive
	for _, v := range values {
		for _, item := range splitList(v) {
			name, arg, _ := strings.Cut(item, "=")
			name = strings.ToLower(strings.TrimSpace(name))
			if name == "" {
				continue
			}
			arg = strings.TrimSpace(arg)
			if len(arg) >= 2 && arg[0] == '"' && arg[len(arg)-1] == '"' {
				arg = strings.ReplaceAll(arg[1:len(arg)-1], `\`, "")
			}
			out = append(out, Directive{Name: name, Value: arg})
		}
	}
	return out
}

// splitList splits a field value at commas outside quoted strings.
func splitList(v string) []string {
	var out []string
	quoted, escaped, start := false, false, 0
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case escaped:
			escaped = false
		case c == '\\' && quoted:
			escaped = true
		case c == '"':
			quoted = !quoted
		case c == ',' && !quoted:
			out = append(out, v[start:i])
			start = i + 1
		}
	}
	return append(out, v[start:])
}
