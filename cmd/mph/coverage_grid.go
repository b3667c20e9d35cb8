package main

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/merchant-harness/mph/api"
	"github.com/merchant-harness/mph/suites/cross"
	"github.com/merchant-harness/mph/suites/framework"
)

// gridCell is one cell of the rule × endpoint grid: the spec checking it,
// the least target it runs on, and its capabilities.
type gridCell struct {
	Rule     string   `json:"rule"`
	Endpoint string   `json:"endpoint"`
	Spec     string   `json:"spec,omitempty"` // "" when no spec checks an applicable cell
	Setting  string   `json:"setting,omitempty"`
	Needs    []string `json:"needs,omitempty"`
}

// coverageGrid is the grid `mph conform --coverage` shows.
type coverageGrid struct {
	Endpoints []string   `json:"endpoints"` // column slugs, in the table's order
	Rules     []gridRule `json:"rules"`
	Cells     []gridCell `json:"cells"` // the applicable cells
	Stray     []gridCell `json:"stray,omitempty"`
}

type gridRule struct {
	ID    string   `json:"id"`
	Title string   `json:"title"`
	Reqs  []string `json:"requirements"`
}

// settingMarks are the grid's marks of framework.Setting.
var settingMarks = [...]string{"P", "M", "L", "C"}

// buildGrid joins the rule table (which cells apply) with the specs the
// built tree declares for each cell. A declared cell outside the table is
// stray.
func buildGrid() coverageGrid {
	g := coverageGrid{}
	for _, e := range api.Endpoints(nil) {
		g.Endpoints = append(g.Endpoints, e.Slug)
	}
	declared := map[[2]string][]framework.Cell{}
	for _, c := range framework.Cells() {
		k := [2]string{c.Rule, c.Endpoint}
		declared[k] = append(declared[k], c)
	}
	for _, r := range cross.Rules() {
		g.Rules = append(g.Rules, gridRule{ID: r.ID, Title: r.Title, Reqs: r.Reqs})
		for _, e := range r.Endpoints {
			k := [2]string{r.ID, e}
			cs := declared[k]
			delete(declared, k)
			if len(cs) == 0 {
				g.Cells = append(g.Cells, gridCell{Rule: r.ID, Endpoint: e})
			}
			for _, c := range cs {
				g.Cells = append(g.Cells, cellOf(c))
			}
		}
	}
	for _, cs := range declared {
		for _, c := range cs {
			g.Stray = append(g.Stray, cellOf(c))
		}
	}
	sort.Slice(g.Stray, func(i, j int) bool { return g.Stray[i].Spec < g.Stray[j].Spec })
	return g
}

func cellOf(c framework.Cell) gridCell {
	gc := gridCell{Rule: c.Rule, Endpoint: c.Endpoint, Spec: c.Decl.ID, Setting: framework.SettingNames[framework.SettingOf(c.Decl)]}
	for _, n := range c.Decl.Needs {
		gc.Needs = append(gc.Needs, string(n))
	}
	if slices.Contains(c.Decl.Tags, framework.Slow) {
		gc.Needs = append(gc.Needs, "--slow or the clock control")
	}
	return gc
}

// uncovered are the applicable cells no spec checks.
func (g coverageGrid) uncovered() []string {
	var out []string
	for _, c := range g.Cells {
		if c.Spec == "" {
			out = append(out, c.Rule+" × "+c.Endpoint)
		}
	}
	return out
}

// print writes the grid: a mark per cell (the least target its spec runs
// on; "-" applicable but unchecked; "." not applicable), then per rule its
// requirements, cells, specs and capabilities.
func (g coverageGrid) print(out io.Writer) {
	at := map[[2]string]string{}
	for _, c := range g.Cells {
		mark := "-"
		if c.Spec != "" {
			mark = settingMarks[slices.Index(framework.SettingNames[:], c.Setting)]
		}
		at[[2]string{c.Rule, c.Endpoint}] = mark
	}
	checked := len(g.Cells) - len(g.uncovered())
	fmt.Fprintf(out, "\nRULE × ENDPOINT: %d of %d applicable cells checked (P plain TEST, M +2nd merchant, L +LIVE or outside-whitelist credentials, C only with sandbox controls; - not checked; . not applicable)\n", checked, len(g.Cells))
	w := tabwriter.NewWriter(out, 0, 0, 1, ' ', 0)
	fmt.Fprint(w, "rule\t")
	for i := range g.Endpoints {
		fmt.Fprintf(w, "%d\t", i+1)
	}
	fmt.Fprintln(w)
	for _, r := range g.Rules {
		fmt.Fprintf(w, "%s\t", r.ID)
		for _, e := range g.Endpoints {
			m, ok := at[[2]string{r.ID, e}]
			if !ok {
				m = "."
			}
			fmt.Fprintf(w, "%s\t", m)
		}
		fmt.Fprintln(w)
	}
	w.Flush()
	for i, e := range g.Endpoints {
		fmt.Fprintf(out, "%d %s  ", i+1, e)
	}
	fmt.Fprintln(out)
	g.printRules(out)
}

// printRules writes per rule its requirements, cells, spec IDs and needs.
func (g coverageGrid) printRules(out io.Writer) {
	w := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "\nRULE\tREQUIREMENTS\tCELLS\tSPECS\tNEEDS")
	for _, r := range g.Rules {
		var n, done int
		needs := map[string][]string{}
		specs := map[string]bool{}
		for _, c := range g.Cells {
			if c.Rule != r.ID {
				continue
			}
			n++
			if c.Spec != "" {
				done++
				if c.Spec == r.ID+"-"+c.Endpoint {
					specs[r.ID+"-<endpoint>"] = true
				} else {
					specs[c.Spec] = true
				}
			}
			for _, x := range c.Needs {
				needs[x] = append(needs[x], c.Endpoint)
			}
		}
		fmt.Fprintf(w, "%s\t%s\t%d/%d\t%s\t%s\n", r.ID, strings.Join(r.Reqs, ","), done, n, joinKeys(specs), needsText(needs, n))
	}
	w.Flush()
	for _, c := range g.Stray {
		fmt.Fprintf(out, "STRAY: %s declares the cell %s × %s, which the rule table does not apply\n", c.Spec, c.Rule, c.Endpoint)
	}
}

func joinKeys(m map[string]bool) string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return strings.Join(ks, ", ")
}

// needsText names each capability a rule's cells need, with the cells
// needing it when not all do.
func needsText(needs map[string][]string, cells int) string {
	var parts []string
	for n, eps := range needs {
		if len(eps) < cells {
			n += " (" + strings.Join(eps, ", ") + ")"
		}
		parts = append(parts, n)
	}
	if len(parts) == 0 {
		return "-"
	}
	sort.Strings(parts)
	return strings.Join(parts, "; ")
}

// printGridJSON writes the grid as JSON.
func printGridJSON(out io.Writer, g coverageGrid) error {
	enc := json.NewEncoder(out)
	enc.SetIndent("", "  ")
	return enc.Encode(g)
}
