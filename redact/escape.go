package redact

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"unicode/utf8"
)

// Escape makes bytes from the target safe for a terminal or a text, JUnit or
// Markdown report: C0 control characters other than newline and tab
// (ESC, carriage return, backspace...), DEL, C1 controls, Unicode
// bidirectional overrides and isolates, and invalid UTF-8 are written as Go
// escapes (\x1b, \r, \u009b, \u202e, \xff). A target therefore cannot move
// the cursor, erase a line or draw a fake "all specs passed" line.
func Escape(s string) string {
	if !needsEscape(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\n' || r == '\t':
			b.WriteRune(r)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case unsafeRune(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// Safe redacts then escapes: what every piece of target text goes through
// before a console or a text report.
func Safe(s string) string { return Escape(Text(s)) }

func needsEscape(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 && c != '\n' && c != '\t' || c == 0x7f {
			return true
		}
		if c >= 0x80 {
			for _, r := range s[i:] {
				if r == utf8.RuneError || unsafeRune(r) || r < 0x20 && r != '\n' && r != '\t' || r == 0x7f {
					return true
				}
			}
			return false
		}
	}
	return false
}

// unsafeRune: C1 controls and the bidirectional formatting characters that
// reorder what a terminal or an editor displays.
func unsafeRune(r rune) bool {
	return r >= 0x80 && r <= 0x9f || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069
}

// Writer redacts and escapes everything written through it: the CLI's
// console. A carriage return is honoured only as the first byte of a write
// (the harness redrawing its own progress line); anywhere else it is escaped
// like any other control character.
type Writer struct {
	mu sync.Mutex
	w  io.Writer
}

// NewWriter wraps w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// Write writes p redacted and escaped. It reports len(p) on success, as the
// caller's bytes were all consumed.
func (w *Writer) Write(p []byte) (int, error) {
	s := string(p)
	lead := ""
	if strings.HasPrefix(s, "\r") {
		lead, s = "\r", s[1:]
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if _, err := io.WriteString(w.w, lead+Safe(s)); err != nil {
		return 0, err
	}
	return len(p), nil
}
