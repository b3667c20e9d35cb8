package sandbox

import (
	"net/netip"
	"strconv"
)

func itoa(n int) string { return strconv.Itoa(n) }

func ipStrings(a []netip.Addr) []string {
	out := make([]string, len(a))
	for i, x := range a {
		out[i] = x.String()
	}
	return out
}
