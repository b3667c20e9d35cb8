package result

import (
	"strings"
	"testing"
)

func TestBaselineRenamesFormerIDsAndRefusesUnknown(t *testing.T) {
	known := func(id string) bool { return id == "area.new" || id == "area.same" }
	s := Summary{Specs: []Spec{{ID: "area.0a1b2c", Outcome: Failed}, {ID: "area.same", Outcome: Passed}}}
	if err := s.RenameSpecs(map[string]string{"area.0a1b2c": "area.new"}, known); err != nil {
		t.Fatal(err)
	}
	if s.Specs[0].ID != "area.new" || s.Specs[1].ID != "area.same" {
		t.Fatalf("not translated: %+v", s.Specs)
	}
	s = Summary{Specs: []Spec{{ID: "area.gone", Outcome: Failed}}}
	if err := s.RenameSpecs(nil, known); err == nil || !strings.Contains(err.Error(), "area.gone") {
		t.Fatalf("an unknown ID was accepted: %v", err)
	}
}
