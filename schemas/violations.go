package schemas

import (
	"encoding/json"
	"sort"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

var printer = message.NewPrinter(language.English)

// violations flattens the library's error tree into one Violation per failed
// keyword (one per missing property for "required"), sorted and deduplicated.
func violations(root *jsonschema.ValidationError, inst any) []Violation {
	var out []Violation
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) > 0 {
			for _, c := range e.Causes {
				walk(c)
			}
			return
		}
		out = append(out, leaf(e, inst)...)
	}
	walk(root)

	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Pointer != b.Pointer {
			return a.Pointer < b.Pointer
		}
		if a.Rule != b.Rule {
			return a.Rule < b.Rule
		}
		return a.Message < b.Message
	})
	dedup := out[:0]
	for i, v := range out {
		if i > 0 && v.Pointer == out[i-1].Pointer && v.Rule == out[i-1].Rule && v.Message == out[i-1].Message {
			continue
		}
		dedup = append(dedup, v)
	}
	return dedup
}

// leaf turns one failed keyword into violations.
func leaf(e *jsonschema.ValidationError, inst any) []Violation {
	loc := e.InstanceLocation
	rule := strings.Join(e.ErrorKind.KeywordPath(), "/")
	if _, ok := e.ErrorKind.(*kind.Not); ok && rule == "" {
		rule = "not" // the library names no keyword path for it
	}
	schemaLoc := strings.TrimPrefix(e.SchemaURL, BaseURI)
	if !strings.Contains(schemaLoc, "#") {
		schemaLoc += "#"
	}
	if rule != "" {
		schemaLoc += "/" + rule
	}

	if req, ok := e.ErrorKind.(*kind.Required); ok {
		vs := make([]Violation, 0, len(req.Missing))
		for _, m := range req.Missing {
			vs = append(vs, Violation{
				Pointer:  pointer(append(loc[:len(loc):len(loc)], m)),
				Rule:     rule,
				Message:  "required property is missing",
				Location: schemaLoc,
			})
		}
		return vs
	}

	parent, key := "", ""
	if n := len(loc); n > 0 {
		key = loc[n-1]
		if n > 1 {
			parent = loc[n-2]
		}
	}
	val, found := lookup(inst, loc)
	v := Violation{
		Pointer:  pointer(loc),
		Rule:     rule,
		Message:  messageFor(e.ErrorKind, val, parent, key),
		Location: schemaLoc,
	}
	if found {
		v.Value = renderValue(val, parent, key)
	}
	return []Violation{v}
}

// messageFor describes a failed keyword without repeating the value (the
// value is in Violation.Value, masked); anything left is masked too.
func messageFor(k jsonschema.ErrorKind, val any, parent, key string) string {
	var msg string
	switch k := k.(type) {
	case *kind.Type:
		msg = "wrong type: got " + k.Got + ", want " + strings.Join(k.Want, " or ")
	case *kind.Const:
		msg = "must be " + jsonText(k.Want)
	case *kind.Enum:
		want := make([]string, len(k.Want))
		for i, w := range k.Want {
			want[i] = jsonText(w)
		}
		msg = "must be one of " + strings.Join(want, ", ")
	case *kind.Pattern:
		msg = "does not match pattern " + k.Want
	case *kind.Format:
		msg = "is not a valid " + k.Want
		if k.Err != nil && strings.HasPrefix(k.Want, "iso8601") {
			_, why, _ := strings.Cut(k.Err.Error(), ": ")
			msg += ": " + why // which part of ISO 8601 it misses
		}
	default:
		msg = k.LocalizedString(printer)
		if s, ok := val.(string); ok && s != "" && isSensitive(parent, key) {
			msg = strings.ReplaceAll(msg, s, mask)
		}
	}
	return maskText(msg)
}

func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return "?"
	}
	return string(b)
}

// pointer renders RFC 6901 JSON pointer tokens.
func pointer(tokens []string) string {
	var b strings.Builder
	for _, t := range tokens {
		b.WriteByte('/')
		t = strings.ReplaceAll(t, "~", "~0")
		b.WriteString(strings.ReplaceAll(t, "/", "~1"))
	}
	return b.String()
}

// lookup returns the instance value at the given (unescaped) tokens.
func lookup(v any, tokens []string) (any, bool) {
	for _, t := range tokens {
		switch x := v.(type) {
		case map[string]any:
			e, ok := x[t]
			if !ok {
				return nil, false
			}
			v = e
		case []any:
			i, err := strconv.Atoi(t)
			if err != nil || i < 0 || i >= len(x) {
				return nil, false
			}
			v = x[i]
		default:
			return nil, false
		}
	}
	return v, true
}

// Resolve resolves a JSON pointer (RFC 6901) in a decoded document.
func Resolve(doc any, pointer string) (any, bool) {
	if pointer == "" {
		return doc, true
	}
	toks := strings.Split(strings.TrimPrefix(pointer, "/"), "/")
	for i, t := range toks {
		toks[i] = strings.ReplaceAll(strings.ReplaceAll(t, "~1", "/"), "~0", "~")
	}
	return lookup(doc, toks)
}
