package proxyreport

import (
	"bytes"
	_ "embed"
	"html/template"
	"time"

	"github.com/merchant-harness/mph/proxy/session"
)

//go:embed templates/proxy.html.tmpl
var proxyHTMLTemplate string

var proxyHTMLTmpl = template.Must(template.New("report").Funcs(template.FuncMap{
	"time":     func(t time.Time) string { return t.UTC().Format(time.RFC3339) },
	"statuses": proxyStatusList,
	"sub":      func(a, b time.Time) string { return a.Sub(b).Round(time.Second).String() },
	"head": func(vs []session.Violation) []session.Violation {
		if len(vs) > proxyMaxHTMLRows {
			return vs[:proxyMaxHTMLRows]
		}
		return vs
	},
}).Parse(proxyHTMLTemplate))

// proxyMaxHTMLRows bounds the violations listed in the page (report.json has
// them all, up to maxKept).
const proxyMaxHTMLRows = 1000

// proxyHTML renders a self-contained page (no scripts, no remote assets).
func proxyHTML(r session.Report) ([]byte, error) {
	var b bytes.Buffer
	if err := proxyHTMLTmpl.Execute(&b, r); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
