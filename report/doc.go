// Package report renders every output of every command, each format a
// Reporter fed by data the command produced: for a conformance run the
// summary of package result (console, JUnit, JSON, HTML, Markdown, the
// plan); for the proxy its session (package proxy/session). The load
// commands' renderings are in report/loadreport. Here too: the Reporter
// type, the writing of report files (whole or not at all) and the JUnit
// document. Redaction runs before any writer.
package report
