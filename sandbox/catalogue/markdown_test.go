package catalogue

import (
	"bytes"
	"os"
	"testing"
)

// The committed docs/faults.md and docs/variants.md are what the registries
// generate (mph sandbox --list-faults/--list-variants --format markdown).
func TestCatalogueDocsCurrent(t *testing.T) {
	for _, c := range []struct {
		path string
		gen  func(*bytes.Buffer) error
	}{
		{"../../docs/faults.md", func(b *bytes.Buffer) error { return FaultsMarkdown(b) }},
		{"../../docs/variants.md", func(b *bytes.Buffer) error { return VariantsMarkdown(b) }},
	} {
		var want bytes.Buffer
		if err := c.gen(&want); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(c.path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want.Bytes()) {
			t.Errorf("%s is stale: regenerate it with mph sandbox --list-%s --format markdown > %s",
				c.path, map[string]string{"../../docs/faults.md": "faults", "../../docs/variants.md": "variants"}[c.path], c.path[6:])
		}
	}
}
