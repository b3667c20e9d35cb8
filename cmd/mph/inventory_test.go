package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/merchant-harness/mph/requirements"
	"github.com/merchant-harness/mph/result"
	"github.com/merchant-harness/mph/suites"
	"github.com/merchant-harness/mph/suites/listing"
)

var updateInventory = flag.Bool("update-inventory", false, "rewrite suites/inventory.yaml from the spec tree")

// TestSpecInventory keeps suites/inventory.yaml equal to the spec tree: every
// spec's ID, text and requirements. A spec added, reworded or removed shows
// in the inventory's diff; an ID that disappears fails here until the
// inventory says so (a renamed spec keeps its former ID under formerly, so
// waivers and baselines naming it are told or translated).
func TestSpecInventory(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	cmd := exec.Command(mphBinary(t), "conform", "--list", "--json")
	cmd.Dir = t.TempDir()
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("conform --list --json: %v", err)
	}
	var listed []listing.Spec
	if err := json.Unmarshal(out, &listed); err != nil {
		t.Fatal(err)
	}
	inv, err := suites.Inventory()
	if err != nil {
		t.Fatal(err)
	}
	if *updateInventory {
		writeInventory(t, listed, inv)
		return
	}
	byID := map[string]suites.InventoryEntry{}
	for _, e := range inv {
		byID[e.ID] = e
	}
	var problems []string
	seen := map[string]bool{}
	for _, s := range listed {
		seen[s.ID] = true
		e, ok := byID[s.ID]
		switch {
		case !ok:
			problems = append(problems, fmt.Sprintf("%s (%s) is not in the inventory: a new spec? run with -update-inventory", s.ID, s.Location))
		case e.Text != s.Text || !slices.Equal(e.Requirements, s.Requirements):
			problems = append(problems, fmt.Sprintf("%s changed: inventory %q %v, tree %q %v (run with -update-inventory)", s.ID, e.Text, e.Requirements, s.Text, s.Requirements))
		}
	}
	for _, e := range inv {
		if !seen[e.ID] {
			problems = append(problems, fmt.Sprintf("%s (%q) disappeared from the spec tree: removed on purpose? run with -update-inventory; renamed? list the old ID under formerly of the new one", e.ID, e.Text))
		}
	}
	if len(problems) > 0 {
		t.Fatalf("suites/inventory.yaml and the spec tree differ:\n  %s", strings.Join(problems, "\n  "))
	}
}

// writeInventory rewrites the inventory from the tree, keeping the former IDs
// of the specs still there; a spec whose text an entry of another ID had
// takes that ID as a former one (a renamed ID).
func writeInventory(t *testing.T, listed []listing.Spec, inv []suites.InventoryEntry) {
	former := map[string][]string{}
	byText := map[string]string{}
	for _, e := range inv {
		former[e.ID] = e.Formerly
		byText[e.Text] = e.ID
	}
	sort.Slice(listed, func(i, j int) bool { return listed[i].ID < listed[j].ID })
	var b strings.Builder
	b.WriteString(inventoryHeader)
	for _, s := range listed {
		f := former[s.ID]
		if old, ok := byText[s.Text]; ok && old != s.ID {
			f = append(append([]string{old}, former[old]...), f...)
		}
		text, _ := json.Marshal(s.Text)
		fmt.Fprintf(&b, "- id: %s\n  text: %s\n  requirements: [%s]\n", s.ID, text, strings.Join(s.Requirements, ", "))
		if len(f) > 0 {
			fmt.Fprintf(&b, "  formerly: [%s]\n", strings.Join(f, ", "))
		}
	}
	if err := os.WriteFile("../../suites/inventory.yaml", []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

const inventoryHeader = `# The conformance inventory: every spec and table entry by its stable ID, generated
# from the spec tree (go test ./cmd/mph -run TestSpecInventory -update-inventory) and
# checked by that test, so a renamed, reworded or removed spec shows up in review.
# formerly: IDs the spec had before (waivers name the new one; baselines are translated).

`

// TestWaiverExampleNamesCurrentIDs loads docs/waivers.example.yaml the way
// --waivers does: its IDs must name specs of the inventory.
func TestWaiverExampleNamesCurrentIDs(t *testing.T) {
	inv, err := suites.Inventory()
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	for _, e := range inv {
		ids[e.ID] = true
	}
	_, err = result.LoadWaivers("../../docs/waivers.example.yaml", result.KnownIDs{
		Spec:        func(id string) bool { return ids[id] },
		Requirement: func(id string) bool { _, ok := requirements.Lookup(id); return ok },
		Renamed:     suites.Renamed(),
	})
	if err != nil {
		t.Fatal(err)
	}
}
