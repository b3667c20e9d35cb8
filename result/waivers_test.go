package result

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/merchant-harness/mph/exitcode"
)

func writeWaivers(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "w.yaml")
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

var known = func(id string) bool { return strings.HasPrefix(id, "area.") || id == "GET-04" }

func TestWaiversWaiveFixAndExpire(t *testing.T) {
	ws, err := LoadWaivers(writeWaivers(t, `waivers:
  - {id: area.fails, reason: r, ticket: T-1, expires: 2030-01-31}
  - {id: area.passes, reason: r, ticket: T-2, expires: 2030-01-31}
  - {id: GET-04, reason: r, ticket: T-3, expires: 2020-01-01}
`), KnownIDs{Spec: known, Requirement: known})
	if err != nil {
		t.Fatal(err)
	}
	r := sample()
	expired := spec("old", types.SpecStateFailed, "Expected\n    <string>: "+strings.Repeat("x", 400)+"\nto equal\n    <string>: wanted-value")
	expired.LeafNodeLabels = append(expired.LeafNodeLabels, "GET-04")
	r.SpecReports = append(r.SpecReports, expired)
	now := time.Date(2030, 1, 31, 23, 0, 0, 0, time.UTC) // the last day still applies
	s := Build(r, Options{Waivers: ws, Now: now})
	by := map[string]Spec{}
	for _, sp := range s.Specs {
		by[sp.Text] = sp
	}
	if by["fails"].Outcome != Waived || !strings.Contains(by["fails"].Note, "T-1") {
		t.Errorf("waived failure: %+v", by["fails"])
	}
	if by["passes"].Outcome != Passed || !strings.Contains(by["passes"].Note, "fixed: remove the waiver") || len(s.FixedWaivers) != 1 {
		t.Errorf("fixed: %+v %v", by["passes"], s.FixedWaivers)
	}
	if by["old"].Outcome != Failed || !strings.Contains(by["old"].Note, "expired") {
		t.Errorf("expired waiver: %+v", by["old"])
	}
	// The expired mark takes room from the values, not the end of the headline.
	if h := by["old"].Headline; !strings.HasPrefix(h, "[waiver expired 2020-01-01] Expected xxx") || !strings.HasSuffix(h, "to equal wanted-value") || len([]rune(h)) > MaxHeadline {
		t.Errorf("expired waiver's headline %q", h)
	}
	if s.Waived != 1 || s.Failed != 1 || s.ExitCode(false) != exitcode.Failed {
		t.Errorf("counts waived %d failed %d exit %d", s.Waived, s.Failed, s.ExitCode(false))
	}
	if s := Build(r, Options{Waivers: ws, Now: now.AddDate(0, 0, 1)}); s.Waived != 0 {
		t.Errorf("a waiver applies after its expiry day")
	}
}

func TestLoadWaiversRefusesMistakes(t *testing.T) {
	for want, body := range map[string]string{
		"unknown spec ID":        "waivers:\n  - {id: nope.x, reason: r, ticket: T, expires: 2030-01-01}\n",
		"unknown requirement ID": "waivers:\n  - {id: GET-99, reason: r, ticket: T, expires: 2030-01-01}\n",
		"reason and ticket":      "waivers:\n  - {id: area.a, ticket: T, expires: 2030-01-01}\n",
		"expires must be a date": "waivers:\n  - {id: area.a, reason: r, ticket: T, expires: soon}\n",
		"waived twice":           "waivers:\n  - {id: area.a, reason: r, ticket: T, expires: 2030-01-01}\n  - {id: area.a, reason: r, ticket: T, expires: 2030-01-01}\n",
		"is now area.new-id":     "waivers:\n  - {id: area.0a1b2c, reason: r, ticket: T, expires: 2030-01-01}\n",
		"field":                  "waivers:\n  - {id: area.a, reason: r, ticket: T, expires: 2030-01-01, until: x}\n",
	} {
		if _, err := LoadWaivers(writeWaivers(t, body), KnownIDs{Spec: known, Requirement: known, Renamed: map[string]string{"area.0a1b2c": "area.new-id"}}); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err %v", want, err)
		}
	}
}

func TestBaselineComparison(t *testing.T) {
	old := Summary{Meta: Meta{RunID: "old"}, Specs: []Spec{{ID: "a.1", Outcome: Failed}, {ID: "a.2", Outcome: Passed}, {ID: "a.3", Outcome: Failed}, {ID: "a.gone", Outcome: Passed}}}
	cur := Summary{Specs: []Spec{{ID: "a.1", Outcome: Passed}, {ID: "a.2", Outcome: Failed}, {ID: "a.3", Outcome: HarnessError}, {ID: "a.new", Outcome: Failed}}}
	b := Compare(old, cur)
	if strings.Join(b.Fixed, ",") != "a.1" || strings.Join(b.NewFailures, ",") != "a.2,a.new" || strings.Join(b.StillFailing, ",") != "a.3" || strings.Join(b.NoLongerThere, ",") != "a.gone" {
		t.Errorf("baseline %+v", b)
	}
}
