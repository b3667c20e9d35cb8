package redact

import (
	"bytes"
	"strings"
	"testing"
)

func TestEscape(t *testing.T) {
	cases := []struct{ in, want string }{
		{"plain text\nline 2\tok", "plain text\nline 2\tok"},
		{"\x1b[2K\r✔ all specs passed", `\x1b[2K\r✔ all specs passed`},
		{"bell\x07 backspace\x08 del\x7f", `bell\x07 backspace\x08 del\x7f`},
		{"c1 \u009b31m csi", `c1 \u009b31m csi`},
		{"bidi \u202eevil\u2066", `bidi \u202eevil\u2066`},
		{"bad utf8 \xff\xfe", `bad utf8 \xff\xfe`},
		{"naïve café ✔", "naïve café ✔"},
	}
	for _, c := range cases {
		if got := Escape(c.in); got != c.want {
			t.Errorf("Escape(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestWriterRedactsAndKeepsOnlyALeadingCR(t *testing.T) {
	var b bytes.Buffer
	w := NewWriter(&b)
	_, _ = w.Write([]byte("\rprogress 50%"))
	_, _ = w.Write([]byte("\nbody: \x1b[2K\r✔ all specs passed, key sk_live_abcdef123456\n"))
	got := b.String()
	if !strings.HasPrefix(got, "\rprogress 50%") {
		t.Errorf("leading CR of a progress redraw lost: %q", got)
	}
	if strings.Count(got, "\r") != 1 || strings.Contains(got, "\x1b") {
		t.Errorf("control characters from the target reached the console: %q", got)
	}
	if strings.Contains(got, "abcdef123456") {
		t.Errorf("secret reached the console: %q", got)
	}
}
