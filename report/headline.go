package report

import (
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"unicode/utf8"
)

// MaxHeadline is the longest one-line failure message (JUnit <failure
// message>, console, Markdown).
const MaxHeadline = 300

// exchangeSep starts each recorded exchange in a failure message or the
// http-exchanges report entry.
const exchangeSep = "--- HTTP exchange "

// gomegaType matches Gomega's type annotations such as "<int>: " or
// "<[]string | len:2, cap:2>: " (and pointer addresses inside them).
var gomegaType = regexp.MustCompile(`<[^<>\n]{1,80}>: `)

var spaces = regexp.MustCompile(`\s+`)

// Headline condenses a failure message into one line of at most MaxHeadline
// characters: the assertion (what was expected, what came back) and the last
// request of the spec with its status.
func Headline(message, details string) string {
	assertion, exchanges := splitExchanges(message)
	if exchanges == "" {
		exchanges = details
	}
	a := strings.TrimPrefix(strings.TrimSpace(assertion), HarnessErrorPrefix)
	// An annotation line ("balance after the withdrawal") introduces
	// Gomega's own message.
	if first, rest, ok := strings.Cut(a, "\n"); ok && !strings.HasPrefix(first, "Expected") && strings.HasPrefix(strings.TrimSpace(rest), "Expected") {
		a = strings.TrimRight(first, ":. ") + ": " + rest
	}
	a = gomegaType.ReplaceAllString(a, "")
	a = strings.TrimSpace(spaces.ReplaceAllString(a, " "))
	at := lastRequest(exchanges)
	if at != "" {
		at = " [at " + at + "]"
	}
	room := MaxHeadline - utf8.RuneCountInString(at)
	return cut(a, room) + at
}

// splitExchanges separates the assertion text from the exchanges the fail
// handler appended to it.
func splitExchanges(message string) (assertion, exchanges string) {
	i := strings.Index(message, "\n\n"+exchangeSep)
	j := strings.Index(message, "\n\n(")
	if j >= 0 && strings.Contains(message[j:], "earlier exchanges") && (i < 0 || j < i) {
		i = j
	}
	if i < 0 {
		return message, ""
	}
	return message[:i], message[i+2:]
}

// lastRequest renders the last exchange as "POST /v1/merchant/cards → 500".
func lastRequest(exchanges string) string {
	blocks := Exchanges(exchanges)
	if len(blocks) == 0 {
		return ""
	}
	var req, status string
	for _, line := range strings.Split(blocks[len(blocks)-1], "\n") {
		switch {
		case req == "" && strings.HasPrefix(line, "> ") && strings.Contains(line, "://"):
			method, raw, _ := strings.Cut(strings.TrimPrefix(line, "> "), " ")
			if u, err := url.Parse(raw); err == nil {
				raw = u.RequestURI()
			}
			req = method + " " + raw
		case status == "" && strings.HasPrefix(line, "< "):
			f := strings.Fields(strings.TrimPrefix(line, "< "))
			if len(f) > 0 {
				status = f[0]
				if status == "(no" {
					status = "no answer"
				}
			}
		}
	}
	if req == "" {
		return ""
	}
	if status != "" {
		req += " → " + status
	}
	return cut(req, 120)
}

// Exchanges splits a rendering of recorded exchanges into one block each.
func Exchanges(text string) []string {
	var out []string
	for _, part := range strings.Split(text, exchangeSep) {
		if strings.Contains(part, "(redacted) ---") {
			out = append(out, exchangeSep+strings.TrimRight(part, "\n")+"\n")
		}
	}
	return out
}

// LastExchanges keeps the last n blocks of a rendering of exchanges, with
// every line (headers, bodies) cut to maxLine bytes and the cut stated.
func LastExchanges(text string, n, maxLine int) string {
	blocks := Exchanges(text)
	var b strings.Builder
	if len(blocks) > n {
		fmt.Fprintf(&b, "(%d earlier exchanges omitted; all are in report.json)\n", len(blocks)-n)
		blocks = blocks[len(blocks)-n:]
	}
	for _, blk := range blocks {
		for _, line := range strings.SplitAfter(blk, "\n") {
			if len(line) > maxLine {
				full := len(strings.TrimRight(line, "\n"))
				line = cutBytes(line, maxLine) + fmt.Sprintf(" …[cut: %d of %d bytes shown]\n", maxLine, full)
			}
			b.WriteString(line)
		}
	}
	return b.String()
}

// cut shortens s to at most n runes, marking the cut with "…".
func cut(s string, n int) string {
	if n <= 1 {
		return ""
	}
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// cutBytes shortens s to at most n bytes without splitting a rune.
func cutBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
