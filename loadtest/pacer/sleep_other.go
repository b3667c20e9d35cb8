//go:build !linux

package pacer

import "time"

// sleepPrecise falls back to the runtime's timers outside Linux.
func sleepPrecise(d time.Duration) { time.Sleep(d) }
