package proxy

import (
	"bytes"
	_ "embed"
	"html/template"
	"time"
)

//go:embed report.html.tmpl
var htmlTemplate string

var htmlTmpl = template.Must(template.New("report").Funcs(template.FuncMap{
	"time":     func(t time.Time) string { return t.UTC().Format(time.RFC3339) },
	"statuses": statusList,
	"sub":      func(a, b time.Time) string { return a.Sub(b).Round(time.Second).String() },
	"head": func(vs []Violation) []Violation {
		if len(vs) > maxHTMLRows {
			return vs[:maxHTMLRows]
		}
		return vs
	},
}).Parse(htmlTemplate))

// maxHTMLRows bounds the violations listed in the page (report.json has
// them all, up to maxKept).
const maxHTMLRows = 1000

// HTML renders a self-contained page (no scripts, no remote assets).
func HTML(r Report) ([]byte, error) {
	var b bytes.Buffer
	if err := htmlTmpl.Execute(&b, r); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
