package archcheck

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/merchant-harness/mph/internal/modroot"
)

// row is one room of ARCHITECTURE.md's table.
type row struct {
	rooms []string // the room cell's names (several rooms may share a row)
	may   []string // rooms or packages it may import
	every bool     // "every room"
}

var (
	backticked  = regexp.MustCompile("`([^`]+)`")
	parenthesis = regexp.MustCompile(`\([^()]*\)`)
)

// parseTable reads the rows of the table whose header is
// "| room | holds | may import |".
func parseTable(md string) []row {
	var rows []row
	in := false
	for _, line := range strings.Split(md, "\n") {
		switch {
		case strings.HasPrefix(line, "| room | holds | may import |"):
			in = true
			continue
		case !in || strings.HasPrefix(line, "| :-"):
			continue
		case !strings.HasPrefix(line, "|"):
			in = false
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), " | ")
		if len(cells) != 3 {
			continue
		}
		r := row{rooms: names(cells[0]), every: strings.Contains(cells[2], "every room")}
		for parenthesis.MatchString(cells[2]) {
			cells[2] = parenthesis.ReplaceAllString(cells[2], "")
		}
		r.may = names(cells[2])
		rows = append(rows, r)
	}
	return rows
}

func names(cell string) []string {
	var out []string
	for _, m := range backticked.FindAllStringSubmatch(cell, -1) {
		out = append(out, strings.TrimSuffix(m[1], "/"))
	}
	return out
}

// check returns what the table gets wrong about graph (package → the
// module's packages it imports, paths relative to the module).
func check(rows []row, graph map[string][]string) []string {
	var problems []string
	roomOf := func(pkg string) (string, *row) {
		best, bestRow := "", (*row)(nil)
		for i := range rows {
			for _, r := range rows[i].rooms {
				if (pkg == r || strings.HasPrefix(pkg, r+"/")) && len(r) > len(best) {
					best, bestRow = r, &rows[i]
				}
			}
		}
		return best, bestRow
	}
	used := map[string]bool{}
	pkgs := make([]string, 0, len(graph))
	for p := range graph {
		pkgs = append(pkgs, p)
	}
	sort.Strings(pkgs)
	for _, pkg := range pkgs {
		room, r := roomOf(pkg)
		if r == nil {
			problems = append(problems, pkg+": no row of the table covers it")
			continue
		}
		used[room] = true
		for _, imp := range graph[pkg] {
			impRoom, _ := roomOf(imp)
			if impRoom == room || r.every {
				continue
			}
			ok := false
			for _, m := range r.may {
				if m == imp || m == impRoom {
					ok, used["may:"+m] = true, true
				}
			}
			if !ok {
				problems = append(problems, pkg+" imports "+imp+": not in the may-import column of "+room)
			}
		}
	}
	for _, r := range rows {
		for _, name := range r.rooms {
			if !used[name] {
				problems = append(problems, "row "+name+": no package")
			}
		}
		for _, m := range r.may {
			if !used["may:"+m] && !exists(m, graph) {
				problems = append(problems, "row "+strings.Join(r.rooms, ", ")+": "+m+" names no package")
			}
		}
	}
	return problems
}

func exists(name string, graph map[string][]string) bool {
	for p := range graph {
		if p == name || strings.HasPrefix(p, name+"/") {
			return true
		}
	}
	return false
}

// importGraph is go list's graph of the module's packages: each package
// and the module's packages its non-test files import.
func importGraph(t *testing.T, root string) map[string][]string {
	t.Helper()
	mod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	module := strings.TrimPrefix(strings.SplitN(string(mod), "\n", 2)[0], "module ") + "/"
	cmd := exec.Command("go", "list", "-f", "{{.ImportPath}}{{range .Imports}} {{.}}{{end}}", "./...")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	graph := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		pkg := strings.TrimPrefix(f[0], module)
		graph[pkg] = nil
		for _, imp := range f[1:] {
			if strings.HasPrefix(imp, module) {
				graph[pkg] = append(graph[pkg], strings.TrimPrefix(imp, module))
			}
		}
	}
	return graph
}

// TestArchitectureMatchesTheImports: every package has its room, and every
// import of the module is one its room may make.
func TestArchitectureMatchesTheImports(t *testing.T) {
	root, err := modroot.Dir()
	if err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(filepath.Join(root, "ARCHITECTURE.md"))
	if err != nil {
		t.Fatal(err)
	}
	rows := parseTable(string(md))
	graph := importGraph(t, root)
	if len(rows) < 20 || len(graph) < 40 {
		t.Fatalf("read %d rows and %d packages: wrong file?", len(rows), len(graph))
	}
	for _, p := range check(rows, graph) {
		t.Error(p)
	}
	t.Logf("%d packages in %d rows checked", len(graph), len(rows))
}

// The check fails on a forbidden import, a package without a row and a
// row naming nothing.
func TestArchitectureCheckFails(t *testing.T) {
	rows := parseTable("| room | holds | may import |\n| :- | :- | :- |\n" +
		"| `app` | the CLI | every room |\n" +
		"| `low/` | below (`app` is above) | stdlib |\n" +
		"| `mid` | middle | `low` |\n" +
		"| `gone` | nothing | `low`, `nowhere` |\n")
	graph := map[string][]string{
		"app":      {"mid", "low/sub"},
		"mid":      {"low"},
		"low":      {"mid"},
		"low/sub":  {"low"},
		"orphan/x": nil,
	}
	want := []string{
		"low imports mid: not in the may-import column of low",
		"orphan/x: no row of the table covers it",
		"row gone: no package",
		"row gone: nowhere names no package",
	}
	got := check(rows, graph)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
