package ledger

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/merchant-harness/mph/api"
)

// SpecProfileKeys reads the Go sources of the given directories (the suites
// and their framework, which the suites dot-import) and returns, for each of
// the spec IDs, the profile keys (YAML paths of api.Profile, e.g.
// cards.listMaxLimit) its declaration reads: directly, through a variable
// holding part of the profile, or through the package-level functions and
// methods it calls, transitively. A declaration is the call that takes the
// ID (ConformanceIt, ConformanceEntry or a helper building one) with the
// body of its ConformanceTable; an ID given in a composite literal (a table
// of rules run by one body) gets the keys of its whole file. A method call
// is resolved by name to every method of that name in the sources, so a
// list may hold a key a spec does not reach; it misses none read through
// these packages. An ID not found in the sources is absent from the result.
func SpecProfileKeys(ids []string, dirs ...string) (map[string][]string, error) {
	s := &scan{fset: token.NewFileSet(), funcs: map[string][]*ast.BlockStmt{}}
	for _, dir := range dirs {
		if err := s.parseDir(dir); err != nil {
			return nil, err
		}
	}
	want := map[string]bool{}
	for _, id := range ids {
		want[id] = true
	}
	out := map[string][]string{}
	type prefixed struct {
		prefix string
		nodes  []ast.Node
	}
	var dynamic []prefixed // SpecID("prefix-" + expr): IDs built in a loop
	var stems []prefixed   // "area.rule" literals: IDs built from a rule table's field
	for _, f := range s.files {
		var stack []ast.Node
		ast.Inspect(f, func(n ast.Node) bool {
			if n == nil {
				stack = stack[:len(stack)-1]
				return true
			}
			if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
				if id, err := strconv.Unquote(lit.Value); err == nil && want[id] {
					if _, done := out[id]; !done {
						out[id] = s.keysOf(declaration(f, stack, lit))
					}
				} else if err == nil && idStem.MatchString(id) {
					stems = append(stems, prefixed{id + "-", declaration(f, stack, lit)})
				}
			}
			if c, ok := n.(*ast.CallExpr); ok && calleeName(c.Fun) == "SpecID" && len(c.Args) == 1 {
				if p := literalPrefix(c.Args[0]); p != "" {
					dynamic = append(dynamic, prefixed{p, declaration(f, stack, c)})
				}
			}
			stack = append(stack, n)
			return true
		})
	}
	for _, id := range ids {
		if _, done := out[id]; done {
			continue
		}
		// A loop's literal prefix first; else the rule whose ID the spec's
		// starts with (SpecID(rule.id + "-" + endpoint)).
		for _, cands := range [][]prefixed{dynamic, stems} {
			best := -1
			for i, d := range cands {
				if strings.HasPrefix(id, d.prefix) && (best < 0 || len(d.prefix) > len(cands[best].prefix)) {
					best = i
				}
			}
			if best >= 0 {
				out[id] = s.keysOf(cands[best].nodes)
				break
			}
		}
	}
	return out, nil
}

// idStem is the form of a spec ID's stem in a rule table ("access.ip-whitelist").
var idStem = regexp.MustCompile(`^[a-z0-9-]+\.[a-z0-9-]+$`)

// literalPrefix returns the string literal an ID expression built by
// concatenation starts with ("" for a plain literal or anything else).
func literalPrefix(e ast.Expr) string {
	b, ok := e.(*ast.BinaryExpr)
	if !ok || b.Op != token.ADD {
		return ""
	}
	for {
		if l, ok := b.X.(*ast.BinaryExpr); ok && l.Op == token.ADD {
			b = l
			continue
		}
		break
	}
	if lit, ok := b.X.(*ast.BasicLit); ok && lit.Kind == token.STRING {
		p, _ := strconv.Unquote(lit.Value)
		return p
	}
	return ""
}

// declaration returns the nodes whose reads belong to the spec whose ID is
// lit, given lit's ancestors.
func declaration(f *ast.File, ancestors []ast.Node, lit ast.Node) []ast.Node {
	arg := lit
	for i := len(ancestors) - 1; i >= 0; i-- {
		switch a := ancestors[i].(type) {
		case *ast.CallExpr:
			if calleeName(a.Fun) == "SpecID" {
				arg = a
				continue
			}
			if !isArg(a, arg) {
				return []ast.Node{f}
			}
			nodes := []ast.Node{a}
			for j := i - 1; j >= 0; j-- {
				if t, ok := ancestors[j].(*ast.CallExpr); ok && calleeName(t.Fun) == "ConformanceTable" {
					for _, ta := range t.Args {
						if _, isCall := ta.(*ast.CallExpr); !isCall {
							nodes = append(nodes, ta)
						}
					}
					break
				}
			}
			return nodes
		case *ast.CompositeLit, *ast.KeyValueExpr:
			return []ast.Node{f}
		}
	}
	return []ast.Node{f}
}

func isArg(call *ast.CallExpr, n ast.Node) bool {
	for _, a := range call.Args {
		if a == n {
			return true
		}
	}
	return false
}

