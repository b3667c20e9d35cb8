// Package ids makes the sandbox's identifiers: random hex for resource and
// event ids, and the ids its corrupting faults and settings make up. They
// need uniqueness, not secrecy, so the fast, concurrency-safe math/rand/v2
// source suffices (the access tokens' ids use crypto/rand, sandbox/token).
package ids

import (
	"encoding/hex"
	"math/rand/v2"
)

// Hex returns 2n random hex digits (n at most 32).
func Hex(n int) string {
	var b [32]byte
	for i := 0; i < n; i += 8 {
		v := rand.Uint64()
		for j := 0; j < 8 && i+j < n; j++ {
			b[i+j] = byte(v >> (8 * j))
		}
	}
	return hex.EncodeToString(b[:n])
}
