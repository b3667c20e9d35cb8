package report

import (
	"fmt"
	"strings"

	"github.com/merchant-harness/mph/api"
	"github.com/merchant-harness/mph/result"
)

// Grid is the rule × endpoint grid of a run: rows are rules, columns the
// endpoints of the table (api.Endpoints) in the document's order.
type Grid struct {
	Endpoints []string    // column slugs
	Rows      []GridRow   // one per rule
	Legend    [][2]string // mark, meaning
	cells     []result.CellOutcome
}

// GridRow is one rule's row: a mark per column ("" not declared).
type GridRow struct {
	Rule  string
	Marks []string
	Class []string // the outcome of each column, for styling
}

// cellMarks are the marks of the outcomes in the grid.
var cellMarks = []struct {
	o    result.Outcome
	mark string
}{
	{result.Passed, "✔"}, {result.Failed, "✘"}, {result.HarnessError, "!"}, {result.NoVerdict, "?"}, {result.Skipped, "–"}, {result.Waived, "w"}, {result.Interrupted, "…"}, {result.Pending, "·"},
}

// GridOf builds the grid of the run's cells (nil when there are none).
func GridOf(cells []result.CellOutcome) *Grid {
	if len(cells) == 0 {
		return nil
	}
	g := &Grid{cells: cells}
	col := map[string]int{}
	for _, e := range api.Endpoints(nil) {
		col[e.Slug] = len(g.Endpoints)
		g.Endpoints = append(g.Endpoints, e.Slug)
	}
	rows := map[string]int{}
	for _, c := range cells {
		if _, ok := col[c.Endpoint]; !ok {
			col[c.Endpoint] = len(g.Endpoints)
			g.Endpoints = append(g.Endpoints, c.Endpoint)
		}
		if _, ok := rows[c.Rule]; !ok {
			rows[c.Rule] = len(g.Rows)
			g.Rows = append(g.Rows, GridRow{Rule: c.Rule})
		}
	}
	for i := range g.Rows {
		g.Rows[i].Marks = make([]string, len(g.Endpoints))
		g.Rows[i].Class = make([]string, len(g.Endpoints))
	}
	for _, c := range cells {
		r := &g.Rows[rows[c.Rule]]
		r.Marks[col[c.Endpoint]], r.Class[col[c.Endpoint]] = markOf(c.Outcome), string(c.Outcome)
	}
	for _, m := range cellMarks {
		g.Legend = append(g.Legend, [2]string{m.mark, outcomeName(m.o)})
	}
	g.Legend = append(g.Legend, [2]string{"(blank)", "no spec of the run checks the cell"})
	return g
}

func markOf(o result.Outcome) string {
	for _, m := range cellMarks {
		if m.o == o {
			return m.mark
		}
	}
	return "#"
}

// Counts says how many cells of the run have each outcome.
func (g *Grid) Counts() string {
	n := map[result.Outcome]int{}
	for _, c := range g.cells {
		n[c.Outcome]++
	}
	var parts []string
	for _, m := range cellMarks {
		if n[m.o] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n[m.o], outcomeName(m.o)))
		}
	}
	return fmt.Sprintf("%d cells: %s", len(g.cells), strings.Join(parts, ", "))
}

// Markdown renders the grid as a Markdown table, endpoints numbered in the
// header and named below it.
func (g *Grid) Markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "### Rules × endpoints (%s)\n\n| rule |", g.Counts())
	for i := range g.Endpoints {
		fmt.Fprintf(&b, " %d |", i+1)
	}
	b.WriteString("\n|---|" + strings.Repeat(":-:|", len(g.Endpoints)) + "\n")
	for _, r := range g.Rows {
		fmt.Fprintf(&b, "| `%s` |", mdCode(r.Rule))
		for _, m := range r.Marks {
			fmt.Fprintf(&b, " %s |", m)
		}
		b.WriteString("\n")
	}
	b.WriteString("\n")
	for i, e := range g.Endpoints {
		fmt.Fprintf(&b, "%d `%s` ", i+1, mdCode(e))
	}
	b.WriteString("\n\n")
	for _, l := range g.Legend {
		fmt.Fprintf(&b, "%s %s · ", l[0], l[1])
	}
	return strings.TrimSuffix(b.String(), " · ") + "\n\n"
}
