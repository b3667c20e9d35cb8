package main

import (
	"os"
	"runtime/debug"
)

// Soft memory limits of the commands that read a hostile target's answers
// whole (conform, proxy): their live heap stays a few tens of MB, bounded
// by the body and header caps, but a burst of garbage (a 1 MiB answer
// redacted, validated and rendered, again and again) let the heap double
// before the collector caught up. The limit makes it collect sooner; it
// never fails an allocation. GOMEMLIMIT, when set, wins.
const (
	conformMemoryLimit = 100 << 20
	proxyMemoryLimit   = 96 << 20
)

func softMemoryLimit(n int64) {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(n)
	}
}
