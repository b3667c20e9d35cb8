// Package variant is the catalogue of the sandbox's dimensions: the open
// points of the API document and the settings it allows for each, declared
// one file per area, and the set of settings a sandbox runs with. The
// sandbox tests a setting at the point of the logic it changes
// (`s.variants.On(variant.X)`); docs/variants.md is generated from here.
package variant

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Variant is one setting of a dimension: a behaviour the API document allows,
// the dual of a Fault. A conformance run against a sandbox switched into the
// setting, using the setting's profile overlay, must pass; a failure is a
// false positive of the suites (they assert something the document does not
// state). Setting 0 of every dimension is the reference: what the sandbox
// does when no setting of the dimension is chosen.
type Variant struct {
	Name        string `json:"name"`
	Dimension   string `json:"dimension"`
	Description string `json:"description"`
	// Document quotes the API document's words that allow the behaviour.
	Document string `json:"document"`
	// Profile is a target-profile YAML overlay the setting needs ("" for
	// the defaults): what a provider would declare for such a server.
	Profile string `json:"profile,omitempty"`
	// Reference marks setting 0 of its dimension: the sandbox's own choice.
	Reference bool `json:"reference,omitempty"`
}

// Dimension is one open point of the document (or a few tightly linked
// ones) and the settings the document allows for it, the reference first.
type Dimension struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	// OpenPoints are the IDs of requirements/open.yaml this dimension varies.
	OpenPoints []string  `json:"openPoints"`
	Settings   []Variant `json:"settings"`
}

// ID indexes the setting registry; Set holds one bit per setting, tested
// only at the point of the logic the setting changes
// (`s.variants.On(variant.X)`), like the fault set. Response-shape settings
// are applied by sandbox/rewrite after the handler ran.
type ID uint16

const maxVariants = 512

// Set is the settings a sandbox runs with (Build).
type Set struct {
	bits    [maxVariants / 64]uint64
	rewrite bool // some answer is rewritten
}

// On reports whether the setting id is on.
func (v *Set) On(id ID) bool { return v.bits[id/64]&(1<<(id%64)) != 0 }

func (v *Set) set(id ID) { v.bits[id/64] |= 1 << (id % 64) }

// def is one registered setting: what it switches on when selected.
type def struct {
	Variant
	rewrite bool // the setting changes answers after the handler
	also    []ID // other settings' behaviour it includes
	dim     *Dim
}

// Dim is a declared dimension: its settings in order, the reference first.
type Dim struct {
	name, desc string
	open       []string
	settings   []ID
}

var (
	variantRegistry []def // every setting, in declaration order (its ID)
	dimRegistry     []*Dim
)

// declareDimension registers a dimension varying the open points open, and
// its reference setting: refName is what the sandbox does when no other
// setting of the dimension is chosen, doc the document's words leaving the
// point open.
func declareDimension(name string, open []string, desc, doc, refName, refDesc string) *Dim {
	for _, d := range dimRegistry {
		if d.name == name {
			panic("sandbox: dimension " + name + " declared twice")
		}
	}
	d := &Dim{name: name, desc: desc, open: open}
	dimRegistry = append(dimRegistry, d)
	d.add(Variant{Name: refName, Description: refDesc, Document: doc, Reference: true}, false)
	return d
}

// setting registers a document-allowed setting of d: its name, what the
// sandbox then does, the document's words allowing it, the profile overlay it
// needs, whether it rewrites answers after the handler (sandbox/rewrite),
// and the settings whose behaviour it includes. Its hook tests
// `s.variants.On(variant.X)`; its probe is in sandbox/variants_*_test.go;
// docs/variants.md is generated (mph sandbox --list-variants --format
// markdown).
func (d *Dim) setting(name, desc, doc, profile string, rewrite bool, also ...ID) ID {
	return d.add(Variant{Name: name, Description: desc, Document: doc, Profile: profile}, rewrite, also...)
}

