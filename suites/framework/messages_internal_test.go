package framework

import "testing"

// A message states an amount in any decimal form a server may write it in;
// a different amount is not stated.
func TestContainsAmount(t *testing.T) {
	for _, c := range []struct {
		text   string
		amount string
		stated bool
	}{
		{"required 1010.00, available 1000", "1010", true},
		{"required 1,010.00 USD", "1010", true},
		{"requis 1.010,00 USD", "1010", true},
		{"requis 1 010,00 USD", "1010", true},
		{"requis 1\u202f010,00 USD", "1010", true},
		{"required 1'010.00", "1010", true},
		{"need 5.01, have 3.25", "5.01", true},
		{"need 5.01, have 3.25", "3.25", true},
		{"need 5.01 3.25", "3.25", true},
		{"vault 1234.57 USD", "1234.5678", true},
		{"vault 1234.5 USD", "1234.5678", false},
		{"required 531 cents", "5.31", true},
		{"required 531", "5.31", false},
		{"required 5.02", "5.01", false},
		{"required 10.1", "10.10", true},
		{"no amount here", "0", false},
		{"amount 1.011", "1011", true},
	} {
		if got := ContainsAmount(c.text, M(c.amount)); got != c.stated {
			t.Errorf("ContainsAmount(%q, %s) = %v", c.text, c.amount, got)
		}
	}
}

func TestSaysAnyOf(t *testing.T) {
	if !SaysAnyOf("Virtual card NOT FOUND", "not found", "does not exist") || SaysAnyOf("Card gone", "not found") {
		t.Error("SaysAnyOf")
	}
}
