package report

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/merchant-harness/mph/redact"
	"github.com/merchant-harness/mph/result"
)

func ensureDir(path string) error {
	if d := filepath.Dir(path); d != "" {
		return os.MkdirAll(d, 0o755)
	}
	return nil
}

// writeAtomic writes a report through a temporary file in the same
// directory, so a reader never sees half a report. The file gets the
// user's umask, as any file the user creates (0644 under the usual 022,
// 0600 under 077): reports are redacted, but who may read them is the
// user's call.
func writeAtomic(path string, data []byte) error {
	if err := ensureDir(path); err != nil {
		return err
	}
	f, err := createTemp(path)
	if err != nil {
		return err
	}
	tmp := f.Name()
	if _, err := f.Write(data); err != nil {
		f.Close()
		os.Remove(tmp)
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return err
	}
	return os.Rename(tmp, path)
}

// createTemp creates a new file beside path with mode 0666 less the umask
// (os.CreateTemp's files are 0600 whatever the umask).
func createTemp(path string) (*os.File, error) {
	for i := 0; ; i++ {
		var b [6]byte
		_, _ = rand.Read(b[:])
		name := filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+"-"+hex.EncodeToString(b[:]))
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
		if err == nil || !os.IsExist(err) || i >= 100 {
			return f, err
		}
	}
}

// WriteJSON writes the two JSON files of a run: Ginkgo's report format at
// path (ConformJSON) and, next to it, the harness summary with the
// outcomes counted apart (SummaryJSON at SummaryPath).
func WriteJSON(r types.Report, s result.Summary, path string) error {
	if err := WriteFile(path, ConformJSON(r)); err != nil {
		return err
	}
	return WriteFile(SummaryPath(path), SummaryJSON(s))
}

// SummaryPath is where WriteJSON puts the summary for a report path.
func SummaryPath(jsonPath string) string {
	return strings.TrimSuffix(jsonPath, filepath.Ext(jsonPath)) + ".summary.json"
}

// redactedJSON writes v as JSON, every string redacted again.
func redactedJSON(v any) Reporter {
	return func(w io.Writer) error {
		b, err := json.Marshal(v)
		if err != nil {
			return err
		}
		// Everything in the report was redacted and escaped at the source; do
		// it again to every string as a second line of defence (numbers such
		// as durations are kept).
		doc, err := DecodeJSON(b)
		if err != nil {
			return err
		}
		b, err = json.Marshal(redactStrings(doc, map[string]string{}))
		if err != nil {
			return err
		}
		_, err = w.Write(b)
		return err
	}
}

// DecodeJSON decodes a JSON document generically, numbers kept as written.
func DecodeJSON(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var doc any
	err := dec.Decode(&doc)
	return doc, err
}

// readableKeys hold code-authored spec texts and labels: kept as written.
var readableKeys = map[string]bool{
	"LeafNodeText": true, "ContainerHierarchyTexts": true, "LeafNodeLabels": true,
	"ContainerHierarchyLabels": true, "SuiteDescription": true, "SuiteLabels": true,
	"text": true, "labels": true, "id": true, "area": true,
}

// redactStrings masks every string of a decoded JSON document; seen
// remembers strings already masked (a Ginkgo report repeats many of them).
func redactStrings(v any, seen map[string]string) any {
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			if readableKeys[k] {
				continue
			}
			t[k] = redactStrings(x, seen)
		}
	case []any:
		for i, x := range t {
			t[i] = redactStrings(x, seen)
		}
	case string:
		if r, ok := seen[t]; ok {
			return r
		}
		r := redact.Safe(t)
		seen[t] = r
		return r
	}
	return v
}
