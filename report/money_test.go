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

// TestTeardownMarkedWhenIncomplete: the reports mark a teardown that left
// cards unswept, met problems or was turned off, and say how to finish it.
func TestTeardownMarkedWhenIncomplete(t *testing.T) {
	for _, c := range []struct {
		m  Money
		ok bool
	}{
		{Money{Teardown: "done"}, true},
		{Money{Teardown: "done", Unswept: []string{"crd_1"}}, false},
		{Money{Teardown: "done", TeardownProblems: []string{"crd_1: withdraw answered 500"}}, false},
		{Money{Teardown: "incomplete"}, false},
		{Money{Teardown: "off"}, false},
	} {
		if got := c.m.TeardownOK(); got != c.ok {
			t.Errorf("%+v: TeardownOK %v, want %v", c.m, got, c.ok)
		}
		s := Summary{Meta: Meta{RunID: "mphx"}, Money: &c.m}
		page, err := RenderHTML(s)
		if err != nil {
			t.Fatal(err)
		}
		if marked := strings.Contains(string(page), `<section class="card warn"><h2>Teardown`); marked == c.ok {
			t.Errorf("%+v: teardown card marked %v", c.m, marked)
		}
		if len(c.m.Unswept) > 0 && !strings.Contains(string(page), "mph sweep --run-id mphx") || len(c.m.Unswept) > 0 && !strings.Contains(Markdown(s), "mph sweep --run-id mphx") {
			t.Errorf("%+v: no sweep command for the unswept cards", c.m)
		}
	}
}
