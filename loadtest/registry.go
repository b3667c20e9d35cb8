package loadtest

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"

	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// The scenario registry. A scenario is one file, scenario_<name>.go, whose
// init registers a ScenarioDef: its name and one-line summary, the endpoints
// it sends to (the names thresholds and report rows use, and how their URLs
// look so that results are classified), and its Prepare (setup, targeter,
// teardown). A composite scenario instead names the scenarios it interleaves
// and their default weights. The CLI, the probe, threshold validation and the
// scenario list of docs/load.md all read the registry.

// Endpoint is one operation a scenario sends requests to, with what the API
// document states of its answer (checked under load, see validate.go).
type Endpoint struct {
	Name   string // what thresholds and report rows name, e.g. "secure"
	Method string
	Path   string // under the base URL; {name} stands for one path segment: "/cards/{id}/secure"
	Status int    // the one success status the document gives
	Schema string // JSON schema of that answer (schemas package), "" when none applies
}

// Generator fills in the next request of the attack; it is called from
// several goroutines at once.
type Generator = func(*vegeta.Target) error

// ScenarioDef declares a load scenario.
type ScenarioDef struct {
	Name    string // the --scenario value
	Summary string // one line: what it measures
	Setup   string // what preparing it does to the target, "none" when nothing
	// Endpoints the scenario sends to, in report order. A composite's are
	// those of its parts.
	Endpoints []Endpoint
	// Prepare does the setup on s's target (registering teardown with
	// s.onClose) and returns the request generator. Nil for a composite.
	Prepare func(ctx context.Context, s *Scenario, o ScenarioOptions) (Generator, error)
	// Parts make a composite: the scenarios it interleaves, in report order,
	// by the weights of Mix unless the operator gives others (--mix).
	Parts []string
	Mix   map[string]int
}

// Composite reports whether the scenario interleaves other scenarios (and
// so takes --mix).
func (d *ScenarioDef) Composite() bool { return len(d.Parts) > 0 }

// registry holds the scenarios and the endpoints they declare. It is
// written by init functions only, so reads need no lock.
type registry struct {
	defs      map[string]*ScenarioDef
	endpoints []endpointMatcher // most specific first
	rules     map[string]answerRule
}

var scenarios = newRegistry()

func newRegistry() *registry {
	return &registry{defs: map[string]*ScenarioDef{}, rules: map[string]answerRule{}}
}

// Register adds a scenario; call it from an init function (the registry is
// read without locks). It panics on a malformed or duplicate declaration:
// that is a programming error, found at start.
func Register(def ScenarioDef) { scenarios.register(def) }

// Lookup returns the named scenario.
func Lookup(name string) (*ScenarioDef, bool) {
	d, ok := scenarios.defs[name]
	return d, ok
}

