package httpcache

import "testing"

func TestSharedStorable(t *testing.T) {
	for _, tc := range []struct {
		values []string
		want   bool
	}{
		{nil, false},
		{[]string{""}, false},
		{[]string{"no-store"}, false},
		{[]string{"private"}, false},
		{[]string{"max-age=300"}, false}, // no explicit allowance (§3.5)
		{[]string{"no-cache, no-store, max-age=0, must-revalidate"}, false}, // Spring Security's default
		{[]string{"private, max-age=60"}, false},
		{[]string{"public, max-age=300"}, true},
		{[]string{"PUBLIC"}, true},
		{[]string{"s-maxage=60"}, true},
		{[]string{"must-revalidate"}, true},
		{[]string{"no-cache, must-revalidate"}, true},     // no-cache still lets it be stored
		{[]string{"public", "no-store"}, false},           // several fields combine
		{[]string{`private="Set-Cookie", public`}, true},  // a qualified private keeps only that field out
		{[]string{`private="a, no-store", public`}, true}, // a comma inside quotes is the argument's
		{[]string{"public, private"}, false},
	} {
		if got, _ := SharedStorable(tc.values); got != tc.want {
			t.Errorf("%q: storable %v, want %v", tc.values, got, tc.want)
		}
	}
}
