package sandbox

import (
	"fmt"
	"sort"
)

// Fault is one injectable deviation from the contract. A conformance suite run
// against a sandbox started with the fault must fail the named requirements;
// that is how the self-test proves the suites can fail.
type Fault struct {
	Name         string   `json:"name"`
	Area         string   `json:"area"`
	Description  string   `json:"description"`
	Requirements []string `json:"requirements"`
	// Profile is the overlay of a fault that breaks a strict knob only
	// (fault_profiles.go): its run declares the knob.
	Profile string `json:"profile,omitempty"`
}

// faultID indexes the registry; faultSet holds one bit per fault, tested only
// at the precise point(s) of the logic the fault corrupts
// (`if s.faults.on(fX) { ... }`): off, a fault costs one predictable branch
// and never alters the normal path.
type faultID uint16

const maxFaults = 256

type faultSet struct{ bits [maxFaults / 64]uint64 }

func (f faultSet) on(id faultID) bool { return f.bits[id/64]&(1<<(id%64)) != 0 }

func (f *faultSet) set(id faultID) { f.bits[id/64] |= 1 << (id % 64) }

// registry holds every fault in declaration order (its faultID).
var registry []Fault

// declareFault registers a fault of an API area. To add a fault: declare it
// in faults_<area>.go, test it at its point (`s.faults.on(fX)`) and give it
// a probe in faults_<area>_test.go proving the clean sandbox keeps the rule
// and the faulty one breaks it. docs/faults.md is generated from the
// registry (mph sandbox --list-faults --format markdown).
func declareFault(area, name, desc string, reqs ...string) faultID {
	if len(registry) == maxFaults {
		panic("sandbox: too many faults; raise maxFaults")
	}
	registry = append(registry, Fault{Name: name, Area: area, Description: desc, Requirements: reqs})
	return faultID(len(registry) - 1)
}

// Faults returns the catalogue of injectable faults, sorted by name.
func Faults() []Fault {
	out := make([]Fault, len(registry))
	for i, f := range registry {
		out[i] = f
		out[i].Requirements = append([]string(nil), f.Requirements...)
		out[i].Profile = faultProfiles[f.Name]
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

func buildFaults(names []string) (faultSet, error) {
	var fs faultSet
	for _, n := range names {
		found := false
		for i, f := range registry {
			if f.Name == n {
				fs.set(faultID(i))
				found = true
				break
			}
		}
		if !found {
			return faultSet{}, fmt.Errorf("sandbox: unknown fault %q (see mph sandbox --list-faults)", n)
		}
	}
	return fs, nil
}

// rewrites reports whether a fault changes answers after the handler.
func (f faultSet) rewrites() bool {
	return f.on(fCreatedStatusPending) || f.on(fNotFoundMsgGeneric) || f.rewritesMembers()
}
