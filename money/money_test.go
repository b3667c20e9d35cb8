package money

import (
	"encoding/json"
	"errors"
	"testing"
)

func TestParse(t *testing.T) {
	tests := []struct {
		in   string
		want Amount
		err  error
	}{
		{"0", 0, nil},
		{"-0", 0, nil},
		{"1", 100, nil},
		{"25.5", 2550, nil},
		{"25.50", 2550, nil},
		{"25.500", 2550, nil},
		{"0.1", 10, nil},
		{"0.05", 5, nil},
		{"-1.05", -105, nil},
		{"1000000000.00", 100000000000, nil},
		{"1e2", 10000, nil},
		{"1.5E1", 1500, nil},
		{"125e-2", 125, nil},
		{"1E+0", 100, nil},
		{"0.000e5", 0, nil},
		{"1.005", 0, ErrPrecision},
		{"0.001", 0, ErrPrecision},
		{"1e-3", 0, ErrPrecision},
		{"1e400", 0, ErrRange},
		{"99999999999999999999", 0, ErrRange},
		{"92233720368547758.07", 0, ErrRange},
		{"", 0, ErrSyntax},
		{"-", 0, ErrSyntax},
		{"01", 0, ErrSyntax},
		{"1.", 0, ErrSyntax},
		{".5", 0, ErrSyntax},
		{"+1", 0, ErrSyntax},
		{"1e", 0, ErrSyntax},
		{"\"1\"", 0, ErrSyntax},
		{"1 ", 0, ErrSyntax},
		{"NaN", 0, ErrSyntax},
		{"0x10", 0, ErrSyntax},
	}
	for _, tt := range tests {
		got, err := Parse(tt.in)
		if !errors.Is(err, tt.err) || (err == nil && got != tt.want) {
			t.Errorf("Parse(%q) = %d, %v; want %d, %v", tt.in, got, err, tt.want, tt.err)
		}
	}
}

func TestString(t *testing.T) {
	tests := []struct {
		a    Amount
		want string
	}{
		{0, "0.00"}, {5, "0.05"}, {10, "0.10"}, {2550, "25.50"}, {-105, "-1.05"},
		{100000000000, "1000000000.00"}, {-9223372036854775808, "-92233720368547758.08"},
	}
	for _, tt := range tests {
		if got := tt.a.String(); got != tt.want {
			t.Errorf("Amount(%d).String() = %q, want %q", int64(tt.a), got, tt.want)
		}
	}
}

// Every two-decimal string parses back to the amount that printed it.
func TestRoundTrip(t *testing.T) {
	for n := int64(-100_000); n <= 100_000; n += 7 {
		a := Amount(n)
		b, err := Parse(a.String())
		if err != nil || b != a {
			t.Fatalf("round trip of %d: got %d, %v", n, b, err)
		}
	}
}

func TestJSON(t *testing.T) {
	var v struct {
		A Amount `json:"a"`
	}
	if err := json.Unmarshal([]byte(`{"a":0.1}`), &v); err != nil || v.A != 10 {
		t.Fatalf("unmarshal 0.1: %v %d", err, v.A)
	}
	for _, bad := range []string{`{"a":"1"}`, `{"a":1.001}`, `{"a":true}`} {
		if err := json.Unmarshal([]byte(bad), &v); err == nil {
			t.Errorf("unmarshal %s: want error", bad)
		}
	}
	v.A = 2550
	b, _ := json.Marshal(v)
	if string(b) != `{"a":25.50}` {
		t.Fatalf("marshal = %s", b)
	}
	// 0.1 + 0.2 in floats is 0.30000000000000004; in minor units it is exact.
	x, _ := Parse("0.1")
	y, _ := Parse("0.2")
	if (x + y).String() != "0.30" {
		t.Fatalf("0.1+0.2 = %s", x+y)
	}
}

func TestMulRateAndPercent(t *testing.T) {
	if got := MulRate(2500, 155000); got != 3875000 {
		t.Errorf("25.00 × 1550.00 = %s", got)
	}
	if got := MulRate(1, 150); got != 2 { // 0.01 × 1.50 = 0.015 → 0.02 (half up)
		t.Errorf("0.01 × 1.50 = %s", got)
	}
	tests := []struct {
		a    Amount
		bp   int64
		want Amount
	}{
		{500000, 150, 7500}, // 1.5 % of 5000.00 = 75.00
		{10033, 150, 150},   // 1.5 % of 100.33 = 1.50495 → 1.50
		{10100, 150, 152},   // 1.5 % of 101.00 = 1.515 → 1.52 (half up)
		{-10100, 150, -152}, // symmetric
	}
	for _, tt := range tests {
		if got := Percent(tt.a, tt.bp); got != tt.want {
			t.Errorf("Percent(%s, %d) = %s, want %s", tt.a, tt.bp, got, tt.want)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"0", "1.5", "-2.50", "1e3", "1.005", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a, err := Parse(s)
		if err != nil {
			return
		}
		b, err := Parse(a.String())
		if err != nil || b != a {
			t.Fatalf("Parse(%q)=%d does not round-trip: %d %v", s, a, b, err)
		}
	})
}

func TestGomegaStringIsTheWireForm(t *testing.T) {
	for in, want := range map[Amount]string{FromMinor(150): "1.50", FromMinor(-5): "-0.05", FromMajor(25): "25.00"} {
		if got := in.GomegaString(); got != want {
			t.Errorf("GomegaString(%d) = %q, want %q", in.Minor(), got, want)
		}
	}
}
