package redact

import (
	"encoding/base64"
	"encoding/hex"
	"strings"
	"unicode/utf8"
)

// Secrets inside encoded text. A target echoing a request in base64 or hex
// (a body, a header block, a Basic credential inside them) hides from every
// pattern: the redactor decodes each run of base64 or hex long enough to
// carry one, redacts the text it holds (itself decoded in turn, to
// maxNesting levels) and, when something was masked, writes the run again,
// encoded the same way, from the redacted text. Runs that do not decode to
// text (identifiers, hashes, random tokens) are left as they are.

const (
	// maxNesting is how many encodings deep a secret is looked for:
	// base64 of a text that carries base64 of a secret.
	maxNesting = 2
	// minEncodedRun is the shortest run decoded (12 bytes of base64, 8 of hex).
	minEncodedRun = 16
	// maxEncodedRun bounds one decoded run (a bigger one is left to the
	// by-value registry, which knows the encodings of every secret).
	maxEncodedRun = 4 << 20
)

func isB64Byte(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/' || c == '-' || c == '_'
}

// maskEncoded redacts the text inside every encoded run of s, depth levels deep.
func maskEncoded(s string, depth int) string {
	if depth <= 0 || len(s) < minEncodedRun {
		return s
	}
	var b strings.Builder
	last := 0
	for i := 0; i < len(s); {
		if !isB64Byte(s[i]) {
			i++
			continue
		}
		j := i
		for j < len(s) && isB64Byte(s[j]) {
			j++
		}
		end := j
		for end < len(s) && end-j < 2 && s[end] == '=' {
			end++
		}
		if n := end - i; n >= minEncodedRun && n <= maxEncodedRun {
			if out, ok := redactRun(s[i:end], depth); ok {
				if last == 0 {
					b.Grow(len(s))
				}
				b.WriteString(s[last:i])
				b.WriteString(out)
				last = end
			}
		}
		i = end
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// redactRun decodes run as hex or base64; when it holds text that
// redaction changes, it returns the redacted text encoded the same way.
func redactRun(run string, depth int) (string, bool) {
	if isHex(run) {
		for _, off := range []int{0, 1} { // an odd run: a digit glued before it
			r := run[off:]
			if len(r)%2 != 0 {
				continue
			}
			if raw, err := hex.DecodeString(r); err == nil && textLike(raw) {
				if red := textDepth(string(raw), depth-1); red != string(raw) {
					enc := hex.EncodeToString([]byte(red))
					if strings.ToUpper(r) == r {
						enc = strings.ToUpper(enc)
					}
					return run[:off] + enc, true
				}
				return "", false
			}
		}
	}
	body := strings.TrimRight(run, "=")
	urlAlpha := strings.ContainsAny(body, "-_")
	if urlAlpha && strings.ContainsAny(body, "+/") {
		return "", false // two alphabets: not one base64 text
	}
	enc := base64.RawStdEncoding
	if urlAlpha {
		enc = base64.RawURLEncoding
	}
	raw, err := enc.DecodeString(body)
	if err != nil || !textLike(raw) {
		return "", false
	}
	red := textDepth(string(raw), depth-1)
	if red == string(raw) {
		return "", false
	}
	out := enc.EncodeToString([]byte(red))
	if len(body) != len(run) { // it was padded: pad it again
		out += strings.Repeat("=", (4-len(out)%4)%4)
	}
	return out, true
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

// textLike reports whether decoded bytes are text: valid UTF-8 without
// control characters other than tab, newline and carriage return. Random
// bytes (an identifier or a hash decoded by chance) almost never are.
func textLike(b []byte) bool {
	if len(b) < 8 || !utf8.Valid(b) {
		return false
	}
	for _, c := range b {
		if c < 0x20 && c != '\t' && c != '\n' && c != '\r' || c == 0x7f {
			return false
		}
	}
	return true
}
