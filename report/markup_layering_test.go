package report_test

import (
	"go/parser"
	"go/token"
	"strconv"
	"strings"
	"testing"

	"github.com/merchant-harness/mph/internal/modroot"
)

// Commands and engines produce data; package report renders every output.
// No non-test file outside report/ imports an HTML or template package, and
// the engines (loadtest, proxy and their subpackages) do not import report.
func TestOnlyReportRendersMarkup(t *testing.T) {
	markup := map[string]bool{"html": true, "html/template": true, "text/template": true, "golang.org/x/net/html": true}
	var files int
	err := modroot.Sources([]string{"report"}, func(path, rel string) error {
		engine := strings.HasPrefix(rel, "loadtest/") || strings.HasPrefix(rel, "proxy/")
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		files++
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			if markup[p] || (engine && p == "github.com/merchant-harness/mph/report") {
				t.Errorf("%s imports %s: rendering belongs in package report", rel, p)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 150 {
		t.Fatalf("read %d files: wrong directory?", files)
	}
}
