package report

import (
	"bytes"
	"encoding/json"
	"strings"
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
// process's teardown, per currency in minor units, and prints them.
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
	var b bytes.Buffer
	m.WriteConsole(&b)
	for _, want := range []string{"spent 39000.00 NGN, 12.50 USD (fees included)", "swept back 7.00 USD", "left on cards 0.05 USD", "2 answers 429"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("console lacks %q:\n%s", want, b.String())
		}
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
