package schemas

import (
	"encoding/json"
	"testing"
)

func TestNumberIsByValue(t *testing.T) {
	for _, tc := range []struct {
		v  any
		ok bool
	}{
		{json.Number("400"), true}, {json.Number("400.0"), true}, {json.Number("4e2"), true}, {json.Number("4.00E+2"), true},
		{400.0, true}, {400, true}, {int64(400), true},
		{json.Number("400.5"), false}, {json.Number("401"), false}, {"400", false}, {nil, false}, {true, false},
	} {
		if got := NumberIs(tc.v, 400); got != tc.ok {
			t.Errorf("%#v: %v, want %v", tc.v, got, tc.ok)
		}
	}
}
