package result

import (
	"sort"
	"strings"
)

// The labels carrying a spec's cell of the rule × endpoint grid
// (framework.OnEndpoint, framework.ForRule): "endpoint:gift-verify",
// "rule:auth.alg-none".
const (
	EndpointLabelPrefix = "endpoint:"
	RuleLabelPrefix     = "rule:"
)

// CellOutcome is the verdict of one cell of the grid in a run: the rule, the
// endpoint (its slug), the spec checking it and its outcome.
type CellOutcome struct {
	Rule     string  `json:"rule"`
	Endpoint string  `json:"endpoint"`
	Spec     string  `json:"spec"`
	Outcome  Outcome `json:"outcome"`
}

// cellsOf are the grid cells among the selected specs, sorted.
func cellsOf(specs []Spec) []CellOutcome {
	var out []CellOutcome
	for _, sp := range specs {
		rule, eps := "", []string(nil)
		for _, l := range sp.Labels {
			switch {
			case strings.HasPrefix(l, RuleLabelPrefix):
				rule = strings.TrimPrefix(l, RuleLabelPrefix)
			case strings.HasPrefix(l, EndpointLabelPrefix):
				eps = append(eps, strings.TrimPrefix(l, EndpointLabelPrefix))
			}
		}
		if rule == "" {
			continue
		}
		for _, e := range eps {
			out = append(out, CellOutcome{Rule: rule, Endpoint: e, Spec: sp.ID, Outcome: sp.Outcome})
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
