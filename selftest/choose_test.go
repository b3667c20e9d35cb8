package selftest

import (
	"slices"
	"strings"
	"testing"

	"github.com/merchant-harness/mph/sandbox/fault"
	"github.com/merchant-harness/mph/sandbox/variant"
)

func TestChooseSeeds(t *testing.T) {
	for _, c := range []struct {
		name   string
		listed []uint
		count  int
		named  bool
		want   []uint64
		err    string
	}{
		{"listed win", []uint{7, 9}, 3, false, []uint64{7, 9}, ""},
		{"a count", nil, 3, true, DefaultSeeds(3), ""},
		{"none asked", nil, 0, false, []uint64{}, ""},
		{"a negative count", nil, -2, false, nil, "--seeds -2"},
		{"faults or settings named", nil, -1, true, []uint64{}, ""},
		{"the default", nil, -1, false, DefaultSeeds(DefaultSeedCount), ""},
	} {
		got, err := ChooseSeeds(c.listed, c.count, c.named)
		if (err == nil) != (c.err == "") || (err != nil && !strings.Contains(err.Error(), c.err)) || !slices.Equal(got, c.want) {
			t.Errorf("%s: %v, %v; want %v, error %q", c.name, got, err, c.want, c.err)
		}
	}
}

func TestChooseFaultsAndVariants(t *testing.T) {
	all := fault.All()
	if got, _ := ChooseFaults(nil); len(got) != len(all) {
		t.Errorf("no name: %d faults, want the catalogue's %d", len(got), len(all))
	}
	if got, err := ChooseFaults([]string{"none"}); err != nil || len(got) != 0 {
		t.Errorf("none: %v, %v", got, err)
	}
	if got, err := ChooseFaults([]string{all[0].Name}); err != nil || len(got) != 1 || got[0].Name != all[0].Name {
		t.Errorf("%s: %v, %v", all[0].Name, got, err)
	}
	if _, err := ChooseFaults([]string{"no-such-fault"}); err == nil || !strings.Contains(err.Error(), `unknown fault "no-such-fault"`) {
		t.Errorf("an unknown fault: %v", err)
	}
	vs := variant.Variants()
	dim := vs[0].Dimension
	n := 0
	for _, v := range vs {
		if v.Dimension == dim {
			n++
		}
	}
	if got, err := ChooseVariants([]string{dim}); err != nil || len(got) != n {
		t.Errorf("dimension %s: %d settings (%v), want %d", dim, len(got), err, n)
	}
	if got, err := ChooseVariants([]string{"none"}); err != nil || len(got) != 0 {
		t.Errorf("none: %v, %v", got, err)
	}
	if _, err := ChooseVariants([]string{"no-such-setting"}); err == nil || !strings.Contains(err.Error(), "unknown variant or dimension") {
		t.Errorf("an unknown setting: %v", err)
	}
}
