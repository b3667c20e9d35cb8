package expect

import (
	"strings"
	"testing"
)

func amounts(ms []Money) string {
	s := make([]string, len(ms))
	for i, m := range ms {
		s[i] = m.String()
	}
	return strings.Join(s, " ")
}

// A fund fee read as an amount, a percentage (exact or rounded to the cent)
// or either gives the balances a conformant server may show.
func TestFundFeeDeducted(t *testing.T) {
	for _, c := range []struct {
		amount, fee, unit, want string
	}{
		{"10.00", "1.50", "amount", "8.50"},
		{"10.00", "1.50", "percent", "9.85"},
		{"10.00", "1.50", "either", "8.50 9.85"},
		{"2.50", "1.5", "percent", "2.4625 2.47 2.46"},
		{"5.00", "0", "either", "5.00"},
	} {
		if got := amounts(fundFeeDeducted(M(c.amount), M(c.fee), c.unit)); got != c.want {
			t.Errorf("fundFeeDeducted(%s, %s, %s) = %s, want %s", c.amount, c.fee, c.unit, got, c.want)
		}
	}
}
