package sandbox

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

// variantID indexes the setting registry; variantSet holds one bit per
// setting, tested only at the point of the logic the setting changes
// (`s.variants.on(vX)`), like faultSet. Response-shape settings are applied
// by rewriteAnswer (variants_rewrite.go) after the handler ran.
type variantID uint16

const maxVariants = 512

type variantSet struct {
	bits    [maxVariants / 64]uint64
	rewrite bool // some answer is rewritten
}

func (v *variantSet) on(id variantID) bool { return v.bits[id/64]&(1<<(id%64)) != 0 }

func (v *variantSet) set(id variantID) { v.bits[id/64] |= 1 << (id % 64) }

// variantDef is one registered setting: what it switches on when selected.
type variantDef struct {
	Variant
	rewrite bool        // the setting changes answers after the handler
	also    []variantID // other settings' behaviour it includes
	dim     *dimDef
}

// dimDef is a declared dimension: its settings in order, the reference first.
type dimDef struct {
	name, desc string
	open       []string
	settings   []variantID
}

var (
	variantRegistry []variantDef // every setting, in declaration order (its variantID)
	dimRegistry     []*dimDef
)

// declareDimension registers a dimension varying the open points open, and
// its reference setting: refName is what the sandbox does when no other
// setting of the dimension is chosen, doc the document's words leaving the
// point open.
func declareDimension(name string, open []string, desc, doc, refName, refDesc string) *dimDef {
	for _, d := range dimRegistry {
		if d.name == name {
			panic("sandbox: dimension " + name + " declared twice")
		}
	}
	d := &dimDef{name: name, desc: desc, open: open}
	dimRegistry = append(dimRegistry, d)
	d.add(Variant{Name: refName, Description: refDesc, Document: doc, Reference: true}, false)
	return d
}

// setting registers a document-allowed setting of d: its name, what the
// sandbox then does, the document's words allowing it, the profile overlay it
// needs, whether it rewrites answers after the handler (variants_rewrite.go),
// and the settings whose behaviour it includes. Its hook tests
// `s.variants.on(vX)`; its probe is in variants_*_test.go; docs/variants.md
// is generated (mph sandbox --list-variants --format markdown).
func (d *dimDef) setting(name, desc, doc, profile string, rewrite bool, also ...variantID) variantID {
	return d.add(Variant{Name: name, Description: desc, Document: doc, Profile: profile}, rewrite, also...)
}

func (d *dimDef) add(v Variant, rewrite bool, also ...variantID) variantID {
	if len(variantRegistry) == maxVariants {
		panic("sandbox: too many settings; raise maxVariants")
	}
	for _, o := range variantRegistry {
		if o.Name == v.Name {
			panic("sandbox: setting " + v.Name + " declared twice")
		}
	}
	v.Dimension = d.name
	variantRegistry = append(variantRegistry, variantDef{Variant: v, rewrite: rewrite, also: also, dim: d})
	id := variantID(len(variantRegistry) - 1)
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

// LookupVariant returns the setting named name (a reference setting too).
func LookupVariant(name string) (Variant, bool) {
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

// buildVariants switches on the named settings. Settings of one dimension
// exclude each other; naming two is an error, as is an unknown name.
func buildVariants(names []string) (variantSet, error) {
	var vs variantSet
	chosen := map[*dimDef]string{}
	for _, n := range names {
		i := -1
		for j, d := range variantRegistry {
			if d.Name == n {
				i = j
				break
			}
		}
		if i < 0 {
			return variantSet{}, fmt.Errorf("sandbox: unknown variant %q (see mph sandbox --list-variants)", n)
		}
		d := variantRegistry[i]
		if prev, dup := chosen[d.dim]; dup && prev != n {
			return variantSet{}, fmt.Errorf("sandbox: variants %s and %s are settings of one dimension (%s); choose one", prev, n, d.dim.name)
		}
		chosen[d.dim] = n
		vs.set(variantID(i))
		for _, id := range d.also {
			vs.set(id)
		}
		vs.rewrite = vs.rewrite || d.rewrite
	}
	return vs, nil
}

// onAny reports whether any of ids is on.
func (v *variantSet) onAny(ids ...variantID) bool {
	for _, id := range ids {
		if v.on(id) {
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
