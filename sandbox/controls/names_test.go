package controls

import (
	"slices"
	"testing"

	"github.com/merchant-harness/mph/requirements"
)

// Every control the capability vocabulary names is one the reference lists
// at /_sandbox/capabilities, so a spec needing it runs against the sandbox.
func TestCapabilityControlsAreListed(t *testing.T) {
	n := 0
	for _, c := range requirements.Capabilities() {
		if name, ok := c.Control(); ok {
			n++
			if !slices.Contains(Names, name) {
				t.Errorf("capability %s names control %q, which /_sandbox/capabilities does not list (%v)", c, name, Names)
			}
		}
	}
	if n == 0 {
		t.Fatal("the vocabulary names no control")
	}
}
