package report

import (
	"fmt"
	"strings"
	"unicode"
)

// Printable makes target-controlled text safe for a terminal or a file:
// control characters other than newline and tab (an ESC starting a terminal
// sequence, a carriage return rewriting a line) become visible \xNN or
// \u escapes.
func Printable(s string) string {
	clean := true
	for _, r := range s {
		if isUnsafe(r) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case !isUnsafe(r):
			b.WriteRune(r)
		case r < 0x100:
			fmt.Fprintf(&b, `\x%02x`, r)
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
	}
	return b.String()
}

func isUnsafe(r rune) bool {
	if r == '\n' || r == '\t' {
		return false
	}
	return unicode.IsControl(r) || r == '\u2028' || r == '\u2029' || r == '\u202e'
}
