package main

import (
	"github.com/merchant-harness/mph/sandbox"
	"github.com/merchant-harness/mph/selftest"
)

// selectVariants returns the variants named by --variant (all when none is
// named, none for "none").
func selectVariants(names []string) ([]sandbox.Variant, error) {
	all := sandbox.Variants()
	if len(names) == 0 {
		return all, nil
	}
	if len(names) == 1 && names[0] == "none" {
		return []sandbox.Variant{}, nil
	}
	byName := map[string]sandbox.Variant{}
	for _, v := range all {
		byName[v.Name] = v
	}
	out := []sandbox.Variant{}
	for _, n := range names {
		v, ok := byName[n]
		if !ok {
			return nil, usageErr("unknown variant %q (see mph sandbox --list-variants)", n)
		}
		out = append(out, v)
	}
	return out, nil
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
