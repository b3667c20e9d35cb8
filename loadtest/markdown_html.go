package loadtest

import (
	"html"
	"regexp"
	"strings"
)

// summaryHTML renders the Markdown summary (Report.Markdown) as HTML for the
// self-contained report. It handles exactly what Markdown() writes: headings,
// bullet lists, pipe tables and paragraphs, with inline `code` and **bold**,
// so the page shows real tables instead of raw pipes.
func summaryHTML(md string) string {
	var b strings.Builder
	lines := strings.Split(md, "\n")
	inList := false
	closeList := func() {
		if inList {
			b.WriteString("</ul>\n")
			inList = false
		}
	}
	for i := 0; i < len(lines); i++ {
		line := strings.TrimRight(lines[i], " ")
		switch {
		case line == "":
			closeList()
		case strings.HasPrefix(line, "### "):
			closeList()
			b.WriteString("<h4>" + inlineHTML(line[4:]) + "</h4>\n")
		case strings.HasPrefix(line, "## "):
			closeList()
			b.WriteString("<h3>" + inlineHTML(line[3:]) + "</h3>\n")
		case strings.HasPrefix(line, "# "):
			closeList()
			// The page has its own <h1>; the summary's title is dropped.
		case strings.HasPrefix(line, "- "):
			if !inList {
				b.WriteString("<ul>\n")
				inList = true
			}
			b.WriteString("<li>" + inlineHTML(line[2:]) + "</li>\n")
		case strings.HasPrefix(line, "|"):
			closeList()
			var rows []string
			for ; i < len(lines) && strings.HasPrefix(lines[i], "|"); i++ {
				rows = append(rows, lines[i])
			}
			i--
			b.WriteString(tableHTML(rows))
		default:
			closeList()
			b.WriteString("<p>" + inlineHTML(line) + "</p>\n")
		}
	}
	closeList()
	return b.String()
}

var sepRow = regexp.MustCompile(`^\|(\s*:?-+:?\s*\|)+\s*$`)

func tableHTML(rows []string) string {
	var b strings.Builder
	b.WriteString("<table>\n")
	for i, row := range rows {
		if sepRow.MatchString(row) {
			continue
		}
		cells := strings.Split(strings.Trim(strings.TrimSpace(row), "|"), "|")
		tag := "td"
		if i == 0 {
			tag = "th"
		}
		b.WriteString("<tr>")
		for _, c := range cells {
			b.WriteString("<" + tag + ">" + inlineHTML(strings.TrimSpace(c)) + "</" + tag + ">")
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("</table>\n")
	return b.String()
}

var (
	codeSpan = regexp.MustCompile("`([^`]*)`")
	boldSpan = regexp.MustCompile(`\*\*([^*]+)\*\*`)
)

// inlineHTML escapes text and renders `code` and **bold**.
func inlineHTML(s string) string {
	s = html.EscapeString(s)
	s = codeSpan.ReplaceAllString(s, "<code>$1</code>")
	return boldSpan.ReplaceAllString(s, "<b>$1</b>")
}
