package framework

import (
	"encoding/json"

	"github.com/onsi/gomega/format"
)

// Failure messages show harness values in their wire form through Gomega's
// format.GomegaStringer: an amount as "1.00", a card as
// "card crd_… ACTIVE 1.00 USD", so that a failed length or containment
// assertion lists ids, statuses and balances instead of struct dumps.

// GomegaString renders the amount exactly, as on the wire.
func (m Money) GomegaString() string { return m.String() }

// Decoded JSON (objects, arrays, exact numbers) prints as compact JSON, the
// form the target sent, instead of Go's map and slice syntax.
func init() {
	format.RegisterCustomFormatter(func(v any) (string, bool) {
		switch t := v.(type) {
		case json.Number:
			return t.String(), true
		case map[string]any, []any:
			b, err := json.Marshal(t)
			if err != nil {
				return "", false
			}
			return string(b), true
		}
		return "", false
	})
}
