package variant

import (
	"reflect"
	"testing"
)

// A seed draws one setting of every dimension, the same every time, and
// the draw of a dimension depends on the seed and its name alone.
func TestSeedsAreDeterministic(t *testing.T) {
	dims := Dimensions()
	differ := 0
	for seed := uint64(1); seed <= 20; seed++ {
		a, b := SeedSettings(seed), SeedSettings(seed)
		if !reflect.DeepEqual(a, b) || len(a) != len(dims) {
			t.Fatalf("seed %d: %d settings, draws differ: %v", seed, len(a), !reflect.DeepEqual(a, b))
		}
		for i, s := range a {
			if s.Dimension != dims[i].Name {
				t.Fatalf("seed %d: setting %s drawn for dimension %s", seed, s.Name, dims[i].Name)
			}
		}
		if !reflect.DeepEqual(SeedVariants(seed), SeedVariants(seed+1)) {
			differ++
		}
	}
	if differ < 19 {
		t.Fatalf("only %d of 20 consecutive seeds draw different servers", differ)
	}
	// Without the other dimensions the draw stays: only the name counts.
	saved := dimRegistry
	defer func() { dimRegistry = saved }()
	want := SeedSettings(7)[3]
	dimRegistry = []*Dim{saved[indexOfDim(saved, want.Dimension)]}
	if got := SeedSettings(7)[0]; got.Name != want.Name {
		t.Fatalf("seed 7 draws %s alone but %s among all dimensions", got.Name, want.Name)
	}
}

func indexOfDim(ds []*Dim, name string) int {
	for i, d := range ds {
		if d.name == name {
			return i
		}
	}
	panic(name)
}
