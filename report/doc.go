// Package report renders every output of every command, each format a
// Reporter fed by data the command produced: here, for a conformance run,
// the summary of package result (console, JUnit, JSON, HTML, Markdown, the
// plan); the load commands' renderings are in report/loadreport, the
// proxy's in report/proxyreport. Here too, for them: the Reporter type, the
// writing of report files (whole or not at all) and the JUnit document.
// Redaction runs before any writer.
package report
