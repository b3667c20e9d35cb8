// Package loadreport renders the results of the load commands (package
// loadtest/summary), each format a report.Reporter: summary.json,
// summary.md, report.html (html/template + go:embed: inline CSS and SVG
// charts, no script), the console brief, the thresholds as JUnit, the
// probe, topology and capacity sections, and the comparison pages. Write
// redacts a report before any writer renders it.
package loadreport
