package loadreport

import "strings"

// table is a section's table, rendered by both the Markdown and the HTML
// reporters from the same cells. Align is the Markdown separator row.
type table struct {
	Head  []string
	Align string
	Rows  [][]cell
}

// cell is a table cell: an optional code span (a value the target chose),
// then text.
type cell struct {
	Code, Text string
}

func (c cell) markdown() string {
	if c.Code != "" {
		return "`" + c.Code + "`" + c.Text
	}
	return c.Text
}

// row makes a row of plain-text cells.
func row(texts ...string) []cell {
	out := make([]cell, len(texts))
	for i, t := range texts {
		out[i].Text = t
	}
	return out
}

func (t table) markdown(b *strings.Builder) {
	b.WriteString("| " + strings.Join(t.Head, " | ") + " |\n" + t.Align + "\n")
	for _, r := range t.Rows {
		s := make([]string, len(r))
		for i, c := range r {
			s[i] = c.markdown()
		}
		b.WriteString("| " + strings.Join(s, " | ") + " |\n")
	}
}
