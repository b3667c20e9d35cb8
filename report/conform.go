package report

import (
	"encoding/xml"
	"io"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/merchant-harness/mph/result"
)

// The renderings of a conformance run, each a Reporter of its result
// (package result); Console is the end-of-run summary of the terminal.

// ConformJUnit writes the JUnit report (JUnit).
func ConformJUnit(s result.Summary) Reporter {
	return func(w io.Writer) error {
		out, err := xml.MarshalIndent(JUnit(s), "", "  ")
		if err != nil {
			return err
		}
		_, err = io.WriteString(w, xml.Header+string(out)+"\n")
		return err
	}
}

// ConformHTML writes the self-contained HTML report (RenderHTML).
func ConformHTML(s result.Summary) Reporter {
	return func(w io.Writer) error {
		b, err := RenderHTML(s)
		if err != nil {
			return err
		}
		_, err = w.Write(b)
		return err
	}
}

// ConformMarkdown writes the Markdown summary (Markdown).
func ConformMarkdown(s result.Summary) Reporter { return Text(func() string { return Markdown(s) }) }

// ConformJSON writes Ginkgo's JSON report format (an array with one
// types.Report, so Ginkgo tooling reads it; harness errors are
// recognisable there by the "harness-error" report entry and the
// "[harness-error] " failure prefix), redacted.
func ConformJSON(r types.Report) Reporter { return redactedJSON([]types.Report{safeReport(r)}) }

// SummaryJSON writes the harness summary (report.summary.json).
func SummaryJSON(s result.Summary) Reporter { return redactedJSON(s) }

// WriteFile renders rep into path, replaced whole or not at all.
func WriteFile(path string, rep Reporter) error {
	b, err := rep.Bytes()
	if err != nil {
		return err
	}
	return writeAtomic(path, b)
}
