// Package money holds amounts as integer minor units (cents, kobo) and parses
// JSON decimals exactly, never through float64, so 0.1 + 0.2 is 0.30.
package money

import (
	"errors"
	"strconv"
)

// Amount is a monetary amount in minor units (1/100 of the major unit).
type Amount int64

// Limits shared by every amount the sandbox accepts.
const (
	Scale        = 100          // minor units per major unit
	Max   Amount = 100000000000 // 1,000,000,000.00
)

// Parse errors.
var (
	ErrSyntax    = errors.New("not a decimal number")
	ErrPrecision = errors.New("more than two decimal places")
	ErrRange     = errors.New("number out of range")
)

// FromMinor returns the amount of n minor units.
func FromMinor(n int64) Amount { return Amount(n) }

// FromMajor returns the amount of n whole major units.
func FromMajor(n int64) Amount { return Amount(n * Scale) }

// Minor returns the amount in minor units.
func (a Amount) Minor() int64 { return int64(a) }

// String formats the amount with exactly two decimals, e.g. "25.50", "-0.05".
func (a Amount) String() string { return string(a.Append(nil)) }

// Append appends the two-decimal form of a to b.
func (a Amount) Append(b []byte) []byte {
	n := int64(a)
	neg := n < 0
	u := uint64(n)
	if neg {
		b = append(b, '-')
		u = uint64(-n) // correct for MinInt64 too, via two's complement
	}
	b = strconv.AppendUint(b, u/Scale, 10)
	f := u % Scale
	return append(b, '.', byte('0'+f/10), byte('0'+f%10))
}

// MarshalJSON renders the amount as a JSON number with exactly two decimals.
func (a Amount) MarshalJSON() ([]byte, error) { return a.Append(make([]byte, 0, 24)), nil }

// UnmarshalJSON parses a JSON number exactly; strings and null are refused.
func (a *Amount) UnmarshalJSON(b []byte) error {
	v, err := Parse(string(b))
	if err != nil {
		return err
	}
	*a = v
	return nil
}

// maxDigits bounds the significant digits accepted: 18 digits of minor units
// always fit in an int64.
const maxDigits = 18

// Parse reads a decimal in JSON number syntax (optional '-', digits, optional
// fraction, optional exponent) exactly. The value must be a whole number of
// minor units: "1.50" and "1.500" are accepted, "1.005" is ErrPrecision.
func Parse(s string) (Amount, error) {
	i := 0
	neg := false
	if i < len(s) && s[i] == '-' {
		neg = true
		i++
	}
	// Collect the significant digits of integer and fraction parts.
	var digits [64]byte
	nd := 0      // digits kept
	dropped := 0 // integer digits beyond capacity (forces ErrRange)
	fracLen := 0 // digits after the point among those kept
	start := i
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		if nd == 0 && s[i] == '0' {
			i++ // leading zeros carry no value
			continue
		}
		if nd < len(digits) {
			digits[nd] = s[i]
			nd++
		} else {
			dropped++
		}
		i++
	}
	intLen := i - start
	if intLen == 0 || (intLen > 1 && s[start] == '0') {
		return 0, ErrSyntax // JSON forbids "" and "01"
	}
	if i < len(s) && s[i] == '.' {
		i++
		fs := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			if nd < len(digits) {
				digits[nd] = s[i]
				nd++
				fracLen++
			} else if s[i] != '0' {
				return 0, ErrPrecision // a non-zero digit far beyond the cents
			}
			i++
		}
		if i == fs {
			return 0, ErrSyntax
		}
	}
	exp := 0
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		eneg := false
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			eneg = s[i] == '-'
			i++
		}
		es := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			if exp < 10000 {
				exp = exp*10 + int(s[i]-'0')
			}
			i++
		}
		if i == es {
			return 0, ErrSyntax
		}
		if eneg {
			exp = -exp
		}
	}
	if i != len(s) {
		return 0, ErrSyntax
	}
	if dropped > 0 {
		return 0, ErrRange
	}
	// value = digits × 10^(exp - fracLen); minor units = value × 100.
	shift := exp - fracLen + 2
	// Strip leading zeros (a fraction like 0.05 keeps "05").
	d := digits[:nd]
	for len(d) > 0 && d[0] == '0' {
		d = d[1:]
	}
	if len(d) == 0 {
		return 0, nil
	}
	if shift < 0 {
		cut := -shift
		if cut >= len(d) {
			return 0, ErrPrecision // every significant digit is below a cent
		}
		for _, c := range d[len(d)-cut:] {
			if c != '0' {
				return 0, ErrPrecision
			}
		}
		d = d[:len(d)-cut]
		shift = 0
	}
	if len(d)+shift > maxDigits {
		return 0, ErrRange
	}
	var n int64
	for _, c := range d {
		n = n*10 + int64(c-'0')
	}
	for ; shift > 0; shift-- {
		n *= 10
	}
	if neg {
		n = -n
	}
	return Amount(n), nil
}

// MulRate multiplies a by rate (itself in minor units, e.g. 1550.00 as 155000)
// and rounds half away from zero to the minor unit: a × rate / 100.
func MulRate(a, rate Amount) Amount { return Amount(roundDiv(int64(a)*int64(rate), Scale)) }

// Percent returns bp basis points of a (150 = 1.5 %), rounded half up.
func Percent(a Amount, bp int64) Amount { return Amount(roundDiv(int64(a)*bp, 10000)) }

func roundDiv(n, d int64) int64 {
	if n < 0 {
		return -((-n + d/2) / d)
	}
	return (n + d/2) / d
}

// GomegaString renders the amount in failure messages as on the wire
// ("25.50"), not as its count of minor units (Gomega's format.GomegaStringer).
func (a Amount) GomegaString() string { return a.String() }