type scan struct {
	fset  *token.FileSet
	files []*ast.File
	// funcs maps a function name, or "." + a method name, to its bodies.
	funcs map[string][]*ast.BlockStmt
}

func (s *scan) parseDir(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(s.fset, filepath.Join(dir, name), nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		s.files = append(s.files, f)
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			key := fd.Name.Name
			if fd.Recv != nil {
				key = "." + key
			}
			s.funcs[key] = append(s.funcs[key], fd.Body)
		}
	}
	return nil
}

// keysOf returns the profile keys read in the nodes and in every function
// they call, sorted.
func (s *scan) keysOf(nodes []ast.Node) []string {
	set := map[string]bool{}
	seen := map[string]bool{}
	for _, n := range nodes {
		s.collect(n, set, seen)
	}
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func (s *scan) collect(n ast.Node, set, seen map[string]bool) {
	for _, k := range directKeys(n) {
		set[k] = true
	}
	ast.Inspect(n, func(m ast.Node) bool {
		call, ok := m.(*ast.CallExpr)
		if !ok {
			return true
		}
		name := ""
		switch f := call.Fun.(type) {
		case *ast.Ident:
			name = f.Name
		case *ast.IndexExpr: // a generic function instantiated explicitly
			if id, ok := f.X.(*ast.Ident); ok {
				name = id.Name
			}
		case *ast.SelectorExpr:
			name = "." + f.Sel.Name
		}
		if name == "" || seen[name] {
			return true
		}
		seen[name] = true
		for _, body := range s.funcs[name] {
			s.collect(body, set, seen)
		}
		return true
	})
}

// directKeys finds Profile().A.B... (or LoadedProfile().A.B...) chains (and chains rooted at a variable
// assigned one) in n, mapped to YAML paths.
func directKeys(n ast.Node) []string {
	aliases := map[string][]string{}
	ast.Inspect(n, func(m ast.Node) bool {
		as, ok := m.(*ast.AssignStmt)
		if !ok || len(as.Lhs) != len(as.Rhs) {
			return true
		}
		for i, l := range as.Lhs {
			id, ok := l.(*ast.Ident)
			if !ok {
				continue
			}
			if path, ok := chain(as.Rhs[i], aliases); ok {
				aliases[id.Name] = path
			}
		}
		return true
	})
	var out []string
	ast.Inspect(n, func(m ast.Node) bool {
		switch m.(type) {
		case *ast.SelectorExpr, *ast.IndexExpr, *ast.CallExpr:
		default:
			return true
		}
		path, ok := chain(m.(ast.Expr), aliases)
		if !ok || len(path) == 0 {
			return true
		}
		if k := yamlPath(path); k != "" {
			out = append(out, k)
		}
		return false // the longest chain is the one read
	})
	return out
}

// chain returns the Go path (field names and map keys) of an expression
// rooted at Profile() or at an alias of part of it.
func chain(e ast.Expr, aliases map[string][]string) ([]string, bool) {
	switch x := e.(type) {
	case *ast.CallExpr:
		if n := calleeName(x.Fun); (n == "Profile" || n == "LoadedProfile") && len(x.Args) == 0 {
			return []string{}, true
		}
	case *ast.Ident:
		p, ok := aliases[x.Name]
		return append([]string(nil), p...), ok
	case *ast.SelectorExpr:
		if p, ok := chain(x.X, aliases); ok {
			return append(p, x.Sel.Name), true
		}
	case *ast.IndexExpr:
		if p, ok := chain(x.X, aliases); ok {
			if lit, ok := x.Index.(*ast.BasicLit); ok && lit.Kind == token.STRING {
				if k, err := strconv.Unquote(lit.Value); err == nil {
					return append(p, "["+k+"]"), true
				}
			}
			return p, true
		}
	case *ast.ParenExpr:
		return chain(x.X, aliases)
	}
	return nil, false
}

// yamlPath maps a Go path of api.Profile to its YAML key, as far as the
// path names profile fields ("" when not even the first does).
func yamlPath(path []string) string {
	t := reflect.TypeOf(api.Profile{})
	var out []string
	for _, p := range path {
		if k, ok := strings.CutPrefix(p, "["); ok && t.Kind() == reflect.Map {
			out = append(out, strings.TrimSuffix(k, "]"))
			t = t.Elem()
			continue
		}
		if t.Kind() != reflect.Struct {
			break
		}
		f, ok := t.FieldByName(p)
		if !ok {
			break
		}
		name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if name == "" || name == "-" {
			break
		}
		out = append(out, name)
		t = f.Type
	}
	return strings.Join(out, ".")
}

func calleeName(e ast.Expr) string {
	switch f := e.(type) {
	case *ast.Ident:
		return f.Name
	case *ast.IndexExpr:
		return calleeName(f.X)
	case *ast.IndexListExpr:
		return calleeName(f.X)
	case *ast.SelectorExpr:
		return f.Sel.Name
	}
	return ""
}
