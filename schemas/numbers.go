package schemas

import "fmt"

// Bounds of the numbers the harness reads. RFC 8259 §6 lets an
// implementation limit the range and precision of the numbers it accepts;
// without a bound, a target answering a number of a million digits (or
// 1e999999999) makes exact arithmetic on it take gigabytes and seconds.
// No amount, fee, limit or status of the API comes near these bounds.
const (
	MaxNumberChars   = 64  // characters of one number literal
	MaxNumberExpMagn = 400 // magnitude of its decimal exponent
)

// NumberReadable says why a JSON number literal is beyond the bounds ("" when
// it is within them).
func NumberReadable(lit string) string {
	if len(lit) > MaxNumberChars {
		return fmt.Sprintf("a number of %d characters, more than the %d the harness reads", len(lit), MaxNumberChars)
	}
	for i := 0; i < len(lit); i++ {
		if lit[i] != 'e' && lit[i] != 'E' {
			continue
		}
		exp := 0
		for _, c := range []byte(lit[i+1:]) {
			if c >= '0' && c <= '9' {
				exp = min(exp*10+int(c-'0'), 1<<30)
			}
		}
		if exp > MaxNumberExpMagn {
			return fmt.Sprintf("a number with the exponent %s, beyond the ±%d the harness reads", lit[i+1:], MaxNumberExpMagn)
		}
	}
	return ""
}

// unreadableNumber finds the first number literal of a JSON text beyond the
// bounds, outside strings; it says why ("" when there is none).
func unreadableNumber(body []byte) string {
	inString, escaped := false, false
	for i := 0; i < len(body); i++ {
		c := body[i]
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '-' || c >= '0' && c <= '9':
			j := i
			for j < len(body) && (body[j] == '-' || body[j] == '+' || body[j] == '.' || body[j] == 'e' || body[j] == 'E' || body[j] >= '0' && body[j] <= '9') {
				j++
			}
			if n := j - i; n > MaxNumberChars {
				return fmt.Sprintf("a number of %d characters, more than the %d the harness reads", n, MaxNumberChars)
			}
			if why := NumberReadable(string(body[i:j])); why != "" {
				return why
			}
			i = j - 1
		}
	}
	return ""
}
