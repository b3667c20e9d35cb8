package framework

import (
	"regexp"
	"testing"
)

// Card names are letters and one space, within the length bound, and
// unique over a run's worth of cards; phones are 10 digits, unique over
// their whole range.
func TestUniqueNamesAndPhones(t *testing.T) {
	letters := regexp.MustCompile(`^[A-Z][a-z]* [A-Z][a-z]{6}$`)
	seen := map[string]bool{}
	const base = 0x5eed
	for i := uint64(0); i < 20000; i++ {
		f, l := uniqueNameWithin(base+i, 21)
		name := f + " " + l
		if !letters.MatchString(name) || len(name) > 21 {
			t.Fatalf("name %q: not letters only within 21 characters", name)
		}
		if seen[l] {
			t.Fatalf("last name %q repeats within 20000 names", l)
		}
		seen[l] = true
	}
	if f, l := uniqueNameWithin(3, 9); len(f+" "+l) > 9 || f == "" {
		t.Errorf("a name within 9 characters: %q %q", f, l)
	}
	phones := map[string]bool{}
	digits := regexp.MustCompile(`^[2-9][0-9]{2}55501[0-9]{2}$`)
	for i := uint64(0); i < fictionalPhones; i++ {
		p := fictionalPhone(i)
		if !digits.MatchString(p) || phones[p] {
			t.Fatalf("phone %q malformed or repeated", p)
		}
		phones[p] = true
	}
}

// An unknown id keeps a real one's length and character classes: hex stays
// hex, and the last characters change.
func TestRotateTail(t *testing.T) {
	for in, want := range map[string]string{
		"crd_0123456789abcdef01234567":         "crd_0123456789abcdef01239012",
		"crd_3f2a9c1e-0b1d-4c2e-9f00-0000a1b2": "crd_3f2a9c1e-0b1d-4c2e-9f00-0000d6e7",
		"cus_ab12":                             "cus_de67",
		"cus_ax12":                             "cus_nk67",
		"mph1a2b3c1z0001ff":                    "mph1a2b3c1z0056ss",
	} {
		if got := rotateTail(in); got != want {
			t.Errorf("rotateTail(%q) = %q, want %q", in, got, want)
		}
	}
}
