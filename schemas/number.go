package schemas

import (
	"encoding/json"
	"math/big"
	"strconv"
)

// NumberIs reports whether v, a decoded JSON value, is the number n: a JSON
// number is its value, not its text, so 400, 400.0 and 4e2 are all 400
// (RFC 8259 §6). v may be a json.Number, a float64 or an integer.
func NumberIs(v any, n int64) bool {
	var s string
	switch x := v.(type) {
	case json.Number:
		s = x.String()
	case float64:
		s = strconv.FormatFloat(x, 'g', -1, 64)
	case int:
		return int64(x) == n
	case int64:
		return x == n
	default:
		return false
	}
	r, ok := new(big.Rat).SetString(s)
	return ok && r.Cmp(new(big.Rat).SetInt64(n)) == 0
}
