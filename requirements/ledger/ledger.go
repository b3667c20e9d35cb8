// Package ledger builds the citation ledger (docs/ledger.md): for every
// requirement of the catalogue its quote, the specs that cite it, the schema
// constraints that cite it and the profile keys those specs read; for every
// open point its quote, reading, profile keys and sandbox dimension. A test
// regenerates it (-update-ledger) and fails when the committed file is stale.
package ledger

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/merchant-harness/mph/requirements"
	"github.com/merchant-harness/mph/schemas"
)

// Spec is one conformance spec of the inventory.
type Spec struct {
	ID           string   `yaml:"id"`
	Text         string   `yaml:"text"`
	Requirements []string `yaml:"requirements"`
	// ProfileKeys are the profile keys its body reads (SpecProfileKeys).
	ProfileKeys []string `yaml:"-"`
}

// Ledger is everything docs/ledger.md shows.
type Ledger struct {
	Requirements []requirements.Requirement
	OpenPoints   []requirements.OpenPoint
	Constraints  []schemas.Constraint
	Specs        []Spec
}

// Build reads the ledger's sources from the module rooted at root: the
// catalogue and open points (embedded), the schemas' constraints
// (embedded), the spec inventory (suites/inventory.yaml, kept equal to the
// spec tree by cmd/mph's TestSpecInventory) and the suites' sources for the
// profile keys each spec reads.
func Build(root string) (*Ledger, error) {
	cs, err := schemas.Constraints()
	if err != nil {
		return nil, err
	}
	raw, err := os.ReadFile(filepath.Join(root, "suites", "inventory.yaml"))
	if err != nil {
		return nil, err
	}
	var specs []Spec
	if err := yaml.Unmarshal(raw, &specs); err != nil {
		return nil, fmt.Errorf("suites/inventory.yaml: %w", err)
	}
	ids := make([]string, len(specs))
	for i, sp := range specs {
		ids[i] = sp.ID
	}
	keys, err := SpecProfileKeys(ids, SuiteDirs(root)...)
	if err != nil {
		return nil, err
	}
	for i := range specs {
		specs[i].ProfileKeys = keys[specs[i].ID]
	}
	sort.Slice(specs, func(i, j int) bool { return specs[i].ID < specs[j].ID })
	return &Ledger{
		Requirements: requirements.All(),
		OpenPoints:   requirements.OpenPoints(),
		Constraints:  cs,
		Specs:        specs,
	}, nil
}

// SpecsCiting returns the specs that cite the requirement.
func (l *Ledger) SpecsCiting(id string) []Spec {
	var out []Spec
	for _, s := range l.Specs {
		for _, r := range s.Requirements {
			if r == id {
				out = append(out, s)
				break
			}
		}
	}
	return out
}

// ConstraintsCiting returns the schema constraints whose citation names id
// (a requirement, an open point or "profile:" + a key).
func (l *Ledger) ConstraintsCiting(id string) []schemas.Constraint {
	var out []schemas.Constraint
	for _, c := range l.Constraints {
		for _, x := range c.Cites {
			if x == id {
				out = append(out, c)
				break
			}
		}
	}
	return out
}

// OpenPointsAffecting returns the open points that bear on the requirement.
func (l *Ledger) OpenPointsAffecting(id string) []requirements.OpenPoint {
	var out []requirements.OpenPoint
	for _, o := range l.OpenPoints {
		for _, r := range o.Affects {
			if r == id {
				out = append(out, o)
				break
			}
		}
	}
	return out
}

// profileKeysOf merges the profile keys of the specs, dropping a section
// when one of its keys is listed.
func profileKeysOf(specs []Spec) []string {
	set := map[string]bool{}
	for _, s := range specs {
		for _, k := range s.ProfileKeys {
			set[k] = true
		}
	}
	var out []string
	for k := range set {
		covered := false
		for o := range set {
			if strings.HasPrefix(o, k+".") {
				covered = true
				break
			}
		}
		if !covered {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// SuiteDirs are the directories of the specs and of every room they call
// into (suites/ and each package below it: the framework, the fixtures, the
// assertions, the webhook receiver), so that a key read in a new room is
// found without naming the room here.
func SuiteDirs(root string) []string {
	dirs := []string{filepath.Join(root, "suites")}
	entries, _ := os.ReadDir(filepath.Join(root, "suites"))
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		dir := filepath.Join(root, "suites", e.Name())
		if gos, _ := filepath.Glob(filepath.Join(dir, "*.go")); len(gos) > 0 {
			dirs = append(dirs, dir)
		}
	}
	return dirs
}
