package config

import "testing"

func TestParseMaxSpend(t *testing.T) {
	m, err := ParseMaxSpend("USD=50, ngn=200000.50")
	if err != nil || m["USD"] != 5000 || m["NGN"] != 20000050 {
		t.Fatalf("got %v %v", m, err)
	}
	for _, bad := range []string{"USD", "USD=abc", "DOLLARS=5", "USD=-1", "USD=0.001"} {
		if _, err := ParseMaxSpend(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
