// Package fault is the sandbox's catalogue of injectable faults: each a
// deviation from the contract, declared in the file of the API area it
// breaks with the requirements it breaks, and the set of faults a sandbox
// runs with. The sandbox tests a fault at the point of the logic it
// corrupts (`s.faults.On(fault.X)`); faults that corrupt members of an
// answer carry their own mutation (members.go). docs/faults.md is
// generated from here.
package fault

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
	// (profiles.go): its run declares the knob.
	Profile string `json:"profile,omitempty"`
}

// ID indexes the registry; Set holds one bit per fault, tested only at the
// precise point(s) of the logic the fault corrupts
// (`if s.faults.On(fault.X) { ... }`): off, a fault costs one predictable
// branch and never alters the normal path.
type ID uint16

const maxFaults = 256

// Set is the faults a sandbox runs with (Build).
type Set struct{ bits [maxFaults / 64]uint64 }

// On reports whether the fault id is on.
func (f Set) On(id ID) bool { return f.bits[id/64]&(1<<(id%64)) != 0 }

func (f *Set) set(id ID) { f.bits[id/64] |= 1 << (id % 64) }

// registry holds every fault in declaration order (its ID).
var registry []Fault

// declare registers a fault of an API area. To add a fault: declare it in
// <area>.go, test it at its point in the sandbox (`s.faults.On(fault.X)`)
// and give it a probe in sandbox/faults_<area>_test.go proving the clean
// sandbox keeps the rule and the faulty one breaks it. docs/faults.md is
// generated from the registry (mph sandbox --list-faults --format
// markdown).
func declare(area, name, desc string, reqs ...string) ID {
	if len(registry) == maxFaults {
		panic("sandbox: too many faults; raise maxFaults")
	}
	registry = append(registry, Fault{Name: name, Area: area, Description: desc, Requirements: reqs})
	return ID(len(registry) - 1)
}

// All returns the catalogue of injectable faults, sorted by name.
func All() []Fault {
	out := make([]Fault, len(registry))
	for i, f := range registry {
		out[i] = f
		out[i].Requirements = append([]string(nil), f.Requirements...)
		out[i].Profile = faultProfiles[f.Name]
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Build switches on the named faults; an unknown name is an error.
func Build(names []string) (Set, error) {
	var fs Set
	for _, n := range names {
		found := false
		for i, f := range registry {
			if f.Name == n {
				fs.set(ID(i))
				found = true
				break
			}
		}
		if !found {
			return Set{}, fmt.Errorf("sandbox: unknown fault %q (see mph sandbox --list-faults)", n)
		}
	}
	return fs, nil
}

// Rewrites reports whether a fault changes answers after the handler.
func (f Set) Rewrites() bool {
	return f.On(CreatedStatusPending) || f.On(NotFoundMsgGeneric) || f.rewritesMembers()
}

// Mask is the set of the faults ids (a hook tests a mask with AnyOf).
func Mask(ids ...ID) Set {
	var m Set
	for _, id := range ids {
		m.set(id)
	}
	return m
}

// AnyOf reports whether a fault of m is on.
func (f Set) AnyOf(m Set) bool {
	for i := range f.bits {
		if f.bits[i]&m.bits[i] != 0 {
			return true
		}
	}
	return false
}
