package selftest

import (
	"fmt"

	"github.com/merchant-harness/mph/sandbox/fault"
	"github.com/merchant-harness/mph/sandbox/variant"
)

// The choices below are what `mph selftest` asks for with --fault,
// --variant, --seeds and --seed; their errors are usage errors.

// ChooseFaults is the catalogue, or only the named faults ("none": none).
func ChooseFaults(names []string) ([]fault.Fault, error) {
	faults := fault.All()
	if len(names) == 1 && names[0] == "none" {
		return []fault.Fault{}, nil
	}
	if len(names) == 0 {
		return faults, nil
	}
	byName := map[string]fault.Fault{}
	for _, f := range faults {
		byName[f.Name] = f
	}
	var out []fault.Fault
	for _, n := range names {
		f, ok := byName[n]
		if !ok {
			return nil, fmt.Errorf("unknown fault %q (see mph sandbox --list-faults)", n)
		}
		out = append(out, f)
	}
	return out, nil
}

// ChooseVariants returns the named settings, a dimension's name standing
// for its settings (every setting besides the references when none is
// named, none for "none").
func ChooseVariants(names []string) ([]variant.Variant, error) {
	all := variant.Variants()
	if len(names) == 0 {
		return all, nil
	}
	if len(names) == 1 && names[0] == "none" {
		return []variant.Variant{}, nil
	}
	byName := map[string]variant.Variant{}
	byDim := map[string][]variant.Variant{}
	for _, v := range all {
		byName[v.Name] = v
		byDim[v.Dimension] = append(byDim[v.Dimension], v)
	}
	out := []variant.Variant{}
	for _, n := range names {
		if v, ok := byName[n]; ok {
			out = append(out, v)
			continue
		}
		if vs, ok := byDim[n]; ok {
			out = append(out, vs...)
			continue
		}
		return nil, fmt.Errorf("unknown variant or dimension %q (see mph sandbox --list-variants)", n)
	}
	return out, nil
}

// ChooseSeeds returns the seeds listed, else 1 to count; without either
// (count -1), DefaultSeedCount seeds when no fault or setting is named
// (named false), none otherwise.
func ChooseSeeds(listed []uint, count int, named bool) ([]uint64, error) {
	switch {
	case len(listed) > 0:
		out := make([]uint64, len(listed))
		for i, s := range listed {
			out[i] = uint64(s)
		}
		return out, nil
	case count > 0:
		return DefaultSeeds(count), nil
	case count == 0:
		return []uint64{}, nil
	case count < -1:
		return nil, fmt.Errorf("--seeds %d: want a count of 0 or more", count)
	case named:
		return []uint64{}, nil
	}
	return DefaultSeeds(DefaultSeedCount), nil
}
