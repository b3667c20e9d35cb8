package main

import (
	"os"
	"strings"

	"github.com/merchant-harness/mph/suites/coverage"
)

// printCoverage prints what the built spec tree covers (package coverage):
// the requirements' table, then the rule × endpoint grid of the
// cross-cutting rules (asJSON: the grid alone, as JSON). It fails when a
// testable requirement has no spec at all, or an applicable cell of the
// grid none.
func printCoverage(asJSON bool) error {
	g := coverage.BuildGrid()
	if asJSON {
		if err := g.WriteJSON(os.Stdout); err != nil {
			return err
		}
		return gridVerdict(g)
	}
	uncovered := coverage.WriteRequirements(os.Stdout)
	g.Write(os.Stdout)
	if len(uncovered) > 0 {
		return failuresErr("uncovered testable requirements: %s", strings.Join(uncovered, ", "))
	}
	return gridVerdict(g)
}

// gridVerdict fails on an applicable cell no spec checks, or a spec
// declaring a cell the rule table does not apply.
func gridVerdict(g coverage.Grid) error {
	if why := g.Problem(); why != "" {
		return failuresErr("%s", why)
	}
	return nil
}
