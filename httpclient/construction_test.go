package httpclient

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/merchant-harness/mph/internal/modroot"
)

// forbidden are the ways to get an HTTP client, transport or attacker
// without this package's rules (package path -> names).
var forbidden = map[string]map[string]bool{
	"net/http": {"Client": true, "Transport": true, "DefaultClient": true, "DefaultTransport": true,
		"Get": true, "Post": true, "Head": true, "PostForm": true},
	"github.com/tsenart/vegeta/v12/lib": {"NewAttacker": true, "Client": true},
}

// allowedOutside lists the directories (relative to the module root) that
// may build their own: the reference sandbox's webhook sender talks to the
// harness's receiver, not to a target.
var allowedOutside = []string{"httpclient", "sandbox"}

// TestOneBuilderOfClients fails on any construction of an http.Client,
// http.Transport or vegeta attacker (or use of the default client) outside
// httpclient, so the redirect, timeout and body rules cannot diverge again.
func TestOneBuilderOfClients(t *testing.T) {
	var found []string
	err := modroot.Sources(allowedOutside, func(path, rel string) error {
		found = append(found, constructions(t, path, rel)...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(found) > 0 {
		t.Fatalf("HTTP clients, transports or attackers built outside httpclient (use httpclient.New / NewAttacker):\n  %s", strings.Join(found, "\n  "))
	}
}

// constructions lists the forbidden selectors used in one file.
func constructions(t *testing.T, path, rel string) []string {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatalf("%s: %v", rel, err)
	}
	local := map[string]string{} // import name -> path
	for _, im := range f.Imports {
		p, _ := strconv.Unquote(im.Path.Value)
		name := p[strings.LastIndex(p, "/")+1:]
		if p == "github.com/tsenart/vegeta/v12/lib" {
			name = "vegeta" // the package's own name
		}
		if im.Name != nil {
			name = im.Name.Name
		}
		local[name] = p
	}
	// Types are fine as types (*http.Client parameters); only building one
	// (a composite literal or new) or using a ready-made one is flagged.
	built := map[ast.Expr]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.CompositeLit:
			built[x.Type] = true
		case *ast.CallExpr:
			if id, ok := x.Fun.(*ast.Ident); ok && id.Name == "new" && len(x.Args) == 1 {
				built[x.Args[0]] = true
			}
		}
		return true
	})
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		id, ok := sel.X.(*ast.Ident)
		if !ok {
			return true
		}
		pkg, name := local[id.Name], sel.Sel.Name
		if !forbidden[pkg][name] || (pkg == "net/http" && (name == "Client" || name == "Transport") && !built[sel]) {
			return true
		}
		out = append(out, fmt.Sprintf("%s:%d: %s.%s", rel, fset.Position(sel.Pos()).Line, id.Name, name))
		return true
	})
	return out
}

// TestConstructionsFindsOne proves the scanner sees a construction.
func TestConstructionsFindsOne(t *testing.T) {
	dir := t.TempDir()
	src := "package x\nimport (\n\tnh \"net/http\"\n\tvegeta \"github.com/tsenart/vegeta/v12/lib\"\n)\nvar c = &nh.Client{}\nvar a = vegeta.NewAttacker()\nvar d = nh.DefaultClient\nvar t = new(nh.Transport)\nvar ok *nh.Client\n"
	p := filepath.Join(dir, "x.go")
	if err := os.WriteFile(p, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	got := constructions(t, p, "x.go")
	if len(got) != 4 {
		t.Fatalf("want the client, the attacker, the default client and the transport, got %v", got)
	}
}
