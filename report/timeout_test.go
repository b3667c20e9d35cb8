package report

import (
	"testing"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/merchant-harness/mph/result"
)

func TestTimeoutIsAHarnessError(t *testing.T) {
	for _, tc := range []struct {
		s    types.SpecReport
		want result.Outcome
	}{
		{spec("times out", types.SpecStateTimedout, "A suite timeout occurred"), result.HarnessError},
		{spec("interrupted", types.SpecStateInterrupted, "interrupted"), result.HarnessError},
		{spec("fails", types.SpecStateFailed, "Expected 200 to equal 404"), result.Failed},
	} {
		if got := result.Classify(tc.s); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.s.LeafNodeText, got, tc.want)
		}
	}
}
