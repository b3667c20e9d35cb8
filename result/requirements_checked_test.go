package result

import (
	"reflect"
	"testing"

	"github.com/onsi/ginkgo/v2/types"
)

func TestRequirementsCheckedCountsPassedAndFailedOnly(t *testing.T) {
	spec := func(state types.SpecState, msg string, labels ...string) types.SpecReport {
		return types.SpecReport{LeafNodeType: types.NodeTypeIt, LeafNodeText: "s", State: state,
			LeafNodeLabels: labels, Failure: types.Failure{Message: msg}}
	}
	r := types.Report{SpecReports: []types.SpecReport{
		spec(types.SpecStatePassed, "", "auth", "AUTH-09", "ERR-01"),
		spec(types.SpecStateFailed, "boom", "GET-13", "destructive"),
		spec(types.SpecStateSkipped, "needs a second TEST merchant", "ISO-01"),
		spec(types.SpecStateFailed, HarnessErrorPrefix+"fixture", "TXN-01"),
	}}
	got := Summarize(r).RequirementsChecked
	want := []string{"AUTH-09", "ERR-01", "GET-13"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("RequirementsChecked = %v, want %v", got, want)
	}
}
