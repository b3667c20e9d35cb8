package requirements_test

import (
	"flag"
	"os"
	"regexp"
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

var fixProposed = flag.Bool("fix-proposed", false, "move proposed keys the profile now has to profile: in open.yaml")

// A profile key names a key of the profile; a proposed key one it does not
// have yet (move it to profile: once the framework adds it: -fix-proposed
// does); a proposed value (key=value) a key it has.
func TestOpenPointProfileKeys(t *testing.T) {
	keys := profileKeys(t)
	if *fixProposed {
		moveExistingProposed(t, keys)
		return
	}
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

var (
	entryRE    = regexp.MustCompile(`(?m)^- id: `)
	flowListRE = regexp.MustCompile(`(?m)^  (profile|proposed): \[(.*)\]\n`)
)

// moveExistingProposed rewrites open.yaml: every proposed key the profile
// now has moves to the point's profile: list.
func moveExistingProposed(t *testing.T, keys map[string]bool) {
	raw, err := os.ReadFile("open.yaml")
	if err != nil {
		t.Fatal(err)
	}
	src := string(raw)
	starts := entryRE.FindAllStringIndex(src, -1)
	var b strings.Builder
	b.WriteString(src[:starts[0][0]])
	for i, st := range starts {
		end := len(src)
		if i+1 < len(starts) {
			end = starts[i+1][0]
		}
		b.WriteString(moveInEntry(src[st[0]:end], keys))
	}
	if err := os.WriteFile("open.yaml", []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

func moveInEntry(e string, keys map[string]bool) string {
	lists := map[string][]string{}
	for _, m := range flowListRE.FindAllStringSubmatch(e, -1) {
		for _, k := range strings.Split(m[2], ",") {
			if k = strings.TrimSpace(k); k != "" {
				lists[m[1]] = append(lists[m[1]], k)
			}
		}
	}
	var stay []string
	moved := false
	for _, k := range lists["proposed"] {
		if !strings.Contains(k, "=") && keys[k] {
			if !slices.Contains(lists["profile"], k) {
				lists["profile"] = append(lists["profile"], k)
			}
			moved = true
			continue
		}
		stay = append(stay, k)
	}
	if !moved {
		return e
	}
	e = flowListRE.ReplaceAllString(e, "")
	line := func(name string, ks []string) string {
		if len(ks) == 0 {
			return ""
		}
		return "  " + name + ": [" + strings.Join(ks, ", ") + "]\n"
	}
	at := strings.Index(e, "  dimension: ")
	return e[:at] + line("profile", lists["profile"]) + line("proposed", stay) + e[at:]
}
