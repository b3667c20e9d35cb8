package main

import (
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// The counts the README and the pages of docs/ quote (requirements and
// their coverage, faults, variants, schemas, versions) sit between inline
// markers,
// <!-- gen:KEY -->VALUE<!-- /gen -->, and are what the commands print today.
// `go test ./cmd/mph -run TestReadmeFigures -update-readme` rewrites them.
var updateReadme = flag.Bool("update-readme", false, "rewrite the generated figures and blocks of README.md and docs/")

var genMarker = regexp.MustCompile(`<!-- gen:([a-zA-Z]+) -->(.*?)<!-- /gen -->`)

func TestReadmeFiguresCurrent(t *testing.T) {
	want := readmeFigures(t)
	pages, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	var stale []string
	for _, path := range append([]string{"../../README.md"}, pages...) {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		name := strings.TrimPrefix(path, "../../")
		out := genMarker.ReplaceAllStringFunc(string(b), func(m string) string {
			sub := genMarker.FindStringSubmatch(m)
			key, got := sub[1], sub[2]
			seen[key] = true
			v, ok := want[key]
			if !ok {
				t.Errorf("%s: marker gen:%s names no generated figure", name, key)
				return m
			}
			if got != v {
				stale = append(stale, fmt.Sprintf("%s: %s says %q, the commands say %q", key, name, got, v))
			}
			return "<!-- gen:" + key + " -->" + v + "<!-- /gen -->"
		})
		if *updateReadme && out != string(b) {
			if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	for key := range want {
		if !seen[key] {
			t.Errorf("figure %s is quoted nowhere in README.md or docs/ (marker <!-- gen:%s -->)", key, key)
		}
	}
	if len(stale) > 0 && !*updateReadme {
		sort.Strings(stale)
		t.Errorf("figures of README.md and docs/ are stale (go test ./cmd/mph -run TestReadmeFigures -update-readme):\n  %s", strings.Join(stale, "\n  "))
	}
}

// readmeFigures runs the commands whose output the README quotes.
func readmeFigures(t *testing.T) map[string]string {
	t.Helper()
	bin := mphBinary(t)
	run := func(args ...string) string {
		cmd := exec.Command(bin, args...)
		cmd.Dir = t.TempDir()
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("mph %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	f := coverageFigures(t, run("conform", "--coverage", "--no-color"))
	for k, v := range faultFigures(t, run("sandbox", "--list-faults", "--format", "markdown")) {
		f[k] = v
	}
	for k, v := range variantFigures(t, run("sandbox", "--list-variants", "--format", "markdown")) {
		f[k] = v
	}
	for k, v := range moduleFigures(t) {
		f[k] = v
	}
	f["proxyFaults"] = strconv.Itoa(proxyFaultCases(t))
	return f
}

var (
	covTotals = regexp.MustCompile(`(?m)^(\d+) requirements, (\d+) testable$`)
	covLevel  = regexp.MustCompile(`(?m)^\s+covered with (a plain TEST server|\+ a second TEST merchant|\+ LIVE credentials):\s+(\d+) of \d+ \((\d+)%\)$`)
	covOnly   = regexp.MustCompile(`(?m)^covered only through sandbox controls \((\d+)\): (.+)$`)
)

// coverageFigures reads the closing lines of `mph conform --coverage`.
func coverageFigures(t *testing.T, out string) map[string]string {
	t.Helper()
	tot := covTotals.FindStringSubmatch(out)
	only := covOnly.FindStringSubmatch(out)
	levels := covLevel.FindAllStringSubmatch(out, -1)
	if tot == nil || only == nil || len(levels) != 3 {
		t.Fatalf("mph conform --coverage: totals, levels or controls-only line not found in:\n%s", out)
	}
	n := func(s string) int { v, _ := strconv.Atoi(s); return v }
	all, testable := n(tot[1]), n(tot[2])
	plain, second, live := n(levels[0][2]), n(levels[1][2]), n(levels[2][2])
	return map[string]string{
		"requirements":    tot[1],
		"testable":        tot[2],
		"untestable":      strconv.Itoa(all - testable),
		"plain":           levels[0][2],
		"plainPct":        levels[0][3] + "%",
		"second":          strconv.Itoa(second - plain),
		"secondTotal":     levels[1][2],
		"live":            strconv.Itoa(live - second),
		"liveTotal":       levels[2][2],
		"controlsOnly":    only[1],
		"controlsOnlyIDs": compactIDs(strings.Split(only[2], ", ")),
	}
}

// compactIDs writes runs of three or more consecutive IDs of one area as
// "TXN-01 to TXN-11".
func compactIDs(ids []string) string {
	var out []string
	for i := 0; i < len(ids); {
		j := i
		for j+1 < len(ids) && nextID(ids[j], ids[j+1]) {
			j++
		}
		if j-i >= 2 {
			out = append(out, ids[i]+" to "+ids[j])
		} else {
			out = append(out, ids[i:j+1]...)
		}
		i = j + 1
	}
	return strings.Join(out, ", ")
}

func nextID(a, b string) bool {
	pa, na, ok1 := strings.Cut(a, "-")
	pb, nb, ok2 := strings.Cut(b, "-")
	x, err1 := strconv.Atoi(na)
	y, err2 := strconv.Atoi(nb)
	return ok1 && ok2 && err1 == nil && err2 == nil && pa == pb && y == x+1
}

var (
	faultTotal   = regexp.MustCompile(`(?m)^(\d+) faults in \d+ areas\.$`)
	faultArea    = regexp.MustCompile(`(?m)^## (.+) \((\d+)\)$`)
	variantTotal = regexp.MustCompile(`(?m)^(\d+) variants\.$`)
	variantRow   = regexp.MustCompile("(?m)^\\| `[a-z0-9-]+` \\|.*\\| ([^|]+) \\|$")
)

// faultFigures: the catalogue's size and its areas, as docs/faults.md
// heads them ("authentication (9), ...").
func faultFigures(t *testing.T, md string) map[string]string {
	t.Helper()
	tot := faultTotal.FindStringSubmatch(md)
	areas := faultArea.FindAllStringSubmatch(md, -1)
	if tot == nil || len(areas) == 0 {
		t.Fatalf("mph sandbox --list-faults --format markdown: no total or areas in:\n%s", md)
	}
	var parts []string
	for _, a := range areas {
		parts = append(parts, fmt.Sprintf("%s (%s)", strings.ToLower(a[1]), a[2]))
	}
	return map[string]string{"faults": tot[1], "faultAreas": strings.Join(parts, ", ")}
}

// variantFigures: how many variants, and how many need a profile overlay
// (the last column of docs/variants.md says "default" otherwise).
func variantFigures(t *testing.T, md string) map[string]string {
	t.Helper()
	tot := variantTotal.FindStringSubmatch(md)
	rows := variantRow.FindAllStringSubmatch(md, -1)
	if tot == nil || strconv.Itoa(len(rows)) != tot[1] {
		t.Fatalf("mph sandbox --list-variants --format markdown: total %v but %d rows", tot, len(rows))
	}
	overlay := 0
	for _, r := range rows {
		if strings.TrimSpace(r[1]) != "default" {
			overlay++
		}
	}
	return map[string]string{"variants": tot[1], "overlayVariants": strconv.Itoa(overlay)}
}

var (
	goDirective = regexp.MustCompile(`(?m)^go (\d+\.\d+(?:\.\d+)?)\s*$`)
	kinVersion  = regexp.MustCompile(`(?m)github\.com/getkin/kin-openapi (v\S+)`)
)

// moduleFigures: the Go release go.mod needs, kin-openapi's version and the
// number of embedded JSON Schema files.
func moduleFigures(t *testing.T) map[string]string {
	t.Helper()
	mod, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	g, k := goDirective.FindSubmatch(mod), kinVersion.FindSubmatch(mod)
	schemas, err := filepath.Glob("../../schemas/*.json")
	if err != nil || g == nil || k == nil || len(schemas) == 0 {
		t.Fatalf("go.mod: go %q, kin-openapi %q; schemas %d (%v)", g, k, len(schemas), err)
	}
	return map[string]string{"go": string(g[1]), "kinOpenAPI": string(k[1]), "schemas": strconv.Itoa(len(schemas))}
}

// proxyFaultCases counts the faults proxy's TestFaultsAreReported puts the
// proxy in front of (the entries of its cases table).
func proxyFaultCases(t *testing.T) int {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "../../proxy/proxy_test.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	n := -1
	ast.Inspect(f, func(node ast.Node) bool {
		fn, ok := node.(*ast.FuncDecl)
		if !ok || fn.Name.Name != "TestFaultsAreReported" {
			return true
		}
		ast.Inspect(fn.Body, func(node ast.Node) bool {
			if lit, ok := node.(*ast.CompositeLit); ok && n < 0 {
				if _, slice := lit.Type.(*ast.ArrayType); slice {
					n = len(lit.Elts)
				}
			}
			return n < 0
		})
		return false
	})
	if n <= 0 {
		t.Fatal("proxy/proxy_test.go: no cases table in TestFaultsAreReported")
	}
	return n
}
