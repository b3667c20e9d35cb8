package expect

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

// A status change's message states the new status in any words; it never
// names only the opposite status, and under strict.messageWording it says
// one of the usual words.
func TestStatesStatus(t *testing.T) {
	for _, c := range []struct {
		msg, status      string
		lenient, wording bool
	}{
		{"Card status updated to FROZEN", "FROZEN", true, true},
		{"Card status updated to ACTIVE", "ACTIVE", true, true},
		{"Card status changed from ACTIVE to FROZEN", "FROZEN", true, true},
		{"Card has been frozen", "FROZEN", true, true},
		{"Card has been unfrozen", "ACTIVE", true, true},
		{"Card blocked", "FROZEN", true, true},
		{"Card unblocked", "ACTIVE", true, true},
		{"Card suspended", "FROZEN", true, true},
		{"Card activated successfully", "ACTIVE", true, true},
		{"Card deactivated", "FROZEN", true, true},
		{"Karte gesperrt", "FROZEN", true, false},
		{"Request completed", "FROZEN", true, false},
		{"Card status updated to ACTIVE", "FROZEN", false, false},
		{"Card status updated to FROZEN", "ACTIVE", false, false},
		{"Card unfrozen", "FROZEN", true, false},
		{"Card deactivated", "ACTIVE", true, false},
		{"", "ACTIVE", false, false},
	} {
		if got := statesStatus(c.msg, c.status, false); got != c.lenient {
			t.Errorf("statesStatus(%q, %s) = %v", c.msg, c.status, got)
		}
		if got := statesStatus(c.msg, c.status, true); got != c.wording {
			t.Errorf("statesStatus(%q, %s, wording) = %v", c.msg, c.status, got)
		}
	}
}
