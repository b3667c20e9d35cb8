package framework

import (
	"encoding/json"

	"github.com/onsi/gomega/format"
)

// Failure messages show harness values in their wire form: the types of
// the rooms (an amount, a card, a delivery) through Gomega's
// format.GomegaStringer, next to each type, and decoded JSON here.

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
