package listing

import (
	"strings"
	"testing"

	"github.com/merchant-harness/mph/result"
	"github.com/merchant-harness/mph/suites"
	"github.com/merchant-harness/mph/suites/framework"
)

// TestAcceptedNoVerdicts: current IDs and "all" are accepted; a former ID
// is refused naming the current one, an unknown ID is refused.
func TestAcceptedNoVerdicts(t *testing.T) {
	if _, err := framework.Preview(framework.RunOptions{}); err != nil {
		t.Fatal(err)
	}
	id := framework.Declarations()[0].ID
	got, err := AcceptedNoVerdicts([]string{" " + id, "", result.AcceptAll})
	if err != nil || len(got) != 2 || got[0] != id || got[1] != result.AcceptAll {
		t.Errorf("current ID and all: %v, %v", got, err)
	}
	if _, err := AcceptedNoVerdicts([]string{"nope.x"}); err == nil || !strings.Contains(err.Error(), "nope.x: unknown spec ID") {
		t.Errorf("an unknown ID: %v", err)
	}
	for old, now := range suites.Renamed() {
		if _, err := AcceptedNoVerdicts([]string{old}); err == nil || !strings.Contains(err.Error(), "the spec's ID is now "+now) {
			t.Errorf("former ID %s: %v", old, err)
		}
		break
	}
	k := Known()
	if !k.Spec(id) || k.Spec("nope.x") {
		t.Errorf("Known: %s is a spec, nope.x is not", id)
	}
}
