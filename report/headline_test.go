package report

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"strings"
	"testing"

	"github.com/onsi/ginkgo/v2/types"
	"github.com/onsi/gomega"

	"github.com/merchant-harness/mph/result"
)

// gomegaFailure is the message Gomega writes for a failed assertion.
func gomegaFailure(assert func(g gomega.Gomega)) string {
	var msg string
	assert(gomega.NewGomega(func(m string, _ ...int) { msg = m }))
	return msg
}

// Long failure messages lose their middle, never the matcher's words nor
// the start and end of what was expected and what came back.
func TestHeadlineKeepsExpectedAndActual(t *testing.T) {
	cards := make([]any, 0, 30)
	for i := 0; i < 30; i++ {
		cards = append(cards, map[string]any{"id": fmt.Sprintf("crd_%024d", i), "status": "ACTIVE"})
	}
	long := strings.Repeat("x", 500)
	exchange := "\n\n--- HTTP exchange 1 of 1 (redacted) ---\n> GET http://h/v1/merchant/cards?search=ref-1\n< 200 OK (3ms)\nreproduce: curl …\n"
	for _, tc := range []struct {
		name   string
		assert func(g gomega.Gomega)
		want   []string
	}{
		{"length of a long list, annotated", func(g gomega.Gomega) {
			g.Expect(cards).To(gomega.HaveLen(1), "the search for the reference finds one card")
		}, []string{"the search for the reference finds one card: Expected", `"crd_000000000000000000000000"`, "to have length 1"}},
		{"substring of a long string", func(g gomega.Gomega) {
			g.Expect(long + "tail-of-actual").To(gomega.ContainSubstring("needle"))
		}, []string{"Expected xxxx", "tail-of-actual", "to contain substring needle"}},
		{"equality of two long strings differing at the end", func(g gomega.Gomega) {
			g.Expect(long + "A").To(gomega.Equal(long + "B"))
		}, []string{`Expected "...xxxxxA" to equal`, `"...xxxxxB"`}},
		{"key of a long map", func(g gomega.Gomega) {
			g.Expect(map[string]any{"a": long}).To(gomega.HaveKeyWithValue("balance", "1.00"))
		}, []string{"Expected {", "to have {key: value}", `"balance": "1.00"`}},
		{"element of a long list", func(g gomega.Gomega) {
			g.Expect(cards).To(gomega.ContainElement("crd_wanted"))
		}, []string{"Expected [", "to contain element matching crd_wanted"}},
		{"status with an annotation", func(g gomega.Gomega) {
			g.Expect(500).To(gomega.BeElementOf(200, 201), "HTTP status %d, want %v", 500, []int{200, 201})
		}, []string{"HTTP status 500, want [200 201]: Expected 500 to be an element of [200, 201]"}},
		{"a long annotation", func(g gomega.Gomega) {
			g.Expect("1.00").To(gomega.Equal("0.90"), strings.Repeat("the balance after the withdrawal of the minimum amount ", 8))
		}, []string{"the balance after", "Expected 1.00 to equal 0.90"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			msg := gomegaFailure(tc.assert)
			if msg == "" {
				t.Fatal("the assertion did not fail")
			}
			for _, details := range []string{"", exchange} {
				h := result.Headline(msg+details, "")
				if n := len([]rune(h)); n > result.MaxHeadline || strings.Contains(h, "\n") {
					t.Errorf("headline of %d runes or several lines: %q", n, h)
				}
				for _, w := range tc.want {
					if !strings.Contains(h, w) {
						t.Errorf("headline lacks %q:\n%s", w, h)
					}
				}
				if details != "" && !strings.HasSuffix(h, "[at GET /v1/merchant/cards?search=ref-1 → 200]") {
					t.Errorf("headline lacks the request:\n%s", h)
				}
				if strings.Contains(h, "Gomega truncated") {
					t.Errorf("headline keeps Gomega's truncation notice:\n%s", h)
				}
			}
		})
	}
}

// One-line texts (skip reasons, harness errors) are cut in the middle too.
func TestShortenKeepsBothEnds(t *testing.T) {
	s := "rate limited: POST http://h/v1/merchant/cards/" + strings.Repeat("c", 400) + "/withdraw answered 429 and was not sent again"
	got := result.Shorten(s, result.MaxHeadline)
	if n := len([]rune(got)); n > result.MaxHeadline || !strings.HasPrefix(got, "rate limited: POST") || !strings.HasSuffix(got, "was not sent again") || !strings.Contains(got, "…") {
		t.Errorf("shorten = %q (%d runes)", got, n)
	}
	if result.Shorten("short", 10) != "short" || result.Shorten("abc", 0) != "" {
		t.Error("short texts are kept whole, no room gives nothing")
	}
}

// Every rendering of a failure shows the headline whole: the console, JUnit,
// Markdown and HTML keep the matcher's words and both values of a long
// failure message.
func TestEveryReportKeepsTheHeadlinesPoint(t *testing.T) {
	cards := make([]string, 40)
	for i := range cards {
		cards[i] = fmt.Sprintf("crd_%024d", i)
	}
	msg := gomegaFailure(func(g gomega.Gomega) {
		g.Expect(cards).To(gomega.HaveLen(1), "the search for the reference finds one card")
	})
	r := sample()
	r.SpecReports = append(r.SpecReports, spec("finds one card", types.SpecStateFailed, msg))
	s := result.Build(r, result.Options{})
	var console bytes.Buffer
	_ = Console(s)(&console)
	junit, err := xml.Marshal(JUnit(s))
	if err != nil {
		t.Fatal(err)
	}
	html, err := RenderHTML(s)
	if err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{"console": console.String(), "JUnit": string(junit), "Markdown": Markdown(s), "HTML": string(html)} {
		for _, want := range []string{"the search for the reference finds one card: Expected", "crd_000000000000000000000000", "to have length 1"} {
			if name == "Markdown" {
				want = mdEscape(want) // as Markdown shows it
			}
			if !strings.Contains(text, want) {
				t.Errorf("%s lacks %q", name, want)
			}
		}
	}
}
