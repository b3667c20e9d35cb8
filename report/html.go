package report

import (
	"html/template"
	"os"
	"strings"
	"time"

	"github.com/onsi/ginkgo/v2/types"
)

var page = template.Must(template.New("report").Funcs(template.FuncMap{
	"lower": strings.ToLower,
	"join":  strings.Join,
	"round": roundDuration,
}).Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>{{.Suite}}: conformance report</title>
<style>
body{font-family:system-ui,sans-serif;margin:2em;color:#222}
h1{font-size:1.4em} table{border-collapse:collapse;width:100%}
td,th{border-bottom:1px solid #ddd;padding:.3em .5em;text-align:left;vertical-align:top;font-size:.9em}
.passed{color:#17692b}.failed{color:#b00020;font-weight:bold}.skipped{color:#8a6d00}.harness-error{color:#6a1b9a;font-weight:bold}.pending{color:#666}
.counts span{display:inline-block;margin-right:1.5em;font-size:1.1em}
pre{white-space:pre-wrap;background:#f6f6f6;padding:.5em;font-size:.85em;max-height:40em;overflow:auto}
.lbl{display:inline-block;background:#eef;border-radius:3px;padding:0 .3em;margin:0 .2em .2em 0;font-size:.8em}
</style></head><body>
<h1>{{.Suite}}</h1>
<p>Started {{.Start.UTC.Format "2006-01-02 15:04:05 UTC"}}, ran {{round .Duration}}.</p>
<p class="counts"><span class="passed">{{.Passed}} passed</span><span class="failed">{{.Failed}} failed</span><span class="skipped">{{.Skipped}} skipped</span><span class="harness-error">{{.HarnessErrors}} harness errors</span>{{if .Pending}}<span class="pending">{{.Pending}} pending</span>{{end}}</p>
<p><small>failed: the target broke a rule · skipped: a precondition is missing · harness error: the harness could not run the check</small></p>
{{range .SuiteErrors}}<p class="harness-error">Suite error: {{.}}</p>{{end}}
{{if .SkipReasons}}<h2>Skipped, by reason</h2><ul>{{range .SkipReasons}}<li>{{len .Specs}} × {{.Reason}}</li>{{end}}</ul>{{end}}
<h2>Specs</h2>
<table><tr><th>Outcome</th><th>Spec</th><th>Labels</th><th>Time</th></tr>
{{range .Specs}}<tr><td class="{{.Outcome}}">{{.Outcome}}</td><td>{{.Text}}
{{if .Message}}<details{{if or (eq .Outcome "failed") (eq .Outcome "harness-error")}} open{{end}}><summary>details</summary><pre>{{.Message}}</pre>{{if .Details}}<pre>{{.Details}}</pre>{{end}}</details>{{end}}</td>
<td>{{range .Labels}}<span class="lbl">{{.}}</span>{{end}}</td><td>{{round .Duration}}</td></tr>
{{end}}</table>
</body></html>
`))

// WriteHTML writes a self-contained HTML summary of the run.
func WriteHTML(r types.Report, path string) error {
	if err := ensureDir(path); err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return page.Execute(f, Summarize(r))
}

// roundDuration keeps three significant figures or so: 11.2ms, 3.51s, 855µs.
func roundDuration(d time.Duration) time.Duration {
	switch {
	case d >= 10*time.Second:
		return d.Round(100 * time.Millisecond)
	case d >= time.Second:
		return d.Round(10 * time.Millisecond)
	case d >= 10*time.Millisecond:
		return d.Round(100 * time.Microsecond)
	case d >= time.Millisecond:
		return d.Round(10 * time.Microsecond)
	}
	return d.Round(time.Microsecond)
}
