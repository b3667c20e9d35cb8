package loadtest

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The load engine produces data; package report renders it. No non-test
// file of loadtest (or its subpackages) imports an HTML or template
// package, or report itself.
func TestLoadtestRendersNoMarkup(t *testing.T) {
	banned := map[string]bool{"html": true, "html/template": true, "text/template": true,
		"golang.org/x/net/html": true, "github.com/merchant-harness/mph/report": true}
	var files int
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		files++
		for _, im := range f.Imports {
			if p, _ := strconv.Unquote(im.Path.Value); banned[p] {
				t.Errorf("%s imports %s: rendering belongs in package report", path, p)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 20 {
		t.Fatalf("read %d files: wrong directory?", files)
	}
}
