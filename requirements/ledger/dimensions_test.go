//go:build dimensions

package ledger

import (
	"slices"
	"testing"

	"github.com/merchant-harness/mph/requirements"
	"github.com/merchant-harness/mph/sandbox/variant"
)

// The open points and the sandbox's dimensions name each other: every open
// point (but those no check depends on) is varied by existing dimensions
// that list it, and every dimension varies at least one open point that
// exists and names it back. Built with -tags dimensions until
// variant.Dimensions() is on main.
func TestOpenPointsAndDimensionsAgree(t *testing.T) {
	dims := map[string][]string{}
	for _, d := range variant.Dimensions() {
		dims[d.Name] = d.OpenPoints
		if len(d.OpenPoints) == 0 {
			t.Errorf("dimension %s varies no open point", d.Name)
		}
		for _, id := range d.OpenPoints {
			o, ok := requirements.LookupOpen(id)
			switch {
			case !ok:
				t.Errorf("dimension %s names %s, which is no open point of requirements/open.yaml", d.Name, id)
			case !slices.Contains(o.Dimension, d.Name):
				t.Errorf("dimension %s names %s, whose dimensions are %v", d.Name, id, o.Dimension)
			}
		}
	}
	for _, o := range requirements.OpenPoints() {
		if o.Dimension.None() {
			continue
		}
		for _, d := range o.Dimension {
			points, ok := dims[d]
			switch {
			case !ok:
				t.Errorf("%s: no sandbox dimension %s", o.ID, d)
			case !slices.Contains(points, o.ID):
				t.Errorf("%s: dimension %s does not list it", o.ID, d)
			}
		}
	}
}
