package main

import (
	"github.com/merchant-harness/mph/sandbox"
	"github.com/merchant-harness/mph/selftest"
)

// selectVariants returns the settings named by --variant, a dimension's
// name standing for its settings (every setting besides the references when
// none is named, none for "none").
func selectVariants(names []string) ([]sandbox.Variant, error) {
	all := sandbox.Variants()
	if len(names) == 0 {
		return all, nil
	}
	if len(names) == 1 && names[0] == "none" {
		return []sandbox.Variant{}, nil
	}
	byName := map[string]sandbox.Variant{}
	byDim := map[string][]sandbox.Variant{}
	for _, v := range all {
		byName[v.Name] = v
		byDim[v.Dimension] = append(byDim[v.Dimension], v)
	}
	out := []sandbox.Variant{}
	for _, n := range names {
		if v, ok := byName[n]; ok {
			out = append(out, v)
			continue
		}
		if vs, ok := byDim[n]; ok {
			out = append(out, vs...)
			continue
		}
		return nil, usageErr("unknown variant or dimension %q (see mph sandbox --list-variants)", n)
	}
	return out, nil
}

// selectSeeds returns the seeds of --seed, else 1 to --seeds; without
// either, DefaultSeedCount seeds when no fault or setting is named, none
// otherwise.
func selectSeeds(f selftestFlags) ([]uint64, error) {
	switch {
	case len(f.seed) > 0:
		out := make([]uint64, len(f.seed))
		for i, s := range f.seed {
			out[i] = uint64(s)
		}
		return out, nil
	case f.seeds > 0:
		return selftest.DefaultSeeds(f.seeds), nil
	case f.seeds == 0:
		return []uint64{}, nil
	case f.seeds < -1:
		return nil, usageErr("--seeds %d: want a count of 0 or more", f.seeds)
	case len(f.only) > 0 || len(f.vonly) > 0:
		return []uint64{}, nil
	}
	return selftest.DefaultSeeds(selftest.DefaultSeedCount), nil
}

// variantVerdict is a variant run's progress word: it must pass.
func variantVerdict(r selftest.Run) string {
	switch {
	case r.Clean():
		return "passed"
	case r.Error != "":
		return "ERROR"
	}
	return "FALSE POSITIVE"
}
