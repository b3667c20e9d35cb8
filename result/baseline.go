package result

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
)

// Baseline compares a run with an earlier one (its report.summary.json).
type Baseline struct {
	From          string   `json:"from"` // run id of the earlier run
	NewFailures   []string `json:"newFailures"`
	Fixed         []string `json:"fixed"`
	StillFailing  []string `json:"stillFailing"`
	NewlyCovered  []string `json:"newSpecs,omitempty"` // spec IDs absent from the baseline
	NoLongerThere []string `json:"goneSpecs,omitempty"`
}

// LoadSummary reads a report.summary.json.
func LoadSummary(path string) (*Summary, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("baseline: %w", err)
	}
	var s Summary
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("baseline %s: not a report.summary.json: %w", path, err)
	}
	return &s, nil
}

// RenameSpecs translates the former spec IDs of an earlier run's summary to
// the current ones (the inventory's formerly) and refuses IDs that are
// neither current nor former: a comparison by an ID that matches nothing
// would silently report a spec as gone and its failure as new.
func (s *Summary) RenameSpecs(renamed map[string]string, known func(string) bool) error {
	var unknown []string
	for i, sp := range s.Specs {
		if to, ok := renamed[sp.ID]; ok {
			s.Specs[i].ID = to
			continue
		}
		if sp.ID != "" && !known(sp.ID) {
			unknown = append(unknown, sp.ID)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return fmt.Errorf("%d spec IDs are neither current nor former IDs of a spec (suites/inventory.yaml): %s", len(unknown), strings.Join(unknown, ", "))
	}
	return nil
}

func failing(o Outcome) bool { return o == Failed || o == HarnessError || o == Waived }

// Compare lists, by spec ID, the failures that are new since old, the specs
// that failed in old and pass now, and the specs failing in both.
func Compare(old, cur Summary) *Baseline {
	b := &Baseline{From: old.RunID}
	before := map[string]Outcome{}
	byText := map[string]string{} // summaries written before spec IDs existed
	for _, sp := range old.Specs {
		before[sp.ID] = sp.Outcome
		if sp.ID == "" {
			byText[sp.Text] = string(sp.Outcome)
		}
	}
	now := map[string]bool{}
	for _, sp := range cur.Specs {
		now[sp.ID] = true
		was, known := before[sp.ID]
		if o, ok := byText[sp.Text]; ok && !known {
			was, known = Outcome(o), true
		}
		switch {
		case !known:
			b.NewlyCovered = append(b.NewlyCovered, sp.ID)
			if failing(sp.Outcome) {
				b.NewFailures = append(b.NewFailures, sp.ID)
			}
		case failing(sp.Outcome) && failing(was):
			b.StillFailing = append(b.StillFailing, sp.ID)
		case failing(sp.Outcome):
			b.NewFailures = append(b.NewFailures, sp.ID)
		case sp.Outcome == Passed && failing(was):
			b.Fixed = append(b.Fixed, sp.ID)
		}
	}
	for id := range before {
		if id != "" && !now[id] {
			b.NoLongerThere = append(b.NoLongerThere, id)
		}
	}
	for _, l := range [][]string{b.NewFailures, b.Fixed, b.StillFailing, b.NewlyCovered, b.NoLongerThere} {
		sort.Strings(l)
	}
	return b
}
