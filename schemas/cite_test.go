package schemas_test

import (
	"encoding/json"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/merchant-harness/mph/api"
	"github.com/merchant-harness/mph/requirements"
	"github.com/merchant-harness/mph/schemas"
)

// Every constraint of every schema cites the document's words: a
// requirement, an open point or a profile key, each of which exists.
func TestEveryConstraintIsCited(t *testing.T) {
	cs, err := schemas.Constraints()
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) < 150 {
		t.Fatalf("only %d constraints found: the walk is broken", len(cs))
	}
	known := citable(t)
	for _, c := range cs {
		if len(c.Cites) == 0 {
			t.Errorf("%s: no citation (add x-cite: the requirement, OPEN- point or profile: key whose words require it)", c)
		}
		for _, id := range c.Cites {
			if !known(id) {
				t.Errorf("%s: cites %q, which is no requirement, open point or profile key", c, id)
			}
		}
	}
}

// citable reports whether id names a requirement, an open point, or a
// profile key the profile has or an open point proposes.
func citable(t *testing.T) func(string) bool {
	t.Helper()
	var prof map[string]any
	if err := yaml.Unmarshal(api.DefaultProfileYAML(), &prof); err != nil {
		t.Fatal(err)
	}
	proposed := map[string]bool{}
	for _, o := range requirements.OpenPoints() {
		for _, k := range o.Proposed {
			proposed[k] = true
		}
	}
	return func(id string) bool {
		if key, ok := strings.CutPrefix(id, schemas.ProfileCitePrefix); ok {
			return proposed[key] || hasKey(prof, key)
		}
		if strings.HasPrefix(id, "OPEN-") {
			_, ok := requirements.LookupOpen(id)
			return ok
		}
		_, ok := requirements.Lookup(id)
		return ok
	}
}

func hasKey(m map[string]any, dotted string) bool {
	var cur any = m
	for _, k := range strings.Split(dotted, ".") {
		mm, ok := cur.(map[string]any)
		if !ok {
			return false
		}
		if cur, ok = mm[k]; !ok {
			return false
		}
	}
	return true
}

// The walker sees what it must: constraints outside conditions, one per
// required member, and citations by object, keyword or member.
func TestConstraintsIn(t *testing.T) {
	doc := decode(t, `{
		"type": "object", "required": ["a", "b"],
		"x-cite": {"type": "GET-01", "required": {"a": "GET-05"}},
		"properties": {
			"a": {"type": "string", "pattern": "^x", "x-cite": ["GET-05", "OPEN-CARD-ID-FORM"]},
			"b": {"type": "integer", "minimum": 1}
		},
		"allOf": [{"if": {"required": ["a"], "properties": {"a": {"const": "x"}}}, "x-cite": "GET-12",
		           "then": {"required": ["b"]}}],
		"$defs": {"d": {"anyOf": [{"type": "string"}, {"type": "null"}], "x-cite": "GET-09"}}
	}`)
	cs, err := schemas.ConstraintsIn("t.json", doc)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, c := range cs {
		got[c.String()] = strings.Join(c.Cites, ",")
	}
	want := map[string]string{
		"t.json# type":                    "GET-01",
		"t.json# required a":              "GET-05",
		"t.json# required b":              "",
		"t.json#/properties/a type":       "GET-05,OPEN-CARD-ID-FORM",
		"t.json#/properties/a pattern":    "GET-05,OPEN-CARD-ID-FORM",
		"t.json#/properties/b type":       "",
		"t.json#/properties/b minimum":    "",
		"t.json#/allOf/0 if":              "GET-12",
		"t.json#/allOf/0/then required b": "",
		"t.json#/$defs/d anyOf":           "GET-09",
	}
	if len(got) != len(want) {
		t.Errorf("constraints:\n got  %v\n want %v", got, want)
	}
	for k, v := range want {
		if g, ok := got[k]; !ok || g != v {
			t.Errorf("%s: cites %q (found %v), want %q", k, g, ok, v)
		}
	}
}

// A citation that names what the object does not assert, or that is not a
// string or a list of strings, is an error: stale citations do not linger.
func TestConstraintsInRejectsStaleCitations(t *testing.T) {
	for _, src := range []string{
		`{"type": "string", "x-cite": {"type": "GET-05", "pattern": "GET-05"}}`,
		`{"type": "object", "required": ["a"], "x-cite": {"required": {"b": "GET-05"}}, "properties": {"a": {}}}`,
		`{"$ref": "card.json", "x-cite": "GET-05"}`,
		`{"type": "string", "x-cite": 5}`,
		`{"type": "string", "x-cite": ["GET-05", 5]}`,
	} {
		if _, err := schemas.ConstraintsIn("t.json", decode(t, src)); err == nil {
			t.Errorf("accepted %s", src)
		}
	}
}

func decode(t *testing.T, src string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(src), &v); err != nil {
		t.Fatal(err)
	}
	return v
}
