package loadtest

import (
	"context"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"testing"
)

func noPrepare(context.Context, *Scenario, ScenarioOptions) (Generator, error) { return nil, nil }

func simpleDef(name, ep, path string) ScenarioDef {
	return ScenarioDef{Name: name, Summary: "s", Setup: "none", Prepare: noPrepare,
		Endpoints: []Endpoint{{Name: ep, Method: "GET", Path: path, Status: 200}}}
}

// A malformed or duplicate declaration is a programming error: Register
// panics at init, naming the scenario.
func TestRegisterRefusesBadDeclarations(t *testing.T) {
	cases := []struct {
		name string
		def  ScenarioDef
		want string
	}{
		{"duplicate name", simpleDef("a", "a2", "/a2"), `"a" registered twice`},
		{"empty name", simpleDef("", "b", "/b"), "want a non-empty word"},
		{"name with a comma", simpleDef("b,c", "b", "/b"), "want a non-empty word"},
		{"no summary", ScenarioDef{Name: "b", Prepare: noPrepare, Endpoints: simpleDef("", "b", "/b").Endpoints}, "no summary"},
		{"no prepare", ScenarioDef{Name: "b", Summary: "s", Endpoints: simpleDef("", "b", "/b").Endpoints}, "needs a Prepare"},
		{"no endpoints", ScenarioDef{Name: "b", Summary: "s", Prepare: noPrepare}, "needs a Prepare"},
		{"composite with a prepare", ScenarioDef{Name: "b", Summary: "s", Parts: []string{"a"}, Prepare: noPrepare}, "a composite has parts"},
		{"endpoint name reused for another path", simpleDef("b", "a", "/other"), `endpoint "a" declared as GET /a and as GET /other`},
		{"endpoint without a method", ScenarioDef{Name: "b", Summary: "s", Prepare: noPrepare, Endpoints: []Endpoint{{Name: "b", Path: "/b", Status: 200}}}, "want a name, a method"},
		{"endpoint without a success status", ScenarioDef{Name: "b", Summary: "s", Prepare: noPrepare, Endpoints: []Endpoint{{Name: "b", Method: "GET", Path: "/b"}}}, "2xx status"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := newRegistry()
			r.register(simpleDef("a", "a", "/a"))
			got := func() (msg string) {
				defer func() { msg = fmt.Sprint(recover()) }()
				r.register(c.def)
				return ""
			}()
			if !strings.Contains(got, c.want) {
				t.Fatalf("register panicked with %q, want %q", got, c.want)
			}
			if len(r.defs) != 1 {
				t.Fatalf("a refused declaration was registered: %v", r.defs)
			}
		})
	}
}

// Two scenarios may declare the same endpoint (a composite's part and a
// scenario of its own); results are classified once.
func TestRegisterSharesAnEndpoint(t *testing.T) {
	r := newRegistry()
	r.register(simpleDef("a", "x", "/x"))
	r.register(simpleDef("b", "x", "/x"))
	if len(r.endpoints) != 1 || r.classify("http://h/v1/x?q=1") != "x" {
		t.Fatalf("endpoints %+v", r.endpoints)
	}
}

// Classification picks the most specific pattern: a literal segment beats a
// {wildcard}, a longer pattern a shorter one.
func TestClassifyMostSpecific(t *testing.T) {
	r := newRegistry()
	r.register(simpleDef("one", "one", "/cards/{id}"))
	r.register(simpleDef("cfg", "cfg", "/cards/config"))
	r.register(simpleDef("lst", "lst", "/cards"))
	r.register(simpleDef("sec", "sec", "/cards/{id}/secure"))
	cases := map[string]string{
		"http://h/v1/cards":               "lst",
		"http://h/v1/cards/config":        "cfg",
		"http://h/v1/cards/crd_1":         "one",
		"http://h/v1/cards/crd_1/secure":  "sec",
		"http://h/v1/cards/crd_1/secure/": "other",
		"http://h/v1/cards/crd_1/status":  "other",
		"http://h/v1/gift-cards/quote":    "other",
		"cards":                           "other",
	}
	for u, want := range cases {
		if got := r.classify(u); got != want {
			t.Errorf("classify(%q) = %q, want %q", u, got, want)
		}
	}
}

// The built-in scenarios: every composite's parts resolve, names are
// sorted, and the CLI's facts (endpoints, probe parts, mix) follow from the
// declarations.
func TestBuiltInScenarios(t *testing.T) {
	names := ScenarioNames()
	if !sort.StringsAreSorted(names) {
		t.Fatalf("names not sorted: %v", names)
	}
	for _, d := range ScenarioDefs() {
		if _, err := d.parts(); d.Composite() && err != nil {
			t.Errorf("%s: %v", d.Name, err)
		}
		if len(d.AllEndpoints()) == 0 || d.Summary == "" || d.Setup == "" {
			t.Errorf("%s: endpoints %v, summary %q, setup %q", d.Name, d.AllEndpoints(), d.Summary, d.Setup)
		}
	}
	mixed, _ := Lookup("mixed")
	secure, _ := Lookup("secure")
	for _, c := range []struct {
		name string
		got  any
		want any
	}{
		{"mixed endpoints", mixed.EndpointNames(nil), []string{"list", "secure", "token"}},
		{"mixed endpoints, secure only", mixed.EndpointNames(map[string]int{"secure": 1, "list": 0}), []string{"secure"}},
		{"secure endpoints", secure.EndpointNames(map[string]int{"list": 1}), []string{"secure"}},
		{"mixed probe parts", mixed.ProbeParts(), []string{"token", "list", "secure"}},
		{"secure probe parts", secure.ProbeParts(), []string{"secure"}},
		{"mixed default mix", mixed.MixString(), "list=6,secure=3,token=1"},
		{"mixed composite", mixed.Composite(), true},
		{"secure composite", secure.Composite(), false},
	} {
		if !reflect.DeepEqual(c.got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, c.got, c.want)
		}
	}
}

// The topology probe prepares, for a probed path, the simple scenario that
// sends to that endpoint alone.
func TestScenarioForEndpoint(t *testing.T) {
	for ep, want := range map[string]string{"secure": "secure", "token": "token", "config": "example-config", "nope": "nope"} {
		if got := ScenarioFor(ep); got != want {
			t.Errorf("ScenarioFor(%q) = %q, want %q", ep, got, want)
		}
	}
}

// A composite given no weight for any part is refused before any setup.
func TestPrepareCompositeWithoutWeights(t *testing.T) {
	tg := &Target{BaseURL: "http://127.0.0.1:1", Creds: []Credential{{MerchantID: "m", SecretKey: "k"}}}
	_, err := Prepare(context.Background(), tg, ScenarioOptions{Name: "mixed", Mix: map[string]int{"list": 0}})
	if err == nil || !strings.Contains(err.Error(), "no part has a weight") {
		t.Fatalf("got %v", err)
	}
	_, err = Prepare(context.Background(), tg, ScenarioOptions{Name: "nope"})
	if err == nil || !strings.Contains(err.Error(), `unknown scenario "nope" (want `) {
		t.Fatalf("got %v", err)
	}
}
