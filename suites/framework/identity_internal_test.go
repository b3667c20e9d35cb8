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
