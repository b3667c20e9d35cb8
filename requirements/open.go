package requirements

import (
	_ "embed"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"
)

// OpenPoint is a place where the API document leaves a choice to the
// server: "not shown", an example list ("e.g."), "the only value shown", a
// named standard, a mechanism not described, a presence never stated, a
// business rule or an order of checks left open. The harness accepts every
// choice by default (Reading); a provider states its own through the
// profile keys; the sandbox varies it through Dimension.
type OpenPoint struct {
	ID    string   `yaml:"id" json:"id"`
	Kind  string   `yaml:"kind" json:"kind"`
	Quote []string `yaml:"quote" json:"quote"`
	// Reading is what the harness accepts by default: the lenient reading.
	Reading string `yaml:"reading" json:"reading"`
	// Profile lists keys of api.Profile that let a provider state its choice;
	// Proposed lists keys the profile does not have yet.
	Profile  []string `yaml:"profile,omitempty" json:"profile,omitempty"`
	Proposed []string `yaml:"proposed,omitempty" json:"proposed,omitempty"`
	// Dimension names the sandbox dimensions that vary the point (in YAML
	// one name or a list), or NoDimension alone (then Why says why nothing
	// the harness asserts depends on it); Settings are the settings they
	// should offer, the reference behaviour first.
	Dimension Names    `yaml:"dimension" json:"dimension"`
	Settings  []string `yaml:"settings,omitempty" json:"settings,omitempty"`
	Why       string   `yaml:"why,omitempty" json:"why,omitempty"`
	// Affects lists the requirements whose checks depend on the point.
	Affects []string `yaml:"affects,omitempty" json:"affects,omitempty"`
}

// NoDimension is the Dimension of an open point no harness check depends on.
const NoDimension = "none"

// Names is a list of names written in YAML as one scalar or a sequence.
type Names []string

// UnmarshalYAML reads a scalar as a list of one.
func (n *Names) UnmarshalYAML(v *yaml.Node) error {
	if v.Kind == yaml.ScalarNode {
		*n = Names{v.Value}
		return nil
	}
	var list []string
	if err := v.Decode(&list); err != nil {
		return err
	}
	*n = list
	return nil
}

// None reports whether the point is varied by no dimension.
func (n Names) None() bool { return len(n) == 1 && n[0] == NoDimension }

// Kinds of open points.
var kinds = []string{
	"format",        // a standard or a form named, not pinned (ISO 8601, JWT, 2-letter code)
	"value-set",     // values given by example or as "the only value shown"
	"presence",      // a member never stated as always present, or null
	"shape",         // an answer or request shape "not shown"
	"mechanism",     // how something works is not described (fee side, search, dispatch)
	"timing",        // when something becomes visible (freshness, reconciliation, delivery)
	"business-rule", // a rule a server may add (caps, uniqueness, lengths)
	"refusal",       // which error answers a failure the document requires or allows
	"check-order",   // which of several documented refusals comes first
	"message",       // the wording of a message whose meaning is documented
}

// Kinds returns the kinds of open points, in the catalogue's order.
func Kinds() []string { return slices.Clone(kinds) }

var (
	openIDPattern    = regexp.MustCompile(`^OPEN-[A-Z0-9]+(-[A-Z0-9]+)*$`)
	dimensionPattern = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	profileKeyRE     = regexp.MustCompile(`^[a-z][A-Za-z0-9]*(\.[a-zA-Z0-9]+)*(=[a-z0-9-]+)?$`)
)

//go:embed open.yaml
var openYAML []byte

var (
	openOnce sync.Once
	openAll  []OpenPoint
	openByID map[string]OpenPoint
	openErr  error
)

func loadOpen() {
	var doc struct {
		Open []OpenPoint `yaml:"open"`
	}
	if err := yaml.Unmarshal(openYAML, &doc); err != nil {
		openErr = fmt.Errorf("requirements: open.yaml: %w", err)
		return
	}
	openAll = doc.Open
	openByID = make(map[string]OpenPoint, len(openAll))
	for _, o := range openAll {
		openByID[o.ID] = o
	}
	openErr = ValidateOpen(openAll)
}

