package sandbox

import (
	"math/rand/v2"
	"net/netip"
	"strconv"

	"github.com/merchant-harness/mph/sandbox/ids"
)

// randHex returns 2n random hex digits (sandbox/ids).
func randHex(n int) string { return ids.Hex(n) }

// randDigits returns n random decimal digits.
func randDigits(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte('0' + rand.IntN(10))
	}
	return string(b)
}

const alnum = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"

func randAlnum(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = alnum[rand.IntN(len(alnum))]
	}
	return string(b)
}

// randDigitIn returns one random character of set.
func randDigitIn(set string) string {
	i := rand.IntN(len(set))
	return set[i : i+1]
}

func itoa(n int) string { return strconv.Itoa(n) }

func ipStrings(a []netip.Addr) []string {
	out := make([]string, len(a))
	for i, x := range a {
		out[i] = x.String()
	}
	return out
}
