package schemas

import (
	"encoding/json"
	"fmt"
	"strings"
)

// CiteKey is the member of a schema object that names the document's words
// for the constraints that object holds. Its value is either a citation,
// applying to every constraint of the object, or an object from keyword to
// citation; under "required" the citation may again be an object from member
// name to citation. A citation is a string or an array of strings, each a
// requirement ID ("GET-05"), an open point ("OPEN-MASKED-PAN-FORM") or a
// profile key ("profile:strict.allCardFields").
//
//	"x-cite": "GET-05"
//	"x-cite": {"required": {"id": "GET-05", "status": "STATUS-01"}, "pattern": ["GET-05", "OPEN-CARD-ID-FORM"]}
const CiteKey = "x-cite"

// ProfileCitePrefix marks a citation of a profile key.
const ProfileCitePrefix = "profile:"

// constraintKeywords are the keywords that assert something of an instance
// and so need a citation. Structural keywords (properties, items, $ref,
// allOf, then, else, $defs) only lead to other schema objects, which carry
// their own.
var constraintKeywords = []string{
	"type", "enum", "const", "format", "pattern",
	"minLength", "maxLength", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
	"minItems", "maxItems", "uniqueItems", "minProperties", "maxProperties",
	"required", "dependentRequired", "additionalProperties", "unevaluatedProperties", "propertyNames",
	"if", "not", "anyOf", "oneOf", "contains",
}

// Constraint is one asserted keyword of one schema object (one per member
// for required).
type Constraint struct {
	File    string   // schema file, e.g. "card.json"
	Pointer string   // JSON pointer of the schema object in the file, e.g. "/properties/id"
	Keyword string   // e.g. "pattern", "required", "if" (with then/else)
	Member  string   // for required: the member required
	Cites   []string // requirement IDs, open points, profile:keys; empty when uncited
}

// String renders the constraint as file#pointer keyword[member].
func (c Constraint) String() string {
	s := c.File + "#" + c.Pointer + " " + c.Keyword
	if c.Member != "" {
		s += " " + c.Member
	}
	return s
}

// Constraints walks every embedded schema file and returns each constraint
// with its citations, in file and pointer order. A malformed x-cite, or one
// naming a keyword or member the object does not assert, is an error.
func Constraints() ([]Constraint, error) {
	var out []Constraint
	var problems []string
	for _, f := range Files() {
		raw, err := Raw(f)
		if err != nil {
			return nil, err
		}
		var doc any
		if err := json.Unmarshal(raw, &doc); err != nil {
			return nil, fmt.Errorf("schemas: %s: %w", f, err)
		}
		cs, err := ConstraintsIn(f, doc)
		if err != nil {
			problems = append(problems, err.Error())
		}
		out = append(out, cs...)
	}
	if len(problems) > 0 {
		return out, fmt.Errorf("schemas: malformed citations:\n  %s", strings.Join(problems, "\n  "))
	}
	return out, nil
}

// ConstraintsIn returns the constraints of one decoded schema document
// (named file in the result) with their citations.
func ConstraintsIn(file string, doc any) ([]Constraint, error) {
	var out []Constraint
	var problems []string
	walkSchema(doc, "", func(ptr string, m map[string]any) {
		cs, err := constraintsOf(file, ptr, m)
		if err != nil {
			problems = append(problems, err.Error())
		}
		out = append(out, cs...)
	})
	if len(problems) > 0 {
		return out, fmt.Errorf("%s", strings.Join(problems, "\n  "))
	}
	return out, nil
}

func constraintsOf(file, ptr string, m map[string]any) ([]Constraint, error) {
	cite, hasCite := m[CiteKey]
	per, _ := cite.(map[string]any)
	var out []Constraint
	var problems []string
	asserted := map[string]bool{}
	for _, k := range constraintKeywords {
		v, ok := m[k]
		if !ok {
			continue
		}
		asserted[k] = true
		var kc any = cite
		if per != nil {
			kc = per[k]
		}
		if k == "required" {
			members, _ := v.([]any)
			for _, mem := range members {
				name, _ := mem.(string)
				mc := kc
				if byMember, ok := kc.(map[string]any); ok {
					mc = byMember[name]
				}
				ids, err := citation(mc)
				if err != nil {
					problems = append(problems, fmt.Sprintf("%s#%s required %s: %v", file, ptr, name, err))
				}
				out = append(out, Constraint{File: file, Pointer: ptr, Keyword: k, Member: name, Cites: ids})
			}
			if byMember, ok := kc.(map[string]any); ok {
				for name := range byMember {
					if !containsString(members, name) {
						problems = append(problems, fmt.Sprintf("%s#%s: x-cite names required member %q the object does not require", file, ptr, name))
					}
				}
			}
			continue
		}
		ids, err := citation(kc)
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s#%s %s: %v", file, ptr, k, err))
		}
		out = append(out, Constraint{File: file, Pointer: ptr, Keyword: k, Cites: ids})
	}
	for k := range per {
		if !asserted[k] {
			problems = append(problems, fmt.Sprintf("%s#%s: x-cite names %q, which the object does not assert", file, ptr, k))
		}
	}
	if hasCite && len(asserted) == 0 {
		problems = append(problems, fmt.Sprintf("%s#%s: x-cite on an object that asserts nothing", file, ptr))
	}
	if len(problems) > 0 {
		return out, fmt.Errorf("%s", strings.Join(problems, "\n  "))
	}
	return out, nil
}

// citation reads one citation: absent (nil), a string or an array of
// strings.
func citation(v any) ([]string, error) {
	switch x := v.(type) {
	case nil:
		return nil, nil
	case string:
		return []string{x}, nil
	case []any:
		out := make([]string, 0, len(x))
		for _, e := range x {
			s, ok := e.(string)
			if !ok {
				return nil, fmt.Errorf("a citation list holds %v, not a string", e)
			}
			out = append(out, s)
		}
		return out, nil
	}
	return nil, fmt.Errorf("a citation is a string or a list of strings, not %v", v)
}

func containsString(list []any, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}
