package httpclient

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	pathpkg "path"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/merchant-harness/mph/internal/modroot"
)

// forbidden are the ways to get an HTTP client, transport, attacker or
// connection without this package's rules (package path -> names): its
// dial timeout, TLS verification, redirect and body policies.
var forbidden = map[string]map[string]bool{
	"net/http": {"Client": true, "Transport": true, "DefaultClient": true, "DefaultTransport": true,
		"Get": true, "Post": true, "Head": true, "PostForm": true},
	"github.com/tsenart/vegeta/v12/lib": {"NewAttacker": true, "Client": true},
	"net":                               {"Dial": true, "DialTimeout": true, "Dialer": true},
	"crypto/tls":                        {"Config": true, "Dial": true, "DialWithDialer": true, "Client": true},
}

// builtOnly are the forbidden names that are fine as types (parameters,
// fields): only building one is flagged.
var builtOnly = map[string]bool{"net/http.Client": true, "net/http.Transport": true, "net.Dialer": true, "crypto/tls.Config": true}

// allowedOutside lists the directories (relative to the module root) that
// may build their own: the reference sandbox's webhook sender talks to the
// harness's receiver, not to a target.
var allowedOutside = []string{"httpclient", "sandbox"}

// allowedIn lets one directory use one forbidden name: the load attack's
// own HTTP/1.1 connections (loadtest/wire) dial with httpclient's dialer
// and run the TLS handshake with httpclient's configuration.
var allowedIn = map[string]string{"crypto/tls.Client": "loadtest/wire"}

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
		if !forbidden[pkg][name] || (builtOnly[pkg+"."+name] && !built[sel]) || allowedIn[pkg+"."+name] == pathpkg.Dir(rel) {
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
	src := "package x\nimport (\n\tnh \"net/http\"\n\t\"net\"\n\t\"crypto/tls\"\n\tvegeta \"github.com/tsenart/vegeta/v12/lib\"\n)\n" +
		"var c = &nh.Client{}\nvar a = vegeta.NewAttacker()\nvar d = nh.DefaultClient\nvar t = new(nh.Transport)\nvar ok *nh.Client\n" +
		"var dl = &net.Dialer{}\nvar cf = &tls.Config{}\nvar tc = tls.Client\nvar okd *net.Dialer\nvar okc *tls.Config\n"
	p := filepath.Join(dir, "x.go")
	if err := os.WriteFile(p, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	got := constructions(t, p, "x.go")
	if len(got) != 7 {
		t.Fatalf("want the client, the attacker, the default client, the transport, the dialer, the TLS configuration and the TLS client, got %v", got)
	}
}
