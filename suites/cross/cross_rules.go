package cross

// The rule table of the cross-cutting rules: each rule the document states
// for every endpoint of a kind is one row, and the endpoint table
// (api.Endpoints) generates one spec per cell (rule, endpoint) it applies
// to, with the spec ID <rule>-<endpoint slug>, the endpoint's label and the
// grid parts (OnEndpoint, ForRule) that coverage and the reports read.

import (
	"slices"

	. "github.com/onsi/ginkgo/v2"

	"github.com/merchant-harness/mph/api"
	. "github.com/merchant-harness/mph/suites/framework"
)

// crossRule is one row of the rule table.
type crossRule struct {
	id    string   // "auth.alg-none": the grid's row and its cells' spec ID stem
	title string   // reads as the rule; each cell adds "on METHOD /template"
	reqs  []string // the catalogue requirements the rule proves
	// reqsFor, when set, names a cell's requirements (the same rule under
	// each endpoint's own requirement).
	reqsFor func(api.Endpoint) []string
	cite    string // the document's words
	applies func(api.Endpoint) bool
	parts   func(api.Endpoint) []any // more declaration parts of a cell (Needs, Tags, decorators)
	check   func(ctx SpecContext, e api.Endpoint)
}

// crossRules is the rule table.
func crossRules() []crossRule {
	return slices.Concat(authRules(), accessRules(), bodyRules(), openRules(), answerRules())
}

// crossCutting is the container of the generated cells.
const crossCutting = "Cross-cutting rules on every endpoint they apply to"

var _ = Describe(crossCutting, func() {
	eps := api.Endpoints(nil)
	for _, r := range crossRules() {
		r.declare(eps)
	}
})

// declare generates the rule's table: one entry per endpoint it applies to.
func (r crossRule) declare(eps []api.Endpoint) {
	var args []any
	for _, e := range eps {
		if !r.applies(e) {
			continue
		}
		parts := append([]any{Reqs(r.reqsOf(e)...), OnEndpoint(e.Slug), ForRule(r.id)}, cellParts(e)...)
		if r.parts != nil {
			parts = append(parts, r.parts(e)...)
		}
		args = append(args, ConformanceEntry("on "+endpointName(e), SpecID(r.id+"-"+e.Slug), e.Slug, parts...))
	}
	check := r.check
	ConformanceTable(r.title, func(ctx SpecContext, slug string) { check(ctx, runEndpoint(slug)) }, args...)
}

// reqsOf are the requirements the rule's cell on e proves.
func (r crossRule) reqsOf(e api.Endpoint) []string {
	if r.reqsFor != nil {
		return r.reqsFor(e)
	}
	return r.reqs
}

// endpointName names an endpoint in a cell's text.
func endpointName(e api.Endpoint) string {
	if e.Order == "issuance" {
		return e.Key() + " (card issuance)"
	}
	return e.Key()
}

// cellParts are what every cell on e declares: Destructive when it writes
// or needs a resource made for it, TEST only for the sandbox-only call.
func cellParts(e api.Endpoint) []any {
	var out []any
	if e.Writes() || len(e.Params) > 0 {
		out = append(out, Destructive)
	}
	if e.TestOnly {
		out = append(out, Needs(CapTestEnvironment))
	}
	return out
}

// Rule is one rule of the table as coverage shows it: the endpoints
// (slugs) it applies to, each a cell with a spec of its own.
type Rule struct {
	ID, Title, Cite string
	Reqs            []string
	Endpoints       []string
}

// Rules returns the rule table with the cells each rule applies to.
func Rules() []Rule {
	var out []Rule
	eps := api.Endpoints(nil)
	for _, r := range crossRules() {
		c := Rule{ID: r.id, Title: r.title, Cite: r.cite}
		for _, e := range eps {
			if r.applies(e) {
				c.Endpoints = append(c.Endpoints, e.Slug)
				for _, id := range r.reqsOf(e) {
					if !slices.Contains(c.Reqs, id) {
						c.Reqs = append(c.Reqs, id)
					}
				}
			}
		}
		out = append(out, c)
	}
	return out
}

// Endpoint predicates of the rules.
func bearer(e api.Endpoint) bool    { return e.Bearer() }
func takesBody(e api.Endpoint) bool { return e.Body != nil }
func every(api.Endpoint) bool       { return true }

func hasRequired(e api.Endpoint) bool { return e.Body != nil && len(e.Body.Required()) > 0 }

func carries(c api.Carries) func(api.Endpoint) bool {
	return func(e api.Endpoint) bool { return e.Has(c) }
}

func only(slug string) func(api.Endpoint) bool {
	return func(e api.Endpoint) bool { return e.Slug == slug }
}
