package selftest

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"reflect"
	"strings"
	"sync"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/merchant-harness/mph/api"
	"github.com/merchant-harness/mph/sandbox"
	"github.com/merchant-harness/mph/sandbox/fault"
	"github.com/merchant-harness/mph/sandbox/variant"
)

// Overlays merge in order: maps key by key, later scalars win, and the
// result loads as a profile.
func TestMergeOverlays(t *testing.T) {
	got, err := MergeOverlays("cards:\n  listMaxLimit: 50\n", "", "cards:\n  withdrawVaultCredit: amount\nauth:\n  merchantIdHeader: none\n", "auth:\n  merchantIdHeader: token\n")
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := yaml.Unmarshal(got, &m); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"cards": map[string]any{"listMaxLimit": 50, "withdrawVaultCredit": "amount"}, "auth": map[string]any{"merchantIdHeader": "token"}}
	if !reflect.DeepEqual(m, want) {
		t.Fatalf("merged %v, want %v", m, want)
	}
	if empty, err := MergeOverlays("", " \n"); err != nil || empty != nil {
		t.Fatalf("no overlay: %q %v", empty, err)
	}
	if _, err := MergeOverlays("a: [b"); err == nil {
		t.Fatal("a broken overlay merged")
	}
}

// Every seed's merged overlay (and therefore every pair of settings'
// overlays merged) is a valid profile holding each drawn setting's keys.
func TestSeedOverlaysAreProfiles(t *testing.T) {
	for _, seed := range DefaultSeeds(DefaultSeedCount) {
		overlay, err := SeedOverlay(seed)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if _, _, err := loadOverlay(t.TempDir(), "seed", overlay); err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, overlay)
		}
	}
	var all []string
	for _, v := range variant.Variants() {
		if v.Profile != "" && !strings.Contains(strings.Join(all, ""), firstKey(v.Profile)) {
			all = append(all, v.Profile)
		}
	}
	merged, err := MergeOverlays(all...)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := loadOverlay(t.TempDir(), "all", merged); err != nil {
		t.Fatalf("overlays of one setting per key merged: %v\n%s", err, merged)
	}
}

func firstKey(overlay string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(overlay), "\n")
	return line
}

// The sandbox's own profile loads, and sets every strict knob of the
// profile true: the sandbox satisfies each (a knob it cannot satisfy is
// listed here with the reason).
func TestSandboxProfileSetsEveryStrictKnob(t *testing.T) {
	p, path, err := loadOverlay(t.TempDir(), "sandbox", sandbox.ProfileYAML())
	if err != nil || path == "" {
		t.Fatalf("sandbox/profile.yaml: %v", err)
	}
	notSatisfied := map[string]string{}
	var raw map[string]any
	if err := yaml.Unmarshal(sandbox.ProfileYAML(), &raw); err != nil {
		t.Fatal(err)
	}
	set, _ := raw["strict"].(map[string]any)
	st := reflect.ValueOf(p.Strict)
	for i := 0; i < st.NumField(); i++ {
		key, _, _ := strings.Cut(st.Type().Field(i).Tag.Get("yaml"), ",")
		if _, excused := notSatisfied[key]; excused {
			continue
		}
		if st.Field(i).Kind() == reflect.Bool && (set[key] != true || !st.Field(i).Bool()) {
			t.Errorf("sandbox/profile.yaml does not set strict.%s: true (the sandbox's own choice belongs there)", key)
		}
	}
	if reflect.DeepEqual(p, api.DefaultProfile()) {
		t.Fatal("the sandbox's profile is the default profile")
	}
}

// Every fault overlay names a fault, loads, and changes the profile.
func TestFaultProfilesAreProfiles(t *testing.T) {
	n := 0
	for _, f := range fault.All() {
		if f.Profile == "" {
			continue
		}
		n++
		p, _, err := loadOverlay(t.TempDir(), f.Name, []byte(f.Profile))
		if err != nil || reflect.DeepEqual(p, api.DefaultProfile()) {
			t.Errorf("fault %s: overlay %q: %v (or it changes nothing)", f.Name, f.Profile, err)
		}
	}
	if n == 0 {
		t.Fatal("no fault declares a strict overlay")
	}
}

