// Package failmsg checks the failure messages Gomega prints for the suites'
// types (cards, money, JSON answers): the wire form on one line, no struct
// dumps, a bounded length and a headline that fits. It serves the tests of
// the rooms that register those formats (expect, fixtures).
package failmsg

import (
	"strings"
	"testing"

	"github.com/onsi/gomega"

	"github.com/merchant-harness/mph/result"
)

// Case is one assertion that must fail, and what its message must say.
type Case struct {
	Name   string
	Assert func(g gomega.Gomega)
	Want   []string // substrings the message carries
	MaxLen int      // bytes
}

// internals are what a struct dump prints and a wire form never does.
var internals = []string{"abs:", "neg:", "Raw:", "big.Rat", `"status": `}

// Of runs one assertion and returns its failure message ("" if it passed).
func Of(assert func(g gomega.Gomega)) string {
	var msg string
	g := gomega.NewGomega(func(m string, _ ...int) { msg = m })
	assert(g)
	return msg
}

// Check runs every case: each must fail, with a message carrying its Want,
// no internals, at most MaxLen bytes, and a one-line headline within
// result.MaxHeadline.
func Check(t *testing.T, cases []Case) {
	t.Helper()
	for _, c := range cases {
		msg := Of(c.Assert)
		t.Logf("%s:\n%s", c.Name, msg)
		if msg == "" {
			t.Fatalf("%s: the assertion did not fail", c.Name)
		}
		for _, w := range c.Want {
			if !strings.Contains(msg, w) {
				t.Errorf("%s: message lacks %q:\n%s", c.Name, w, msg)
			}
		}
		for _, bad := range internals {
			if strings.Contains(msg, bad) {
				t.Errorf("%s: message dumps internals (%q):\n%s", c.Name, bad, msg)
			}
		}
		if len(msg) > c.MaxLen {
			t.Errorf("%s: message is %d bytes, want <= %d:\n%s", c.Name, len(msg), c.MaxLen, msg)
		}
		if h := result.Headline(msg, ""); len([]rune(h)) > result.MaxHeadline || strings.Contains(h, "\n") {
			t.Errorf("%s: headline %q", c.Name, h)
		}
	}
}

// C is a Case, in the order of its fields (tables of cases read better
// without the field names).
func C(name string, assert func(g gomega.Gomega), want []string, maxLen int) Case {
	return Case{Name: name, Assert: assert, Want: want, MaxLen: maxLen}
}
