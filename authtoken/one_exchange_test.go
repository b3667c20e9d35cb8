package authtoken

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/merchant-harness/mph/internal/modroot"
)

// wireNames are the literals that build or read an exchange: the path, the
// body's secret member and the answer's token member.
var wireNames = map[string]bool{Path: true, "secretKey": true, "accessToken": true}

// mayNameTheWire are the directories (relative to the module root) that
// name the exchange's wire form for another reason than exchanging: the
// endpoint table lists it (api), the sandbox serves it, the specs and the
// proxy judge it, openapi documents it, bench's echo server imitates it.
var mayNameTheWire = []string{"api", "authtoken", "sandbox", "suites", "proxy", "openapi", "bench"}

// callers must exchange through Exchange.
var callers = []string{"client/tokens.go", "loadtest/tokens/tokens.go", "config/preflight.go"}

// TestOneTokenExchange fails when code outside this package builds the
// exchange request or decodes its answer by hand, and when a known caller
// stops going through Exchange.
func TestOneTokenExchange(t *testing.T) {
	var found []string
	err := modroot.Sources(mayNameTheWire, func(path, rel string) error {
		found = append(found, wireLiterals(t, path, rel)...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(found) > 0 {
		t.Errorf("the token exchange's wire form spelled outside authtoken (use authtoken.Exchange, Credentials.Body, Decode, Path):\n  %s", strings.Join(found, "\n  "))
	}
	root, err := modroot.Dir()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range callers {
		b, err := os.ReadFile(filepath.Join(root, c))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), "authtoken.Exchange(") {
			t.Errorf("%s no longer exchanges through authtoken.Exchange", c)
		}
	}
}

// wireLiterals lists the string literals and struct tags of one file that
// spell a wire name.
func wireLiterals(t *testing.T, path, rel string) []string {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatalf("%s: %v", rel, err)
	}
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		lit, ok := n.(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			return true
		}
		s, err := strconv.Unquote(lit.Value)
		if err != nil {
			return true
		}
		if wireNames[s] || tagNamesWire(s) {
			out = append(out, fmt.Sprintf("%s:%d: %s", rel, fset.Position(lit.Pos()).Line, lit.Value))
		}
		return true
	})
	return out
}

// tagNamesWire reports whether s is a struct tag naming a wire member.
func tagNamesWire(s string) bool {
	name, _, _ := strings.Cut(reflect.StructTag(s).Get("json"), ",")
	return name != "" && wireNames[name]
}

// TestWireLiteralsFindsThem proves the scanner sees a hand-made exchange.
func TestWireLiteralsFindsThem(t *testing.T) {
	dir := t.TempDir()
	src := "package x\nvar u = base + \"/auth/token\"\nvar b = map[string]string{\"secretKey\": k}\n" +
		"type a struct{ T string `json:\"accessToken\"` }\nvar ok = \"POST /auth/token answered 401\"\n"
	p := filepath.Join(dir, "x.go")
	if err := os.WriteFile(p, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := wireLiterals(t, p, "x.go"); len(got) != 3 {
		t.Fatalf("want the path, the secret member and the token tag, got %v", got)
	}
}
