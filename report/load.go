package report

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"

	"github.com/merchant-harness/mph/loadtest/summary"
)

// Reporter writes one rendering of a result (vegeta's reporter shape).
type Reporter func(io.Writer) error

// Bytes renders r into memory.
func (r Reporter) Bytes() ([]byte, error) {
	var b bytes.Buffer
	err := r(&b)
	return b.Bytes(), err
}

// text adapts a string renderer to a Reporter.
func text(render func() string) Reporter {
	return func(w io.Writer) error {
		_, err := io.WriteString(w, render())
		return err
	}
}

// jsonReporter writes v as indented JSON.
func jsonReporter(v any) Reporter {
	return func(w io.Writer) error {
		b, err := json.MarshalIndent(v, "", "  ")
		if err != nil {
			return err
		}
		_, err = w.Write(b)
		return err
	}
}

// LoadJSON writes a load report as summary.json.
func LoadJSON(r *summary.Report) Reporter { return jsonReporter(r) }

// CompareJSON writes a comparison as compare.json.
func CompareJSON(c *summary.Comparison) Reporter { return jsonReporter(c) }

// WriteLoad redacts the load report (in place) and writes summary.json,
// summary.md and report.html into dir.
func WriteLoad(dir string, r *summary.Report) error {
	if err := RedactLoad(r); err != nil {
		return err
	}
	return WriteAll(dir, map[string]Reporter{
		"summary.json": LoadJSON(r),
		"summary.md":   LoadMarkdown(r),
		"report.html":  LoadHTML(r),
	})
}

// WriteAll renders each reporter into its named file of dir; a file is
// replaced whole or not at all.
func WriteAll(dir string, files map[string]Reporter) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for name, rep := range files {
		b, err := rep.Bytes()
		if err != nil {
			return err
		}
		if err := writeAtomic(filepath.Join(dir, name), b); err != nil {
			return err
		}
	}
	return nil
}
