package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/merchant-harness/mph/result"
)

// The console states the money of a run, per currency in minor units.
func TestMoneyConsoleLines(t *testing.T) {
	m := &result.Money{Spent: map[string]int64{"USD": 1250, "NGN": 3900000}, SweptBack: map[string]int64{"USD": 700},
		LeftOnCards: map[string]int64{"USD": 5}, CardsCreated: 4, CardsSwept: 3, CardsFrozen: 4, Teardown: "done", TooManyRequests: 2}
	var b bytes.Buffer
	writeMoney(&b, m)
	for _, want := range []string{"spent 39000.00 NGN, 12.50 USD (fees included)", "swept back 7.00 USD", "left on cards 0.05 USD", "2 answers 429"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("console lacks %q:\n%s", want, b.String())
		}
	}
}

// TestTeardownMarkedWhenIncomplete: the reports mark a teardown that left
// cards unswept, met problems or was turned off, and say how to finish it.
func TestTeardownMarkedWhenIncomplete(t *testing.T) {
	for _, c := range []struct {
		m  result.Money
		ok bool
	}{
		{result.Money{Teardown: "done"}, true},
		{result.Money{Teardown: "done", Unswept: []string{"crd_1"}}, false},
		{result.Money{Teardown: "done", TeardownProblems: []string{"crd_1: withdraw answered 500"}}, false},
		{result.Money{Teardown: "incomplete"}, false},
		{result.Money{Teardown: "off"}, false},
	} {
		if got := viewMoney(&c.m).TeardownOK(); got != c.ok {
			t.Errorf("%+v: TeardownOK %v, want %v", c.m, got, c.ok)
		}
		s := result.Summary{Meta: result.Meta{RunID: "mphx"}, Money: &c.m}
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
