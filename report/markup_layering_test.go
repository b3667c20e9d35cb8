package report_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/merchant-harness/mph/internal/modroot"
)

const module = "github.com/merchant-harness/mph/"

// The result models: data only, rendered by package report.
var models = map[string]bool{module + "result": true, module + "loadtest/summary": true, module + "proxy/session": true}

// referenceTables render the reference tables of a vocabulary into the
// README and docs (not the results of a run): the markup they may hold.
var referenceTables = map[string]string{
	"api/profile_doc.go":              "the README's profile keys",
	"config/environ.go":               "the README's variables",
	"sandbox/catalogue/markdown.go":   "docs/faults.md and docs/variants.md",
	"requirements/ledger/markdown.go": "docs/ledger.md",
	"cmd/mph/load_scenarios.go":       "the README's scenario list",
	"bench/report/render.go":          "bench/RESULTS.md and the README's bench block",
	"cmd/mph/sandbox.go":              "the header of a written profile (YAML comments)",
}

// answers are packages whose strings are the bytes a server answers
// (the reference sandbox answers as a target may, HTML included).
var answers = []string{"sandbox/"}

// markup is Markdown (table rows, headings) or HTML in a string literal.
var markup = regexp.MustCompile(`\| :?-|\|-{3}|(^|\\n)#{1,4} |</?(html|table|tr|td|div|span|body|h[1-6])[ >]`)

// Commands and engines produce data; package report and its subpackages
// (report/loadreport, ...) render every output of a run. Outside report/
// and everything below it: no file imports an HTML or template package,
// the engines (loadtest, proxy and their subpackages) import neither report
// nor a subpackage of it, the result models declare no writer, no function
// takes a result model and a writer, and no string holds Markdown or HTML
// markup but the reference tables' (referenceTables).
func TestOnlyReportRendersMarkup(t *testing.T) {
	templates := map[string]bool{"html": true, "html/template": true, "text/template": true, "golang.org/x/net/html": true}
	var files int
	seen := map[string]bool{}
	err := modroot.Sources([]string{"report"}, func(path, rel string) error {
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
		if err != nil {
			return err
		}
		files++
		engine := strings.HasPrefix(rel, "loadtest/") || strings.HasPrefix(rel, "proxy/")
		imports := map[string]string{} // name in the file → path
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			if templates[p] || (engine && isReport(p)) {
				t.Errorf("%s imports %s: rendering belongs in package report or below it", rel, p)
			}
			name := p[strings.LastIndex(p, "/")+1:]
			if im.Name != nil {
				name = im.Name.Name
			}
			imports[name] = p
		}
		model := models[module+strings.TrimSuffix(rel[:strings.LastIndex(rel, "/")+1], "/")]
		for _, d := range f.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok {
				checkRenderer(t, rel, fn, imports, model)
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING && markup.MatchString(lit.Value) {
				if _, ok := referenceTables[rel]; !ok && !isAnswer(rel) {
					t.Errorf("%s: markup in %s: rendering belongs in package report or below it", rel, cut(lit.Value))
				}
				seen[rel] = true
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 150 {
		t.Fatalf("read %d files: wrong directory?", files)
	}
	for rel := range referenceTables {
		if !seen[rel] {
			t.Errorf("%s renders no reference table any more: drop it from referenceTables", rel)
		}
	}
}

// checkRenderer flags a function of a result model taking a writer, and a
// function elsewhere taking a writer and a result model.
func checkRenderer(t *testing.T, rel string, fn *ast.FuncDecl, imports map[string]string, inModel bool) {
	var writer, model bool
	for _, fld := range fn.Type.Params.List {
		ast.Inspect(fld.Type, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if x, ok := sel.X.(*ast.Ident); ok {
					writer = writer || (imports[x.Name] == "io" && sel.Sel.Name == "Writer")
					model = model || models[imports[x.Name]]
				}
			}
			return true
		})
	}
	switch {
	case writer && inModel:
		t.Errorf("%s: %s writes: a result model holds data, package report renders it", rel, fn.Name.Name)
	case writer && model:
		t.Errorf("%s: %s renders a result model: make it a Reporter of package report or below it", rel, fn.Name.Name)
	}
}

// isReport reports whether an import path is package report or one of its
// subpackages.
func isReport(path string) bool {
	return path == module+"report" || strings.HasPrefix(path, module+"report/")
}

func isAnswer(rel string) bool {
	for _, a := range answers {
		if strings.HasPrefix(rel, a) {
			return true
		}
	}
	return false
}

func cut(s string) string {
	if len(s) > 60 {
		return s[:60] + "…"
	}
	return s
}
