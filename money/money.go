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
	d := decimal{s: s}
	if err := d.scan(); err != nil {
		return 0, err
	}
	return d.minorUnits()
}

// decimal scans a JSON number into its significant digits.
type decimal struct {
	s       string
	i       int
	neg     bool
	digits  [64]byte
	nd      int // digits kept
	dropped int // integer digits beyond capacity (forces ErrRange)
	fracLen int // digits after the point among those kept
	exp     int
}

func (d *decimal) digit() bool { return d.i < len(d.s) && d.s[d.i] >= '0' && d.s[d.i] <= '9' }

func (d *decimal) scan() error {
	if d.i < len(d.s) && d.s[d.i] == '-' {
		d.neg = true
		d.i++
	}
	if err := d.scanInt(); err != nil {
		return err
	}
	if err := d.scanFrac(); err != nil {
		return err
	}
	if err := d.scanExp(); err != nil {
		return err
	}
	if d.i != len(d.s) {
		return ErrSyntax
	}
	if d.dropped > 0 {
		return ErrRange
	}
	return nil
}

func (d *decimal) scanInt() error {
	start := d.i
	for ; d.digit(); d.i++ {
		switch {
		case d.nd == 0 && d.s[d.i] == '0': // leading zeros carry no value
		case d.nd < len(d.digits):
			d.digits[d.nd] = d.s[d.i]
			d.nd++
		default:
			d.dropped++
		}
	}
	if n := d.i - start; n == 0 || (n > 1 && d.s[start] == '0') {
		return ErrSyntax // JSON forbids "" and "01"
	}
	return nil
}

func (d *decimal) scanFrac() error {
	if d.i >= len(d.s) || d.s[d.i] != '.' {
		return nil
	}
	d.i++
	start := d.i
	for ; d.digit(); d.i++ {
		if d.nd < len(d.digits) {
			d.digits[d.nd] = d.s[d.i]
			d.nd++
			d.fracLen++
		} else if d.s[d.i] != '0' {
			return ErrPrecision // a non-zero digit far beyond the cents
		}
	}
	if d.i == start {
		return ErrSyntax
	}
	return nil
}

func (d *decimal) scanExp() error {
	if d.i >= len(d.s) || (d.s[d.i] != 'e' && d.s[d.i] != 'E') {
		return nil
	}
	d.i++
	neg := false
	if d.i < len(d.s) && (d.s[d.i] == '+' || d.s[d.i] == '-') {
		neg = d.s[d.i] == '-'
		d.i++
	}
	start := d.i
	for ; d.digit(); d.i++ {
		if d.exp < 10000 {
			d.exp = d.exp*10 + int(d.s[d.i]-'0')
		}
	}
	if d.i == start {
		return ErrSyntax
	}
	if neg {
		d.exp = -d.exp
	}
	return nil
}

// minorUnits is digits × 10^(exp - fracLen) × 100, exactly.
func (d *decimal) minorUnits() (Amount, error) {
	shift := d.exp - d.fracLen + 2
	// Strip leading zeros (a fraction like 0.05 keeps "05").
	ds := d.digits[:d.nd]
	for len(ds) > 0 && ds[0] == '0' {
		ds = ds[1:]
	}
	if len(ds) == 0 {
		return 0, nil
	}
	if shift < 0 {
		cut := -shift
		if cut >= len(ds) {
			return 0, ErrPrecision // every significant digit is below a cent
		}
		for _, c := range ds[len(ds)-cut:] {
			if c != '0' {
				return 0, ErrPrecision
			}
		}
		ds, shift = ds[:len(ds)-cut], 0
	}
	if len(ds)+shift > maxDigits {
		return 0, ErrRange
	}
	var n int64
	for _, c := range ds {
		n = n*10 + int64(c-'0')
	}
	for ; shift > 0; shift-- {
		n *= 10
	}
	if d.neg {
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
