package schemas

import (
	"encoding/json"
	"io/fs"
	"net/url"
	"os"
	"path"
	"sort"
	"strings"
	"testing"
)

// embedded returns every embedded schema file, decoded.
func embedded(t *testing.T) map[string]map[string]any {
	t.Helper()
	entries, err := fs.ReadDir(files, ".")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]map[string]any{}
	for _, e := range entries {
		raw, err := files.ReadFile(e.Name())
		if err != nil {
			t.Fatal(err)
		}
		var doc map[string]any
		if err := json.Unmarshal(raw, &doc); err != nil {
			t.Fatalf("%s: %v", e.Name(), err)
		}
		out[e.Name()] = doc
	}
	return out
}

// Every *.json file on disk is embedded (nothing silently left out).
func TestEveryFileEmbedded(t *testing.T) {
	docs := embedded(t)
	disk, err := fs.Glob(os.DirFS("."), "*.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(disk) != len(docs) {
		t.Fatalf("%d json files on disk, %d embedded", len(disk), len(docs))
	}
}

// Every embedded file compiles, and compiles alone (a fresh compiler per
// file would fail on an unresolvable $ref: remote loading is refused).
func TestEveryFileCompiles(t *testing.T) {
	st := compileAll()
	if st.err != nil {
		t.Fatal(st.err)
	}
	for name := range embedded(t) {
		if st.schemas[name] == nil {
			t.Errorf("%s not compiled", name)
		}
	}
}

// Header of every file: draft 2020-12, $id = BaseURI + file name, and the
// additionalProperties policy stated in a top-level $comment.
func TestFileHeaders(t *testing.T) {
	for name, doc := range embedded(t) {
		if doc["$schema"] != "https://json-schema.org/draft/2020-12/schema" {
			t.Errorf("%s: $schema = %v", name, doc["$schema"])
		}
		if doc["$id"] != BaseURI+name {
			t.Errorf("%s: $id = %v", name, doc["$id"])
		}
		c, _ := doc["$comment"].(string)
		if !strings.Contains(c, "additionalProperties") || !strings.Contains(c, "ALLOWED") {
			t.Errorf("%s: top-level $comment does not state the additionalProperties policy", name)
		}
		if _, ok := doc["title"].(string); !ok {
			t.Errorf("%s: no title", name)
		}
	}
}

// Every $ref names an embedded file and, with a fragment, an existing node.
func TestEveryRefResolves(t *testing.T) {
	docs := embedded(t)
	n := 0
	for name, doc := range docs {
		walk(doc, "", func(ptr string, m map[string]any) {
			ref, ok := m["$ref"].(string)
			if !ok {
				return
			}
			n++
			u, err := url.Parse(ref)
			if err != nil {
				t.Errorf("%s%s: bad $ref %q", name, ptr, ref)
				return
			}
			target := name
			if u.Path != "" {
				target = path.Clean(u.Path)
			}
			tdoc, ok := docs[target]
			if !ok {
				t.Errorf("%s%s: $ref %q: no embedded file %s", name, ptr, ref, target)
				return
			}
			if u.Fragment != "" && resolve(tdoc, u.Fragment) == nil {
				t.Errorf("%s%s: $ref %q: fragment does not resolve", name, ptr, ref)
			}
		})
	}
	if n < 20 {
		t.Errorf("only %d $refs found; the walk is broken", n)
	}
}

// Every name in "required" is declared in the sibling "properties" or in
// those of the schema the object $refs (catches typos that would make a
// field impossible to satisfy or unchecked).
func TestRequiredAreDeclared(t *testing.T) {
	docs := embedded(t)
	for name, doc := range docs {
		walkSchema(doc, "", func(ptr string, m map[string]any) {
			req, ok := m["required"].([]any)
			if !ok {
				return
			}
			props, _ := m["properties"].(map[string]any)
			if ref, ok := m["$ref"].(string); ok {
				target, _, _ := strings.Cut(ref, "#")
				refProps, _ := docs[target]["properties"].(map[string]any)
				props = mergeProps(props, refProps)
			}
			for _, r := range req {
				if _, ok := props[r.(string)]; !ok {
					t.Errorf("%s%s: required %q not in properties", name, ptr, r)
				}
			}
		})
	}
}

func mergeProps(a, b map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}

// No schema forbids unknown fields: the document never does.
func TestNoClosedObjects(t *testing.T) {
	for name, doc := range embedded(t) {
		walk(doc, "", func(ptr string, m map[string]any) {
			for _, k := range []string{"additionalProperties", "unevaluatedProperties"} {
				if _, ok := m[k]; ok {
					t.Errorf("%s%s: %s set; unknown fields must be allowed", name, ptr, k)
				}
			}
		})
	}
}

func walk(v any, ptr string, f func(string, map[string]any)) {
	switch x := v.(type) {
	case map[string]any:
		f(ptr, x)
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			walk(x[k], ptr+"/"+k, f)
		}
	case []any:
		for _, e := range x {
			walk(e, ptr, f)
		}
	}
}

func resolve(doc any, frag string) any {
	cur := doc
	for _, tok := range strings.Split(strings.TrimPrefix(frag, "/"), "/") {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = m[strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")]
	}
	return cur
}
