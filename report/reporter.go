package report

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
)

// Reporter writes one rendering of a result (vegeta's reporter shape).
type Reporter func(io.Writer) error

// Bytes renders r into memory.
func (r Reporter) Bytes() ([]byte, error) {
	var b bytes.Buffer
	err := r(&b)
	return b.Bytes(), err
}

// Text adapts a string renderer to a Reporter.
func Text(render func() string) Reporter {
	return func(w io.Writer) error {
		_, err := io.WriteString(w, render())
		return err
	}
}

// JSON writes v as indented JSON.
func JSON(v any) Reporter {
	return func(w io.Writer) error {
		b, err := json.MarshalIndent(v, "", "  ")
		if err != nil {
			return err
		}
		_, err = w.Write(b)
		return err
	}
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
