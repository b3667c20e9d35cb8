// Package requirements is the catalogue of every requirement the Merchant
// Payments API v1 document states (shared/merchant-payments-api.md).
//
// The catalogue lives in catalog.yaml (embedded). Each requirement has an ID of
// the form AREA-NN; the area prefix maps to a label (see Area and Areas). A
// requirement that cannot be checked from outside the service is marked
// testable: false with the reason in Why.
package requirements

import (
	_ "embed"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"
)

// Requirement is one rule the API document states.
type Requirement struct {
	ID      string `yaml:"id" json:"id"`
	Section string `yaml:"section" json:"section"`
	// Text may paraphrase; Quote holds the document's own words for it,
	// verbatim (white space normalised), checked against the document.
	Text  string   `yaml:"text" json:"text"`
	Quote []string `yaml:"quote" json:"quote"`
	// Parts names the separate rules of a requirement that is several.
	Parts    []string     `yaml:"parts,omitempty" json:"parts,omitempty"`
	Testable bool         `yaml:"testable" json:"testable"`
	Why      string       `yaml:"why,omitempty" json:"why,omitempty"`
	Needs    []Capability `yaml:"needs,omitempty" json:"needs,omitempty"`
}

// areas maps an ID prefix to its label.
var areas = map[string]string{
	"ENV":      "envelopes",
	"AUTH":     "auth",
	"CONFIG":   "config",
	"CUST":     "customers",
	"ISSUE":    "issuance",
	"LIST":     "listing",
	"GET":      "cards",
	"SECURE":   "secure-reveal",
	"WITHDRAW": "withdraw",
	"LIMITS":   "spend-limits",
	"STATUS":   "card-status",
	"CONTACT":  "contact",
	"WEBHOOK":  "webhooks",
	"GIFT":     "gift-cards",
	"QUOTE":    "quotes",
	"ERR":      "errors",
	"ISO":      "isolation",
	"RATE":     "rate-limits",
	"TXN":      "transactions",
	"VER":      "versioning",
	"CLIENT":   "client",
}

// idPattern is the form of every requirement ID.
var idPattern = regexp.MustCompile(`^([A-Z]+)-([0-9]{2})$`)

//go:embed catalog.yaml
var catalogYAML []byte

var (
	loadOnce sync.Once
	all      []Requirement
	byID     map[string]Requirement
	loadErr  error
)

func load() {
	var doc struct {
		Requirements []Requirement `yaml:"requirements"`
	}
	if err := yaml.Unmarshal(catalogYAML, &doc); err != nil {
		loadErr = fmt.Errorf("requirements: catalog.yaml: %w", err)
		return
	}
	all = doc.Requirements
	byID = make(map[string]Requirement, len(all))
	for _, r := range all {
		byID[r.ID] = r
	}
	loadErr = Validate(all)
}

func mustLoad() {
	loadOnce.Do(load)
	if loadErr != nil {
		panic(loadErr)
	}
}

// All returns every requirement in catalogue order. The slice is a copy.
func All() []Requirement {
	mustLoad()
	out := make([]Requirement, len(all))
	for i, r := range all {
		out[i] = r.clone()
	}
	return out
}

// Testable returns the requirements that can be checked from outside.
func Testable() []Requirement {
	var out []Requirement
	for _, r := range All() {
		if r.Testable {
			out = append(out, r)
		}
	}
	return out
}

// Lookup returns the requirement with the given ID.
func Lookup(id string) (Requirement, bool) {
	mustLoad()
	r, ok := byID[id]
	return r.clone(), ok
}

func (r Requirement) clone() Requirement {
	r.Quote = slices.Clone(r.Quote)
	r.Parts = slices.Clone(r.Parts)
	r.Needs = slices.Clone(r.Needs)
	return r
}

// Area returns the label of the area of id ("AUTH-03" → "auth"), or "" when
// the prefix is not a known area.
func Area(id string) string {
	prefix, _, ok := strings.Cut(id, "-")
	if !ok {
		return ""
	}
	return areas[prefix]
}

// Areas returns the area prefix → label map (a copy).
func Areas() map[string]string {
	out := make(map[string]string, len(areas))
	for k, v := range areas {
		out[k] = v
	}
	return out
}

// AreaLabels returns the area labels, sorted.
func AreaLabels() []string {
	out := make([]string, 0, len(areas))
	for _, v := range areas {
		out = append(out, v)
	}
	sort.Strings(out)
	return out
}

// Validate checks a catalogue: well-formed unique IDs in known areas, a
// section, text and quotes found verbatim in the document on each, a why on
// every non-testable requirement and only known capabilities as needs.
func Validate(reqs []Requirement) error {
	var problems []string
	seen := map[string]bool{}
	for i, r := range reqs {
		m := idPattern.FindStringSubmatch(r.ID)
		switch {
		case m == nil:
			problems = append(problems, fmt.Sprintf("entry %d: malformed id %q (want AREA-NN)", i, r.ID))
		case areas[m[1]] == "":
			problems = append(problems, fmt.Sprintf("%s: unknown area %q", r.ID, m[1]))
		case m[2] == "00":
			problems = append(problems, fmt.Sprintf("%s: numbers start at 01", r.ID))
		}
		if seen[r.ID] {
			problems = append(problems, fmt.Sprintf("%s: duplicate id", r.ID))
		}
		seen[r.ID] = true
		if strings.TrimSpace(r.Section) == "" {
			problems = append(problems, fmt.Sprintf("%s: no section", r.ID))
		}
		if strings.TrimSpace(r.Text) == "" {
			problems = append(problems, fmt.Sprintf("%s: no text", r.ID))
		}
		problems = append(problems, quoteProblems(r.ID, r.Quote)...)
		if len(r.Parts) == 1 {
			problems = append(problems, fmt.Sprintf("%s: one part is the requirement itself (parts name two or more rules)", r.ID))
		}
		if !r.Testable && strings.TrimSpace(r.Why) == "" {
			problems = append(problems, fmt.Sprintf("%s: not testable but no why", r.ID))
		}
		if r.Testable && r.Why != "" {
			problems = append(problems, fmt.Sprintf("%s: testable but has a why", r.ID))
		}
		for _, n := range r.Needs {
			if !n.Known() {
				problems = append(problems, fmt.Sprintf("%s: unknown need %q", r.ID, n))
			}
		}
	}
	if len(problems) > 0 {
		return fmt.Errorf("requirements: invalid catalogue:\n  %s", strings.Join(problems, "\n  "))
	}
	return nil
}