// OpenPoints returns every open point in catalogue order (copies).
func OpenPoints() []OpenPoint {
	openOnce.Do(loadOpen)
	if openErr != nil {
		panic(openErr)
	}
	out := make([]OpenPoint, len(openAll))
	for i, o := range openAll {
		out[i] = o.clone()
	}
	return out
}

// LookupOpen returns the open point with the given ID.
func LookupOpen(id string) (OpenPoint, bool) {
	openOnce.Do(loadOpen)
	if openErr != nil {
		panic(openErr)
	}
	o, ok := openByID[id]
	return o.clone(), ok
}

func (o OpenPoint) clone() OpenPoint {
	o.Quote = slices.Clone(o.Quote)
	o.Profile = slices.Clone(o.Profile)
	o.Proposed = slices.Clone(o.Proposed)
	o.Settings = slices.Clone(o.Settings)
	o.Dimension = slices.Clone(o.Dimension)
	o.Affects = slices.Clone(o.Affects)
	return o
}

// ValidateOpen checks open points: well-formed unique IDs, a known kind,
// quotes found verbatim in the document, a reading, a dimension (or none
// with a why), well-formed profile keys and known affected requirements.
// Whether profile keys exist in api.Profile is checked by a test (api
// imports nothing of this package's callers, but keeps this one a leaf).
func ValidateOpen(points []OpenPoint) error {
	var problems []string
	add := func(id, f string, a ...any) { problems = append(problems, id+": "+fmt.Sprintf(f, a...)) }
	seen := map[string]bool{}
	for i, o := range points {
		id := o.ID
		if !openIDPattern.MatchString(id) {
			add(fmt.Sprintf("entry %d", i), "malformed id %q (want OPEN-UPPER-KEBAB)", id)
		}
		if seen[id] {
			add(id, "duplicate id")
		}
		seen[id] = true
		if !slices.Contains(kinds, o.Kind) {
			add(id, "unknown kind %q (want one of %s)", o.Kind, strings.Join(kinds, ", "))
		}
		problems = append(problems, quoteProblems(id, o.Quote)...)
		if strings.TrimSpace(o.Reading) == "" {
			add(id, "no reading")
		}
		problems = append(problems, dimensionProblems(id, o)...)
		for _, k := range append(slices.Clone(o.Profile), o.Proposed...) {
			if !profileKeyRE.MatchString(k) {
				add(id, "malformed profile key %q", k)
			}
		}
		for _, r := range o.Affects {
			if _, ok := Lookup(r); !ok {
				add(id, "affects unknown requirement %s", r)
			}
		}
	}
	if len(problems) > 0 {
		return fmt.Errorf("requirements: invalid open points:\n  %s", strings.Join(problems, "\n  "))
	}
	return nil
}

// dimensionProblems checks a point's dimensions: well-formed names, at least
// two settings, or none alone with a why.
func dimensionProblems(id string, o OpenPoint) []string {
	var out []string
	add := func(f string, a ...any) { out = append(out, id+": "+fmt.Sprintf(f, a...)) }
	switch {
	case len(o.Dimension) == 0:
		add("no dimension")
	case o.Dimension.None():
		if strings.TrimSpace(o.Why) == "" {
			add("dimension none without a why")
		}
		return out
	case o.Why != "":
		add("a why is only for dimension none")
	case len(o.Settings) < 2:
		add("fewer than 2 settings")
	}
	for _, d := range o.Dimension {
		if d == NoDimension || !dimensionPattern.MatchString(d) {
			add("malformed dimension %q (want lower-kebab; none only alone)", d)
		}
	}
	return out
}

// quoteProblems reports quotes that are missing or not verbatim words of
// the document.
func quoteProblems(id string, quotes []string) []string {
	if len(quotes) == 0 {
		return []string{id + ": no quote"}
	}
	var out []string
	for _, q := range quotes {
		if !InDocument(q) {
			out = append(out, fmt.Sprintf("%s: quote not in the document: %q", id, q))
		}
	}
	return out
}