func (d *Dim) add(v Variant, rewrite bool, also ...ID) ID {
	if len(variantRegistry) == maxVariants {
		panic("sandbox: too many settings; raise maxVariants")
	}
	for _, o := range variantRegistry {
		if o.Name == v.Name {
			panic("sandbox: setting " + v.Name + " declared twice")
		}
	}
	v.Dimension = d.name
	variantRegistry = append(variantRegistry, def{Variant: v, rewrite: rewrite, also: also, dim: d})
	id := ID(len(variantRegistry) - 1)
	d.settings = append(d.settings, id)
	return id
}

// Dimensions returns every dimension, sorted by name, each with its
// settings (the reference first, then in declaration order).
func Dimensions() []Dimension {
	out := make([]Dimension, len(dimRegistry))
	for i, d := range dimRegistry {
		out[i] = Dimension{Name: d.name, Description: d.desc, OpenPoints: append([]string(nil), d.open...)}
		for _, id := range d.settings {
			out[i].Settings = append(out[i].Settings, variantRegistry[id].Variant)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Variants returns every setting that is not a reference (the behaviours the
// sandbox shows only when switched on), sorted by name.
func Variants() []Variant {
	var out []Variant
	for _, d := range variantRegistry {
		if !d.Reference {
			out = append(out, d.Variant)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Lookup returns the setting named name (a reference setting too).
func Lookup(name string) (Variant, bool) {
	for _, d := range variantRegistry {
		if d.Name == name {
			return d.Variant, true
		}
	}
	return Variant{}, false
}

// SeedSettings draws one setting of every dimension from seed, in the order
// of Dimensions(). The draw of a dimension depends only on the seed and the
// dimension's name, so a seed keeps drawing the same setting of a dimension
// when other dimensions are added; every setting, the reference included, is
// equally likely.
func SeedSettings(seed uint64) []Variant {
	dims := Dimensions()
	out := make([]Variant, len(dims))
	for i, d := range dims {
		h := sha256.Sum256([]byte(strconv.FormatUint(seed, 10) + "/" + d.Name))
		out[i] = d.Settings[binary.BigEndian.Uint64(h[:8])%uint64(len(d.Settings))]
	}
	return out
}

// SeedVariants is the names of the settings seed draws that are not the
// reference: the --variant list that starts the same sandbox.
func SeedVariants(seed uint64) []string {
	var out []string
	for _, v := range SeedSettings(seed) {
		if !v.Reference {
			out = append(out, v.Name)
		}
	}
	return out
}

// Build switches on the named settings. Settings of one dimension
// exclude each other; naming two is an error, as is an unknown name.
func Build(names []string) (Set, error) {
	var vs Set
	chosen := map[*Dim]string{}
	for _, n := range names {
		i := -1
		for j, d := range variantRegistry {
			if d.Name == n {
				i = j
				break
			}
		}
		if i < 0 {
			return Set{}, fmt.Errorf("sandbox: unknown variant %q (see mph sandbox --list-variants)", n)
		}
		d := variantRegistry[i]
		if prev, dup := chosen[d.dim]; dup && prev != n {
			return Set{}, fmt.Errorf("sandbox: variants %s and %s are settings of one dimension (%s); choose one", prev, n, d.dim.name)
		}
		chosen[d.dim] = n
		vs.set(ID(i))
		for _, id := range d.also {
			vs.set(id)
		}
		vs.rewrite = vs.rewrite || d.rewrite
	}
	return vs, nil
}

// Rewrites reports whether some chosen setting rewrites answers after the
// handler.
func (v *Set) Rewrites() bool { return v.rewrite }

// Varies reports whether a setting of d other than its reference is on.
func (v *Set) Varies(d *Dim) bool { return v.OnAny(d.settings[1:]...) }

// OnAny reports whether any of ids is on.
func (v *Set) OnAny(ids ...ID) bool {
	for _, id := range ids {
		if v.On(id) {
			return true
		}
	}
	return false
}

// quote joins the document's words of a setting: "a"; "b".
func quote(words ...string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = `"` + w + `"`
	}
	return strings.Join(q, "; ")
}
