package settings

import (
	"strings"

	"github.com/merchant-harness/mph/sandbox/ids"
	"github.com/merchant-harness/mph/sandbox/variant"
)

// SimulationReference is a simulation's reference for event type et.
func (s *Settings) SimulationReference(et string) string {
	if s.v.On(variant.SimRefRandom) {
		return "SIMULATE_" + strings.ToUpper(ids.Hex(6))
	}
	return "SIMULATE_" + strings.ToUpper(et) + "_" + ids.Hex(4)
}
