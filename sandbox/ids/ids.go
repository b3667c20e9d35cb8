// Package ids makes the sandbox's identifiers: random hex for resource and
// event ids, random digits and characters for cards' numbers and codes and
// vouchers, and the ids its corrupting faults and settings make up. They
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

// Digits returns n random decimal digits.
func Digits(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte('0' + rand.IntN(10))
	}
	return string(b)
}

// alnum are the characters of vouchers' codes: upper-case letters and
// digits, without the look-alikes I, O, 0 and 1.
const alnum = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"

// Alnum returns n random characters of alnum.
func Alnum(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = alnum[rand.IntN(len(alnum))]
	}
	return string(b)
}

// DigitIn returns one random character of set.
func DigitIn(set string) string {
	i := rand.IntN(len(set))
	return set[i : i+1]
}