// ScenarioNames lists the registered scenarios, sorted.
func ScenarioNames() []string {
	names := make([]string, 0, len(scenarios.defs))
	for n := range scenarios.defs {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// ScenarioDefs lists the registered scenarios, sorted by name.
func ScenarioDefs() []*ScenarioDef {
	var out []*ScenarioDef
	for _, n := range ScenarioNames() {
		out = append(out, scenarios.defs[n])
	}
	return out
}

func (r *registry) register(def ScenarioDef) {
	if err := def.check(); err != nil {
		panic("loadtest.Register: " + err.Error())
	}
	if _, dup := r.defs[def.Name]; dup {
		panic(fmt.Sprintf("loadtest.Register: scenario %q registered twice", def.Name))
	}
	for _, ep := range def.Endpoints {
		if err := r.addEndpoint(ep); err != nil {
			panic(fmt.Sprintf("loadtest.Register(%q): %v", def.Name, err))
		}
	}
	r.defs[def.Name] = &def
}

// check is the declaration's own consistency.
func (d *ScenarioDef) check() error {
	switch {
	case d.Name == "" || strings.ContainsAny(d.Name, " ,=/"):
		return fmt.Errorf("scenario name %q: want a non-empty word", d.Name)
	case d.Summary == "":
		return fmt.Errorf("scenario %q has no summary", d.Name)
	case d.Composite() && (d.Prepare != nil || len(d.Endpoints) > 0):
		return fmt.Errorf("scenario %q: a composite has parts, not its own Prepare or Endpoints", d.Name)
	case !d.Composite() && (d.Prepare == nil || len(d.Endpoints) == 0):
		return fmt.Errorf("scenario %q: needs a Prepare and its Endpoints (or Parts)", d.Name)
	}
	for _, p := range d.Parts {
		if d.Mix[p] < 0 {
			return fmt.Errorf("scenario %q: negative weight for %q", d.Name, p)
		}
	}
	return nil
}

// parts resolves a composite's parts.
func (d *ScenarioDef) parts() ([]*ScenarioDef, error) {
	out := make([]*ScenarioDef, len(d.Parts))
	for i, p := range d.Parts {
		pd, ok := Lookup(p)
		if !ok || pd.Composite() {
			return nil, fmt.Errorf("scenario %q: part %q is not a registered simple scenario", d.Name, p)
		}
		out[i] = pd
	}
	return out, nil
}

// AllEndpoints are the endpoints the scenario may send to, in report order.
func (d *ScenarioDef) AllEndpoints() []Endpoint {
	if !d.Composite() {
		return d.Endpoints
	}
	parts, _ := d.parts()
	var out []Endpoint
	for _, p := range parts {
		out = append(out, p.Endpoints...)
	}
	return out
}

// EndpointNames are the names of the endpoints the scenario sends to under
// the given mix (nil: its default), sorted.
func (d *ScenarioDef) EndpointNames(mix map[string]int) []string {
	var out []string
	if !d.Composite() {
		for _, ep := range d.Endpoints {
			out = append(out, ep.Name)
		}
	} else {
		if mix == nil {
			mix = d.Mix
		}
		parts, _ := d.parts()
		for _, p := range parts {
			if mix[p.Name] > 0 {
				out = append(out, p.EndpointNames(nil)...)
			}
		}
	}
	sort.Strings(out)
	return out
}

// ProbeParts are the scenarios the rate-limit probe prepares, one path each:
// a composite's parts, else the scenario itself.
func (d *ScenarioDef) ProbeParts() []string {
	if d.Composite() {
		return d.Parts
	}
	return []string{d.Name}
}

// ScenarioFor names the simple scenario that sends to endpoint alone (the
// topology probe prepares one per path): the one named like the endpoint,
// else the first by name.
func ScenarioFor(endpoint string) string {
	if d, ok := Lookup(endpoint); ok && !d.Composite() && len(d.Endpoints) == 1 && d.Endpoints[0].Name == endpoint {
		return endpoint
	}
	for _, d := range ScenarioDefs() {
		if !d.Composite() && len(d.Endpoints) == 1 && d.Endpoints[0].Name == endpoint {
			return d.Name
		}
	}
	return endpoint
}

// MixString is the default mix as --mix takes it ("list=6,secure=3,token=1").
func (d *ScenarioDef) MixString() string {
	keys := make([]string, 0, len(d.Mix))
	for k := range d.Mix {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(k + "=" + strconv.Itoa(d.Mix[k]))
	}
	return b.String()
}

// ParseMix parses --mix for a composite ("list=6,secure=3,token=1"): each
// name is one of its parts.
func (d *ScenarioDef) ParseMix(s string) (map[string]int, error) {
	out := map[string]int{}
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		k, v, ok := strings.Cut(part, "=")
		n, err := strconv.Atoi(v)
		if !ok || err != nil || n < 0 {
			return nil, fmt.Errorf("mix %q: want name=weight,... (e.g. %s)", s, d.MixString())
		}
		if !contains(d.Parts, k) {
			return nil, fmt.Errorf("mix %q: unknown endpoint %q (want %s)", s, k, strings.Join(d.Parts, ", "))
		}
		out[k] = n
	}
	total := 0
	for _, n := range out {
		total += n
	}
	if total == 0 {
		return nil, fmt.Errorf("mix %q: weights sum to zero", s)
	}
	return out, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
