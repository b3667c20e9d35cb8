// Package coverage states what the built spec tree covers, without
// running it: per requirement the specs on each kind of target, and the
// rule × endpoint grid of the cross-cutting rules (mph conform --coverage).
// It reads the declarations of the built tree: call it after
// framework.Preview.
package coverage

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/merchant-harness/mph/api"
	_ "github.com/merchant-harness/mph/suites" // the specs register their declarations
	"github.com/merchant-harness/mph/suites/cross"
	"github.com/merchant-harness/mph/suites/framework"
)

// Cell is one cell of the rule × endpoint grid: the spec checking it,
// the least target it runs on, and its capabilities.
type Cell struct {
	Rule     string   `json:"rule"`
	Endpoint string   `json:"endpoint"`
	Spec     string   `json:"spec,omitempty"` // "" when no spec checks an applicable cell
	Setting  string   `json:"setting,omitempty"`
	Needs    []string `json:"needs,omitempty"`
}

// Grid is the grid `mph conform --coverage` shows.
type Grid struct {
	Endpoints []string `json:"endpoints"` // column slugs, in the table's order
	Rules     []Rule   `json:"rules"`
	Cells     []Cell   `json:"cells"` // the applicable cells
	Stray     []Cell   `json:"stray,omitempty"`
}

// Rule is a row of the grid: a cross-cutting rule and its requirements.
type Rule struct {
	ID    string   `json:"id"`
	Title string   `json:"title"`
	Reqs  []string `json:"requirements"`
}

// settingMarks are the grid's marks of framework.Setting.
var settingMarks = [...]string{"P", "M", "L", "C"}

// BuildGrid joins the rule table (which cells apply) with the specs the
// built tree declares for each cell. A declared cell outside the table is
// stray.
func BuildGrid() Grid {
	g := Grid{}
	for _, e := range api.Endpoints(nil) {
		g.Endpoints = append(g.Endpoints, e.Slug)
	}
	declared := map[[2]string][]framework.Cell{}
	for _, c := range framework.Cells() {
		k := [2]string{c.Rule, c.Endpoint}
		declared[k] = append(declared[k], c)
	}
	for _, r := range cross.Rules() {
		g.Rules = append(g.Rules, Rule{ID: r.ID, Title: r.Title, Reqs: r.Reqs})
		for _, e := range r.Endpoints {
			k := [2]string{r.ID, e}
			cs := declared[k]
			delete(declared, k)
			if len(cs) == 0 {
				g.Cells = append(g.Cells, Cell{Rule: r.ID, Endpoint: e})
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

func cellOf(c framework.Cell) Cell {
	gc := Cell{Rule: c.Rule, Endpoint: c.Endpoint, Spec: c.Decl.ID, Setting: framework.SettingNames[framework.SettingOf(c.Decl)]}
	for _, n := range c.Decl.Needs {
		gc.Needs = append(gc.Needs, string(n))
	}
	if slices.Contains(c.Decl.Tags, framework.Slow) {
		gc.Needs = append(gc.Needs, "--slow or the clock control")
	}
	return gc
}

// Uncovered are the applicable cells no spec checks.
func (g Grid) Uncovered() []string {
	var out []string
	for _, c := range g.Cells {
		if c.Spec == "" {
			out = append(out, c.Rule+" × "+c.Endpoint)
		}
	}
	return out
}

// Problem says what makes the grid fail ("" when nothing does): an
// applicable cell no spec checks, or a spec declaring a cell the rule table
// does not apply.
func (g Grid) Problem() string {
	if u := g.Uncovered(); len(u) > 0 {
		return "uncovered cells of the rule × endpoint grid: " + strings.Join(u, ", ")
	}
	if len(g.Stray) > 0 {
		return fmt.Sprintf("%d specs declare cells the rule table does not apply (see STRAY)", len(g.Stray))
	}
	return ""
}

// Write writes the grid: a mark per cell (the least target its spec runs
// on; "-" applicable but unchecked; "." not applicable), then per rule its
// requirements, cells, specs and capabilities.
func (g Grid) Write(out io.Writer) {
	at := map[[2]string]string{}
	for _, c := range g.Cells {
		mark := "-"
		if c.Spec != "" {
			mark = settingMarks[slices.Index(framework.SettingNames[:], c.Setting)]
		}
		at[[2]string{c.Rule, c.Endpoint}] = mark
	}
	checked := len(g.Cells) - len(g.Uncovered())
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
func (g Grid) printRules(out io.Writer) {
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

// WriteJSON writes the grid as JSON.
func (g Grid) WriteJSON(out io.Writer) error {
	enc := json.NewEncoder(out)
	enc.SetIndent("", "  ")
	return enc.Encode(g)
}
