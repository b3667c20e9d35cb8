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
}).Parse(htmlTemplate))

// HTML renders a self-contained page (no scripts, no remote assets).
func HTML(r Report) ([]byte, error) {
	var b bytes.Buffer
	if err := htmlTmpl.Execute(&b, r); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
