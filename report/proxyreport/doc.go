// Package proxyreport renders a proxy session (package proxy/session),
// each format a report.Reporter: junit.xml (a suite per side, a case per
// rule), report.json, report.html (html/template + go:embed, no script, no
// remote asset) and report.md.
package proxyreport
