package selftest

import (
	"runtime"
	"strings"

	"github.com/merchant-harness/mph/sandbox/fault"
)

// FaultSelection is the label filter of a fault's run: the specs citing any
// requirement the fault breaks (every spec carries its requirement IDs as
// labels). A fault that these specs kill is killed by the whole suite too,
// and the kill is attributed to the rule the fault breaks. A fault whose
// requirements no spec cites selects nothing and survives.
func FaultSelection(f fault.Fault) string {
	return strings.Join(f.Requirements, " || ")
}

// faultSelection is the filter of f's run: FaultSelection, or every spec
// with o.Full.
func (o Options) faultSelection(f fault.Fault) string {
	if o.Full {
		return ""
	}
	return FaultSelection(f)
}

// DefaultParallel is how many runs go at once by default: two per CPU the
// Go runtime may use (GOMAXPROCS, which follows a container's CPU quota), at
// most 16. A run spends much of its time waiting (its requests go one at a
// time to a sandbox in this process), so one run per CPU leaves the CPUs
// idle; past 16 runs a big machine would hold more memory (about 50 MB a
// child) for little gain.
func DefaultParallel() int { return min(2*runtime.GOMAXPROCS(0), 16) }
