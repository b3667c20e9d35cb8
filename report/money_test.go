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
