package selftest

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/merchant-harness/mph/sandbox/variant"
)

// VariantEntry is one row of the specificity matrix: a document-allowed
// setting and whether the suites passed it.
type VariantEntry struct {
	Variant variant.Variant `json:"variant"`
	Run     Run             `json:"run"`
	Passed  bool            `json:"passed"`
}

// SeedEntry is one seed's row: the settings it drew and whether the suites
// passed the server they make together.
type SeedEntry struct {
	Seed     uint64   `json:"seed"`
	Settings []string `json:"settings"`
	Run      Run      `json:"run"`
	Passed   bool     `json:"passed"`
}

// Specificity is the dual of the kill matrix: every setting the document
// allows must pass, alone and combined by a seed; a failed spec is a false
// positive of the suites.
type Specificity struct {
	Variants       []VariantEntry `json:"variants"`
	VariantsPassed int            `json:"variantsPassed"`
	VariantsTotal  int            `json:"variantsTotal"`
	// FalsePositives are the settings the suites failed.
	FalsePositives []VariantEntry `json:"falsePositives"`
	// VariantErrors are setting runs that broke (neither passed nor failed).
	VariantErrors []VariantEntry `json:"variantErrors"`

	Seeds       []SeedEntry `json:"seeds"`
	SeedsPassed int         `json:"seedsPassed"`
	SeedsTotal  int         `json:"seedsTotal"`
	FailedSeeds []SeedEntry `json:"failedSeeds"`
	SeedErrors  []SeedEntry `json:"seedErrors"`
}

// OK reports whether every setting and every seed passed.
func (s Specificity) OK() bool {
	return s.VariantsPassed == s.VariantsTotal && s.SeedsPassed == s.SeedsTotal
}

// Clean reports whether a run is a pass: exit 0, no failed spec,
// no harness error.
func (r Run) Clean() bool {
	return r.Error == "" && r.ExitCode == 0 && len(r.Failed) == 0 && len(r.HarnessErrors) == 0
}

func specificity(vs []variant.Variant, runs []Run, seeds []uint64, seedRuns []Run) Specificity {
	s := Specificity{VariantsTotal: len(vs), SeedsTotal: len(seeds)}
	for i, v := range vs {
		e := VariantEntry{Variant: v, Run: runs[i], Passed: runs[i].Clean()}
		s.Variants = append(s.Variants, e)
		switch {
		case e.Passed:
			s.VariantsPassed++
		case e.Run.Error != "":
			s.VariantErrors = append(s.VariantErrors, e)
		default:
			s.FalsePositives = append(s.FalsePositives, e)
		}
	}
	for i, seed := range seeds {
		r := seedRuns[i]
		e := SeedEntry{Seed: seed, Settings: r.Settings, Run: r, Passed: r.Clean()}
		s.Seeds = append(s.Seeds, e)
		switch {
		case e.Passed:
			s.SeedsPassed++
		case r.Error != "":
			s.SeedErrors = append(s.SeedErrors, e)
		default:
			s.FailedSeeds = append(s.FailedSeeds, e)
		}
	}
	return s
}

// ReproduceVariant is the one command that runs a setting's check again.
func ReproduceVariant(name string) string {
	return "mph selftest --fault none --variant " + name
}

// ReproduceSeed is the one command that runs a seed's check again.
func ReproduceSeed(seed uint64) string {
	return fmt.Sprintf("mph selftest --fault none --variant none --seed %d", seed)
}

// writeSpecificity prints the specificity matrix beside the kill matrix.
func (m *Matrix) writeSpecificity(w io.Writer) {
	s := m.Specificity
	if s.VariantsTotal > 0 {
		m.writeVariants(w)
	}
	if s.SeedsTotal > 0 {
		m.writeSeeds(w)
	}
}

func (m *Matrix) writeVariants(w io.Writer) {
	s := m.Specificity
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "SETTING\tDIMENSION\tPROFILE\tVERDICT\tFALSE POSITIVES")
	for _, e := range s.Variants {
		profile := "default"
		if e.Variant.Profile != "" {
			profile = strings.Join(strings.Fields(e.Variant.Profile), " ")
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", e.Variant.Name, e.Variant.Dimension, trunc(profile, 40), runVerdict(e.Run), trunc(runFailures(e.Run), 100))
	}
	tw.Flush()
	fmt.Fprintf(w, "\nspecificity: %d/%d settings passed alone (%d false positives, %d broken runs)\n", s.VariantsPassed, s.VariantsTotal, len(s.FalsePositives), len(s.VariantErrors))
	for _, e := range s.FalsePositives {
		fmt.Fprintf(w, "FALSE POSITIVE %s (%s; %s): %s\n  reproduce: %s\n", e.Variant.Name, e.Variant.Dimension, e.Variant.Document,
			strings.Join(append(append([]string{}, e.Run.Failed...), e.Run.HarnessErrors...), "; "), ReproduceVariant(e.Variant.Name))
	}
	for _, e := range s.VariantErrors {
		fmt.Fprintf(w, "ERROR setting %s: %s\n  reproduce: %s\n", e.Variant.Name, trunc(e.Run.Error, 400), ReproduceVariant(e.Variant.Name))
	}
}

func (m *Matrix) writeSeeds(w io.Writer) {
	s := m.Specificity
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "SEED\tSETTINGS\tVERDICT\tFALSE POSITIVES")
	for _, e := range s.Seeds {
		fmt.Fprintf(tw, "%d\t%d\t%s\t%s\n", e.Seed, len(e.Settings), runVerdict(e.Run), trunc(runFailures(e.Run), 110))
	}
	tw.Flush()
	fmt.Fprintf(w, "\nseeds: %d/%d combined servers passed (%d failed, %d broken runs)\n", s.SeedsPassed, s.SeedsTotal, len(s.FailedSeeds), len(s.SeedErrors))
	for _, e := range append(append([]SeedEntry{}, s.FailedSeeds...), s.SeedErrors...) {
		why := strings.Join(append(append([]string{}, e.Run.Failed...), e.Run.HarnessErrors...), "; ")
		if e.Run.Error != "" {
			why = trunc(e.Run.Error, 400)
		}
		fmt.Fprintf(w, "FAILED SEED %d: %s\n  settings: %s\n  reproduce: %s\n", e.Seed, why, strings.Join(e.Settings, " "), ReproduceSeed(e.Seed))
	}
}

// runVerdict is a setting's or seed's verdict word.
func runVerdict(r Run) string {
	switch {
	case r.Error != "":
		return "ERROR"
	case !r.Clean():
		return "FAILED"
	}
	return "passed"
}

// runFailures is what failed a run, or "-".
func runFailures(r Run) string {
	switch {
	case r.Error != "":
		return r.Error
	case r.Clean():
		return "-"
	}
	return caughtBy(append(append([]string{}, r.Failed...), r.HarnessErrors...))
}
