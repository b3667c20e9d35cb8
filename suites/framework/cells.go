package framework

import (
	"sort"

	"github.com/merchant-harness/mph/result"
)

// A spec checking a cross-cutting rule on an endpoint declares its cell of
// the rule × endpoint grid: OnEndpoint(slug) and ForRule(id). The parts
// become labels (endpoint:<slug>, rule:<id>) and the Declaration's
// Endpoints and Rule, from which `mph conform --coverage` and the reports
// draw the grid. A hand-written spec may declare OnEndpoint alone.

// EndpointSlugs are the endpoints (api.Endpoint.Slug) a spec checks.
type EndpointSlugs []string

// OnEndpoint declares the endpoints (by slug) a spec checks its rule on.
func OnEndpoint(slugs ...string) EndpointSlugs { return EndpointSlugs(slugs) }

// RuleID is the cross-cutting rule a spec checks (a row of the grid).
type RuleID string

// ForRule declares the cross-cutting rule a spec checks.
func ForRule(id string) RuleID { return RuleID(id) }

// cellParts are a declaration's grid parts.
type cellParts struct {
	endpoints []string
	rule      string
}

// addCell sorts a grid part into p; false when a is none.
func (p *declParts) addCell(a any) bool {
	switch v := a.(type) {
	case EndpointSlugs:
		p.cell.endpoints = append(p.cell.endpoints, v...)
	case RuleID:
		if p.cell.rule != "" {
			p.errorf("rule declared twice (%s, %s)", p.cell.rule, v)
		}
		p.cell.rule = string(v)
	default:
		return false
	}
	return true
}

// cellLabels adds the grid labels to set.
func (p *declParts) cellLabels(set map[string]bool) {
	for _, e := range p.cell.endpoints {
		set[result.EndpointLabelPrefix+e] = true
	}
	if p.cell.rule != "" {
		if len(p.cell.endpoints) == 0 {
			p.errorf("rule %s declared without OnEndpoint", p.cell.rule)
		}
		set[result.RuleLabelPrefix+p.cell.rule] = true
	}
}

// withCell copies the grid parts into d.
func (p *declParts) withCell(d Declaration) Declaration {
	d.Endpoints = append([]string(nil), p.cell.endpoints...)
	sort.Strings(d.Endpoints)
	d.Rule = p.cell.rule
	return d
}

// Cell is one checked cell of the grid: the rule, the endpoint, the spec.
type Cell struct {
	Rule, Endpoint string
	Decl           Declaration
}

// Cells returns the grid cells the built spec tree declares: one per spec
// and endpoint of a spec that names a rule.
func Cells() []Cell {
	var out []Cell
	for _, d := range Declarations() {
		if d.Rule == "" {
			continue
		}
		for _, e := range d.Endpoints {
			out = append(out, Cell{Rule: d.Rule, Endpoint: e, Decl: d})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Rule != out[j].Rule {
			return out[i].Rule < out[j].Rule
		}
		return out[i].Endpoint < out[j].Endpoint
	})
	return out
}
