package selftest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/merchant-harness/mph/api"
	"github.com/merchant-harness/mph/sandbox/variant"
)

// DefaultSeedCount is how many seeds of combined settings a self-test runs.
const DefaultSeedCount = 20

// DefaultSeeds are the seeds a self-test runs: 1 to n.
func DefaultSeeds(n int) []uint64 {
	out := make([]uint64, n)
	for i := range out {
		out[i] = uint64(i + 1)
	}
	return out
}

// MergeOverlays merges profile overlays in order: maps merge key by key, a
// later scalar or list replaces an earlier one. The settings' overlays of
// different dimensions set disjoint keys (a sandbox test), so their order
// does not matter there.
func MergeOverlays(overlays ...string) ([]byte, error) {
	merged := map[string]any{}
	for i, o := range overlays {
		if strings.TrimSpace(o) == "" {
			continue
		}
		var m map[string]any
		if err := yaml.Unmarshal([]byte(o), &m); err != nil {
			return nil, fmt.Errorf("overlay %d: %w", i+1, err)
		}
		mergeInto(merged, m)
	}
	if len(merged) == 0 {
		return nil, nil
	}
	return yaml.Marshal(merged)
}

func mergeInto(dst, src map[string]any) {
	for k, v := range src {
		sub, isMap := v.(map[string]any)
		prev, hadMap := dst[k].(map[string]any)
		if isMap && hadMap {
			mergeInto(prev, sub)
			continue
		}
		dst[k] = v
	}
}

// SeedOverlay is the merged profile overlay of the settings seed draws.
func SeedOverlay(seed uint64) ([]byte, error) {
	var overlays []string
	for _, v := range variant.SeedSettings(seed) {
		overlays = append(overlays, v.Profile)
	}
	return MergeOverlays(overlays...)
}

// loadOverlay writes overlay into dir as name.profile.yaml and loads it over
// the default profile; an empty overlay is the default profile (no file).
func loadOverlay(dir, name string, overlay []byte) (*api.Profile, string, error) {
	if len(strings.TrimSpace(string(overlay))) == 0 {
		return nil, "", nil
	}
	path := filepath.Join(dir, name+".profile.yaml")
	if err := os.WriteFile(path, overlay, 0o600); err != nil {
		return nil, "", fmt.Errorf("writing the profile: %w", err)
	}
	p, err := api.LoadProfile(path)
	if err != nil {
		return nil, "", fmt.Errorf("the profile: %w", err)
	}
	return p, path, nil
}
