// Package report renders every output of every command, each format a
// Reporter fed by data the command produced: for a conformance run the
// summary of package result (console, JUnit, JSON, HTML, Markdown, the
// plan); for the load commands the results of package loadtest/summary
// (summary.json, summary.md, report.html, JUnit and the comparison pages);
// for the proxy its session (package proxy/session). Redaction runs before
// any writer.
package report
