package result

import (
	"encoding/json"
	"testing"

	"github.com/onsi/ginkgo/v2/types"
)

func moneyEntry(t *testing.T, m Money) types.ReportEntry {
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return types.ReportEntry{Name: MoneyEntry, Value: types.WrapEntryValue(string(b))}
}

// TestMoneyAddsUpTheProcesses: the summary adds the money entries of every
// process's teardown, per currency in minor units.
func TestMoneyAddsUpTheProcesses(t *testing.T) {
	p1 := Money{Spent: map[string]int64{"USD": 1050, "NGN": 3900000}, SweptBack: map[string]int64{"USD": 700}, CardsCreated: 3, CardsSwept: 3, CardsFrozen: 3, Teardown: "done", TooManyRequests: 2}
	p2 := Money{Spent: map[string]int64{"USD": 200}, LeftOnCards: map[string]int64{"USD": 5}, CardsCreated: 1, CardsFrozen: 1, Teardown: "done",
		ByArea: map[string]AreaSpend{"Withdrawal": {Cards: 1, Spent: map[string]int64{"USD": 200}}}}
	r := types.Report{SpecReports: types.SpecReports{
		{LeafNodeType: types.NodeTypeSynchronizedAfterSuite, ReportEntries: types.ReportEntries{moneyEntry(t, p1)}},
		{LeafNodeType: types.NodeTypeSynchronizedAfterSuite, ReportEntries: types.ReportEntries{moneyEntry(t, p2)}},
	}}
	m := Summarize(r).Money
	if m == nil || m.Spent["USD"] != 1250 || m.Spent["NGN"] != 3900000 || m.SweptBack["USD"] != 700 || m.LeftOnCards["USD"] != 5 ||
		m.CardsCreated != 4 || m.CardsFrozen != 4 || m.Teardown != "done" || m.TooManyRequests != 2 || m.ByArea["Withdrawal"].Cards != 1 {
		t.Fatalf("summed money %+v", m)
	}
	p2.Teardown = "off"
	r.SpecReports[1].ReportEntries = types.ReportEntries{moneyEntry(t, p2)}
	if got := Summarize(r).Money.Teardown; got != "incomplete" {
		t.Errorf("mixed teardowns summed as %q", got)
	}
	if Summarize(types.Report{}).Money != nil {
		t.Error("a report without money entries has money")
	}
}