// Execute runs the clean sandbox under both profiles, each setting with
// its overlay, each seed with its settings and merged overlay, and each
// fault with its overlay; a failing seed is reported with its settings and
// the command reproducing it.
func TestExecuteRunsSeedsProfilesAndOverlays(t *testing.T) {
	var withOverlay variant.Variant
	for _, v := range variant.Variants() {
		if v.Profile != "" {
			withOverlay = v
			break
		}
	}
	var strictFault fault.Fault
	for _, f := range fault.All() {
		if f.Profile != "" {
			strictFault = f
		}
	}
	var mu sync.Mutex
	seen := map[string]Job{}
	fake := fakeConform(t, map[string][]string{"seed:3": {"spec S"}}, nil)
	m, err := Execute(context.Background(), Options{
		Faults: []fault.Fault{strictFault}, Variants: []variant.Variant{withOverlay}, Seeds: []uint64{2, 3}, Parallel: 3, WorkDir: t.TempDir(),
		Run: func(ctx context.Context, j Job) (Outcome, error) {
			mu.Lock()
			seen[j.Label] = j
			mu.Unlock()
			return fake(ctx, j)
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	profileOf := func(label string) string {
		j, ok := seen[label]
		if !ok {
			t.Fatalf("no run %q (runs: %v)", label, keys(seen))
		}
		if j.Config.ProfilePath == "" {
			return ""
		}
		b, err := os.ReadFile(j.Config.ProfilePath)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	if profileOf("") != "" || !bytes.Equal([]byte(profileOf("clean:sandbox-profile")), sandbox.ProfileYAML()) {
		t.Error("the clean runs do not read the default and the sandbox's profile")
	}
	if profileOf("variant:"+withOverlay.Name) != withOverlay.Profile || profileOf(strictFault.Name) != strictFault.Profile {
		t.Error("a setting or a fault ran without its overlay")
	}
	want, _ := SeedOverlay(2)
	if got := profileOf("seed:2"); got != string(want) {
		t.Errorf("seed 2 ran with profile %q, want its merged overlay %q", got, want)
	}
	if m.SeedsTotal != 2 || m.SeedsPassed != 1 || len(m.FailedSeeds) != 1 || m.FailedSeeds[0].Seed != 3 ||
		!reflect.DeepEqual(m.FailedSeeds[0].Settings, variant.SeedVariants(3)) || m.OK() || !m.CleanSandboxOK {
		t.Fatalf("seeds: %+v", m.Specificity)
	}
	var text bytes.Buffer
	m.WriteText(&text)
	for _, w := range []string{"FAILED SEED 3: spec S", "settings: " + strings.Join(variant.SeedVariants(3), " "),
		"reproduce: " + ReproduceSeed(3), "clean sandbox, its own profile: PASS", "seeds: 1/2"} {
		if !strings.Contains(text.String(), w) {
			t.Errorf("text lacks %q:\n%s", w, text.String())
		}
	}
	if m.Timing.Runs != 6 {
		t.Errorf("timing counts %d runs, want 6", m.Timing.Runs)
	}
}

// The clean run under the sandbox's own profile fails the self-test when
// it fails.
func TestCleanSandboxProfileFailureFailsTheSelfTest(t *testing.T) {
	m, err := Execute(context.Background(), Options{
		Faults: []fault.Fault{}, Variants: []variant.Variant{}, Seeds: []uint64{},
		Run: fakeConform(t, map[string][]string{"clean:sandbox-profile": {"spec under a strict knob"}}, nil),
	})
	if err != nil {
		t.Fatal(err)
	}
	if m.CleanSandboxOK || m.OK() || !m.CleanOK {
		t.Fatalf("clean %v, clean under the sandbox profile %v, ok %v", m.CleanOK, m.CleanSandboxOK, m.OK())
	}
}

func keys(m map[string]Job) []string {
	var out []string
	for k := range m {
		out = append(out, fmt.Sprintf("%q", k))
	}
	return out
}
