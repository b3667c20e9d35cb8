package selftest

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/merchant-harness/mph/api"
	"github.com/merchant-harness/mph/sandbox/fault"
	"github.com/merchant-harness/mph/sandbox/variant"
)

// Every variant's profile overlay is a valid profile that changes something.
func TestVariantProfilesParse(t *testing.T) {
	def := api.DefaultProfile()
	for _, v := range variant.Variants() {
		if v.Profile == "" {
			continue
		}
		path := filepath.Join(t.TempDir(), v.Name+".yaml")
		if err := os.WriteFile(path, []byte(v.Profile), 0o600); err != nil {
			t.Fatal(err)
		}
		p, err := api.LoadProfile(path)
		if err != nil {
			t.Errorf("%s: %v", v.Name, err)
			continue
		}
		if strings.TrimSpace(v.Profile) != "" && equalProfiles(p, def) {
			t.Errorf("%s: the profile overlay changes nothing", v.Name)
		}
	}
}

func equalProfiles(a, b *api.Profile) bool {
	return strings.EqualFold(mustYAML(a), mustYAML(b))
}

func TestSpecificityCountsFalsePositives(t *testing.T) {
	vs := []variant.Variant{{Name: "a"}, {Name: "b"}, {Name: "c"}}
	runs := []Run{{Variant: "a"}, {Variant: "b", ExitCode: 1, Failed: []string{"spec x"}}, {Variant: "c", Error: "broke"}}
	s := specificity(vs, runs, nil, nil)
	if s.VariantsPassed != 1 || s.VariantsTotal != 3 || len(s.FalsePositives) != 1 || len(s.VariantErrors) != 1 || s.OK() {
		t.Fatalf("specificity = %+v", s)
	}
}

func mustYAML(p *api.Profile) string {
	b, err := yaml.Marshal(p)
	if err != nil {
		panic(err)
	}
	return string(b)
}

func TestExecuteBuildsTheSpecificityMatrix(t *testing.T) {
	vs := variant.Variants()
	var withProfile variant.Variant
	for _, v := range vs {
		if v.Profile != "" {
			withProfile = v
			break
		}
	}
	failing := vs[0]
	m, err := Execute(context.Background(), Options{
		Faults:   []fault.Fault{},
		Variants: []variant.Variant{failing, withProfile},
		Seeds:    []uint64{},
		Parallel: 2,
		Run: func(ctx context.Context, j Job) (Outcome, error) {
			if j.Label == "variant:"+withProfile.Name && (j.Config.ProfilePath == "" || j.Config.Profile == nil) {
				t.Errorf("variant %s ran without its profile", withProfile.Name)
			}
			if j.LabelFilter != "" {
				t.Errorf("variant %s ran only the specs of %q: a variant must face every spec", j.Label, j.LabelFilter)
			}
			catches := map[string][]string{"variant:" + failing.Name: {"spec X"}}
			return fakeConform(t, catches, nil)(ctx, j)
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if m.VariantsTotal != 2 || m.VariantsPassed != 1 || len(m.FalsePositives) != 1 || m.FalsePositives[0].Variant.Name != failing.Name {
		t.Fatalf("specificity: %+v", m.Specificity)
	}
	if m.OK() {
		t.Fatal("a false positive must fail the self-test")
	}
	var text bytes.Buffer
	m.WriteText(&text)
	if !strings.Contains(text.String(), "FALSE POSITIVE "+failing.Name) || !strings.Contains(text.String(), "specificity: 1/2") ||
		!strings.Contains(text.String(), "reproduce: mph selftest --fault none --variant "+failing.Name) {
		t.Fatalf("text matrix:\n%s", text.String())
	}
}

func TestReadReportToleratesMaskedTimestamps(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.json")
	body := `[{"SuiteDescription":"x","StartTime":"2026-11-23T13:16:13.19***6Z","EndTime":"2026-11-23T13:16:14.1Z","SpecReports":[]}]`
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := readReport(path); err != nil {
		t.Fatalf("readReport: %v", err)
	}
}
