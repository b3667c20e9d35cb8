package result

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

// gomegaTruncated is the notice Gomega appends to a value it cut
// (format.MaxLength): its value already ends in "...".
var gomegaTruncated = regexp.MustCompile(`(?s)\n*Gomega truncated this representation.*?#adjusting-output\n*`)

// gomegaType matches Gomega's type annotations such as "<int>: " or
// "<[]string | len:2, cap:2>: " (and pointer addresses inside them).
var gomegaType = regexp.MustCompile(`<[^<>\n]{1,80}>: `)

// gomegaInnerType matches the type annotations Gomega puts before nested
// values (`"id": <string>"crd_1"`).
var gomegaInnerType = regexp.MustCompile(`<[^<>\n]{1,80}>([\["{0-9-])`)

var spaces = regexp.MustCompile(`\s+`)

// Headline condenses a failure message into one line of at most MaxHeadline
// characters: the assertion (what was expected, what came back) and the last
// request of the spec with its status. A long message is cut in the middle
// of its values, never of the words between them: "Expected [crd_1, …,
// crd_9] to have length 1" keeps the matcher's phrase and both values.
func Headline(message, details string) string {
	return headlineWithin(message, details, MaxHeadline)
}

// headlineWithin is Headline within max characters.
func headlineWithin(message, details string, max int) string {
	assertion, exchanges := SplitExchanges(message)
	if exchanges == "" {
		exchanges = details
	}
	a := strings.TrimPrefix(strings.TrimSpace(assertion), HarnessErrorPrefix)
	at := lastRequest(exchanges)
	if at != "" {
		at = " [at " + at + "]"
	}
	room := max - utf8.RuneCountInString(at)
	return fit(segments(a), room) + at
}

// SplitExchanges separates the assertion text from the exchanges the fail
// handler appended to it.
func SplitExchanges(message string) (assertion, exchanges string) {
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
	return Cut(req, 120)
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

// Cut shortens s to at most n runes, marking the cut with "…".
func Cut(s string, n int) string {
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

// segment is one part of an assertion message: words (the annotation, "Expected",
// the matcher's phrase) or a value Gomega printed indented.
type segment struct {
	text  string
	value bool
}

// segments splits a failure message into its words and its values, each
// on one line. An annotation line before "Expected" ends with ": ".
func segments(msg string) []segment {
	msg = gomegaTruncated.ReplaceAllString(msg, "\n")
	var out []segment
	var cur []string
	value := false
	flush := func() {
		t := gomegaType.ReplaceAllString(strings.Join(cur, " "), "")
		t = strings.TrimSpace(spaces.ReplaceAllString(gomegaInnerType.ReplaceAllString(t, "$1"), " "))
		if t != "" {
			out = append(out, segment{t, value})
		}
		cur = nil
	}
	for _, line := range strings.Split(msg, "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		indented := strings.HasPrefix(line, "  ") || strings.HasPrefix(line, "\t")
		if indented != value || (!indented && strings.TrimSpace(line) == "Expected") {
			flush()
			value = indented
		}
		cur = append(cur, line)
	}
	flush()
	// "annotation\nExpected" reads "annotation: Expected".
	for i := 0; i+1 < len(out); i++ {
		if !out[i].value && out[i+1].text == "Expected" {
			out[i].text = strings.TrimRight(out[i].text, ":. ") + ":"
		}
	}
	return out
}

// fit joins the segments with spaces within room characters. Values keep at
// least a fair share (and never less than minValue each) and are cut in
// the middle; the words between them are cut only when they alone exceed
// the room, in the middle too.
func fit(segs []segment, room int) string {
	if room <= 1 || len(segs) == 0 {
		return ""
	}
	lens := make([]int, len(segs))
	total := len(segs) - 1 // the joining spaces
	for i, s := range segs {
		lens[i] = utf8.RuneCountInString(s.text)
		total += lens[i]
	}
	if total > room {
		budget := room - (len(segs) - 1)
		words, values := 0, 0
		for i, s := range segs {
			if s.value {
				values++
			} else {
				words += lens[i]
			}
		}
		reserve := 0
		for i, s := range segs {
			if s.value {
				reserve += min(lens[i], minValue)
			}
		}
		wordRoom := min(words, max(0, budget-reserve))
		fitShare(segs, lens, false, wordRoom)
		used := 0
		for i, s := range segs {
			if !s.value {
				used += lens[i]
			}
		}
		fitShare(segs, lens, true, max(0, budget-used))
	}
	parts := make([]string, 0, len(segs))
	for i, s := range segs {
		if t := Shorten(s.text, lens[i]); t != "" {
			parts = append(parts, t)
		}
	}
	return Shorten(strings.Join(parts, " "), room)
}

// minValue is the fewest characters a cut value keeps.
const minValue = 24

// fitShare fits the segments of one kind (values or words) into room by
// water-filling: each gets at most its length, the short ones leave their
// rest to the long ones. lens is updated in place.
func fitShare(segs []segment, lens []int, values bool, room int) {
	var idx []int
	for i, s := range segs {
		if s.value == values {
			idx = append(idx, i)
		}
	}
	for len(idx) > 0 {
		each := room / len(idx)
		var long []int
		for _, i := range idx {
			if lens[i] <= each {
				room -= lens[i]
			} else {
				long = append(long, i)
			}
		}
		if len(long) == len(idx) {
			for k, i := range long {
				lens[i] = each
				if k < room%len(long) {
					lens[i]++
				}
			}
			return
		}
		idx = long
	}
}

// Shorten cuts s to at most n runes in the middle, keeping its start and its
// end (where a message states what came back) around "…".
func Shorten(s string, n int) string {
	if n <= 0 {
		return ""
	}
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	if n < 8 {
		return Cut(s, n)
	}
	head := (n - 1) * 3 / 5
	tail := n - 1 - head
	return strings.TrimRight(string(r[:head]), " ") + "…" + strings.TrimLeft(string(r[len(r)-tail:]), " ")
}

// reproducePrefix starts the reproduce line of each recorded exchange.
const reproducePrefix = "reproduce: "

// Reproduce is the reproduce line of the last recorded exchange of a spec
// (the request its verdict rests on), without its prefix; "" when none.
func Reproduce(message, details string) string {
	_, ex := SplitExchanges(message)
	for _, text := range []string{ex, details} {
		blocks := Exchanges(text)
		if len(blocks) == 0 {
			continue
		}
		for _, line := range strings.Split(blocks[len(blocks)-1], "\n") {
			if r, ok := strings.CutPrefix(line, reproducePrefix); ok {
				return r
			}
		}
	}
	return ""
}
