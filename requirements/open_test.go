package requirements_test

import (
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/merchant-harness/mph/api"
	"github.com/merchant-harness/mph/requirements"
)

func TestOpenPointsLoadAndAreValid(t *testing.T) {
	points := requirements.OpenPoints()
	if err := requirements.ValidateOpen(points); err != nil {
		t.Fatal(err)
	}
	if len(points) < 100 {
		t.Errorf("%d open points; the document leaves far more open", len(points))
	}
	kinds := map[string]int{}
	for _, o := range points {
		kinds[o.Kind]++
	}
	for _, k := range requirements.Kinds() {
		if kinds[k] == 0 {
			t.Errorf("kind %s has no open point", k)
		}
	}
}

// profileKeys lists every dotted key of the default profile (sections too).
func profileKeys(t *testing.T) map[string]bool {
	t.Helper()
	var doc map[string]any
	if err := yaml.Unmarshal(api.DefaultProfileYAML(), &doc); err != nil {
		t.Fatal(err)
	}
	keys := map[string]bool{}
	var walk func(prefix string, m map[string]any)
	walk = func(prefix string, m map[string]any) {
		for k, v := range m {
			key := strings.TrimPrefix(prefix+"."+k, ".")
			keys[key] = true
			if sub, ok := v.(map[string]any); ok {
				walk(key, sub)
			}
		}
	}
	walk("", doc)
	return keys
}

// A profile key names a key of the profile; a proposed key one it does not
// have yet (move it to profile: once the framework adds it); a proposed
// value (key=value) a key it has.
func TestOpenPointProfileKeys(t *testing.T) {
	keys := profileKeys(t)
	for _, o := range requirements.OpenPoints() {
		for _, k := range o.Profile {
			if !keys[k] {
				t.Errorf("%s: profile key %s is not in api/profile.default.yaml (proposed?)", o.ID, k)
			}
		}
		for _, k := range o.Proposed {
			key, _, value := strings.Cut(k, "=")
			switch {
			case value && !keys[key]:
				t.Errorf("%s: proposed value %s for a key the profile does not have", o.ID, k)
			case !value && keys[key]:
				t.Errorf("%s: proposed key %s now exists in the profile: move it to profile:", o.ID, k)
			}
		}
	}
}

func TestValidateOpenRejectsBadPoints(t *testing.T) {
	good := requirements.OpenPoint{ID: "OPEN-X", Kind: "format", Quote: []string{"| cvv | string |"},
		Reading: "r", Dimension: requirements.Names{"cvv-form"}, Settings: []string{"a", "b"}, Affects: []string{"SECURE-06"}}
	if err := requirements.ValidateOpen([]requirements.OpenPoint{good}); err != nil {
		t.Fatalf("a good point is refused: %v", err)
	}
	mutations := map[string]func(*requirements.OpenPoint){
		"id":            func(o *requirements.OpenPoint) { o.ID = "open-x" },
		"kind":          func(o *requirements.OpenPoint) { o.Kind = "style" },
		"no quote":      func(o *requirements.OpenPoint) { o.Quote = nil },
		"foreign quote": func(o *requirements.OpenPoint) { o.Quote = []string{"| cvv | number |"} },
		"no reading":    func(o *requirements.OpenPoint) { o.Reading = " " },
		"no dimension":  func(o *requirements.OpenPoint) { o.Dimension = nil },
		"bad dimension": func(o *requirements.OpenPoint) { o.Dimension = requirements.Names{"cvv-form", "Cvv"} },
		"none among dims": func(o *requirements.OpenPoint) {
			o.Dimension = requirements.Names{"cvv-form", requirements.NoDimension}
		},
		"one setting": func(o *requirements.OpenPoint) { o.Settings = []string{"a"} },
		"none without why": func(o *requirements.OpenPoint) {
			o.Dimension = requirements.Names{requirements.NoDimension}
			o.Settings = nil
		},
		"why with a dim":  func(o *requirements.OpenPoint) { o.Why = "w" },
		"bad profile key": func(o *requirements.OpenPoint) { o.Profile = []string{"Strict.x"} },
		"unknown affects": func(o *requirements.OpenPoint) { o.Affects = []string{"NOPE-01"} },
	}
	for name, mutate := range mutations {
		o := good
		o.Quote, o.Settings, o.Affects, o.Dimension = slices.Clone(good.Quote), slices.Clone(good.Settings), slices.Clone(good.Affects), slices.Clone(good.Dimension)
		mutate(&o)
		if requirements.ValidateOpen([]requirements.OpenPoint{o}) == nil {
			t.Errorf("%s: accepted %+v", name, o)
		}
	}
	if requirements.ValidateOpen([]requirements.OpenPoint{good, good}) == nil {
		t.Error("a duplicate id is accepted")
	}
}

func TestLookupOpen(t *testing.T) {
	o, ok := requirements.LookupOpen("OPEN-TIMESTAMP-FORM")
	if !ok || len(o.Dimension) == 0 || len(o.Quote) == 0 {
		t.Fatalf("LookupOpen(OPEN-TIMESTAMP-FORM) = %+v, %v", o, ok)
	}
	o.Quote[0] = "changed"
	if again, _ := requirements.LookupOpen("OPEN-TIMESTAMP-FORM"); again.Quote[0] == "changed" {
		t.Error("LookupOpen hands out the catalogue's own slice")
	}
	if _, ok := requirements.LookupOpen("OPEN-NOPE"); ok {
		t.Error("an unknown id is found")
	}
}

func TestDimensionIsOneNameOrAList(t *testing.T) {
	var doc struct {
		A requirements.Names `yaml:"a"`
		B requirements.Names `yaml:"b"`
	}
	if err := yaml.Unmarshal([]byte("a: one\nb: [one, two]\n"), &doc); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(doc.A, []string{"one"}) || !slices.Equal(doc.B, []string{"one", "two"}) {
		t.Errorf("got %v and %v", doc.A, doc.B)
	}
	if !(requirements.Names{requirements.NoDimension}).None() || (requirements.Names{"x"}).None() {
		t.Error("None is wrong")
	}
}
