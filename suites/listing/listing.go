// Package listing is the spec tree as users name it: the selected specs as
// `mph conform --list` prints them (text or JSON), and the spec IDs a user
// may give (--accept-no-verdict, waivers, a baseline's), current or
// renamed (suites/inventory.yaml). The IDs are the declarations' of the
// built tree: call it after framework.Preview.
package listing

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/merchant-harness/mph/requirements"
	"github.com/merchant-harness/mph/result"
	"github.com/merchant-harness/mph/suites"
	"github.com/merchant-harness/mph/suites/framework"
)

// Spec is one line of --list --json.
type Spec struct {
	ID           string   `json:"id"`
	Area         string   `json:"area"`
	Text         string   `json:"text"`
	Labels       []string `json:"labels"`
	Requirements []string `json:"requirements"`
	Location     string   `json:"location"`
}

// Write lists the specs the preview pv selects: a line each (ID, text,
// labels), or asJSON an array of Spec.
func Write(w io.Writer, pv types.Report, asJSON bool) error {
	var specs []Spec
	for _, sp := range framework.Selected(pv) {
		id := result.SpecID(sp)
		ls := Spec{ID: id, Area: result.AreaOf(id), Text: result.FullText(sp), Labels: result.Labels(sp),
			Location: fmt.Sprintf("%s/%s:%d", filepath.Base(filepath.Dir(sp.LeafNodeLocation.FileName)), filepath.Base(sp.LeafNodeLocation.FileName), sp.LeafNodeLocation.LineNumber)}
		for _, l := range ls.Labels {
			if _, ok := requirements.Lookup(l); ok {
				ls.Requirements = append(ls.Requirements, l)
			}
		}
		specs = append(specs, ls)
	}
	if asJSON {
		if specs == nil {
			specs = []Spec{}
		}
		b, err := json.MarshalIndent(specs, "", "  ")
		if err != nil {
			return err
		}
		_, err = fmt.Fprintln(w, string(b))
		return err
	}
	for _, s := range specs {
		fmt.Fprintf(w, "%s\t%s\t[%s]\n", s.ID, s.Text, strings.Join(s.Labels, ", "))
	}
	return nil
}

// ids are the current IDs of the declared specs.
func ids() map[string]bool {
	out := map[string]bool{}
	for _, d := range framework.Declarations() {
		out[d.ID] = true
	}
	return out
}

// Known is what a waivers file may name: current spec IDs, requirement
// IDs, and former spec IDs with their current ones.
func Known() result.KnownIDs {
	current := ids()
	return result.KnownIDs{
		Spec:        func(id string) bool { return current[id] },
		Requirement: func(id string) bool { _, ok := requirements.Lookup(id); return ok },
		Renamed:     suites.Renamed(),
	}
}

// Rebase renames the specs of a baseline's summary to their current IDs.
func Rebase(b *result.Summary) error {
	current := ids()
	return b.RenameSpecs(suites.Renamed(), func(id string) bool { return current[id] })
}

// AcceptedNoVerdicts checks a --accept-no-verdict list: current spec IDs
// or all; a former ID is refused with the spec's current one, an unknown
// ID is refused (it would accept nothing, and the gate would read the
// wrong verdict).
func AcceptedNoVerdicts(list []string) ([]string, error) {
	current := ids()
	renamed := suites.Renamed()
	var out, problems []string
	for _, id := range list {
		id = strings.TrimSpace(id)
		switch {
		case id == "":
			continue
		case id == result.AcceptAll || current[id]:
			out = append(out, id)
		case renamed[id] != "":
			problems = append(problems, fmt.Sprintf("%s: the spec's ID is now %s (suites/inventory.yaml)", id, renamed[id]))
		default:
			problems = append(problems, id+": unknown spec ID (see mph conform --list)")
		}
	}
	if len(problems) > 0 {
		return nil, fmt.Errorf("--accept-no-verdict: %s", strings.Join(problems, "; "))
	}
	return out, nil
}
