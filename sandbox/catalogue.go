package sandbox

import (
	"github.com/merchant-harness/mph/sandbox/fault"
	"github.com/merchant-harness/mph/sandbox/variant"
)

// The catalogues as the commands read them: the faults (their table is
// sandbox/fault) and the dimensions of allowed behaviour (sandbox/variant).

// Fault is one injectable deviation from the contract (fault.Fault).
type Fault = fault.Fault

// Faults returns the catalogue of injectable faults, sorted by name.
func Faults() []Fault { return fault.All() }

// Variant is one setting of a dimension (variant.Variant).
type Variant = variant.Variant

// Dimension is one open point and its settings (variant.Dimension).
type Dimension = variant.Dimension

// Dimensions returns every dimension, sorted by name, each with its
// settings (the reference first, then in declaration order).
func Dimensions() []Dimension { return variant.Dimensions() }

// Variants returns every setting that is not a reference, sorted by name.
func Variants() []Variant { return variant.Variants() }

// LookupVariant returns the setting named name (a reference setting too).
func LookupVariant(name string) (Variant, bool) { return variant.Lookup(name) }

// SeedSettings draws one setting of every dimension from seed, in the order
// of Dimensions() (variant.SeedSettings).
func SeedSettings(seed uint64) []Variant { return variant.SeedSettings(seed) }

// SeedVariants is the names of the settings seed draws that are not the
// reference: the --variant list that starts the same sandbox.
func SeedVariants(seed uint64) []string { return variant.SeedVariants(seed) }
