package selftest

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/merchant-harness/mph/api"
	"github.com/merchant-harness/mph/sandbox"
)

// VariantEntry is one row of the specificity matrix: a document-allowed
// variant and whether the suites passed it.
type VariantEntry struct {
	Variant sandbox.Variant `json:"variant"`
	Run     Run             `json:"run"`
	Passed  bool            `json:"passed"`
}

// Specificity is the dual of the kill matrix: every variant the document
// allows must pass; a failed spec is a false positive of the suites.
type Specificity struct {
	Variants       []VariantEntry `json:"variants"`
	VariantsPassed int            `json:"variantsPassed"`
	VariantsTotal  int            `json:"variantsTotal"`
	// FalsePositives are the variants the suites failed.
	FalsePositives []VariantEntry `json:"falsePositives"`
	// VariantErrors are variant runs that broke (neither passed nor failed).
	VariantErrors []VariantEntry `json:"variantErrors"`
}

// OK reports whether every variant passed.
func (s Specificity) OK() bool { return s.VariantsPassed == s.VariantsTotal }

// Clean reports whether a run is a pass: exit 0, no failed spec,
// no harness error.
func (r Run) Clean() bool {
	return r.Error == "" && r.ExitCode == 0 && len(r.Failed) == 0 && len(r.HarnessErrors) == 0
}

func specificity(vs []sandbox.Variant, runs []Run) Specificity {
	s := Specificity{VariantsTotal: len(vs)}
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
	return s
}

// runVariant starts the sandbox with the variant and runs the suites with
// the variant's profile (the defaults overlaid with its YAML).
func runVariant(ctx context.Context, o Options, v sandbox.Variant) Run {
	start := time.Now()
	fail := func(msg string) Run {
		return Run{Variant: v.Name, Error: msg, Duration: Millis(time.Since(start))}
	}
	if v.Profile != "" {
		path := filepath.Join(o.WorkDir, "variant-"+v.Name+".profile.yaml")
		if err := os.WriteFile(path, []byte(v.Profile), 0o600); err != nil {
			return fail("writing the variant's profile: " + err.Error())
		}
		p, err := api.LoadProfile(path)
		if err != nil {
			return fail("the variant's profile: " + err.Error())
		}
		o.profile, o.profilePath = p, path
	}
	r := runOne(ctx, o, "", sandbox.Options{Variants: []string{v.Name}}, "")
	r.Variant = v.Name
	return r
}

// writeSpecificity prints the specificity matrix beside the kill matrix.
func (m *Matrix) writeSpecificity(w io.Writer) {
	s := m.Specificity
	if s.VariantsTotal == 0 {
		return
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "VARIANT\tPROFILE\tVERDICT\tFALSE POSITIVES")
	for _, e := range s.Variants {
		profile := "default"
		if e.Variant.Profile != "" {
			profile = strings.Join(strings.Fields(e.Variant.Profile), " ")
		}
		verdict, by := "passed", "-"
		switch {
		case e.Run.Error != "":
			verdict, by = "ERROR", e.Run.Error
		case !e.Passed:
			verdict, by = "FAILED", caughtBy(append(append([]string{}, e.Run.Failed...), e.Run.HarnessErrors...))
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", e.Variant.Name, trunc(profile, 50), verdict, trunc(by, 110))
	}
	tw.Flush()
	fmt.Fprintf(w, "\nspecificity: %d/%d variants passed (%d false positives, %d broken runs)\n", s.VariantsPassed, s.VariantsTotal, len(s.FalsePositives), len(s.VariantErrors))
	for _, e := range s.FalsePositives {
		fmt.Fprintf(w, "FALSE POSITIVE %s (%s): %s\n", e.Variant.Name, e.Variant.Document, strings.Join(append(append([]string{}, e.Run.Failed...), e.Run.HarnessErrors...), "; "))
	}
	for _, e := range s.VariantErrors {
		fmt.Fprintf(w, "ERROR variant %s: %s\n", e.Variant.Name, trunc(e.Run.Error, 400))
	}
}
