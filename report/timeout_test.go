package report

import (
	"testing"

	"github.com/onsi/ginkgo/v2/types"
)

func TestTimeoutIsAHarnessError(t *testing.T) {
	for _, tc := range []struct {
		s    types.SpecReport
		want Outcome
	}{
		{spec("times out", types.SpecStateTimedout, "A suite timeout occurred"), HarnessError},
		{spec("interrupted", types.SpecStateInterrupted, "interrupted"), HarnessError},
		{spec("fails", types.SpecStateFailed, "Expected 200 to equal 404"), Failed},
	} {
		if got := Classify(tc.s); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.s.LeafNodeText, got, tc.want)
		}
	}
}
