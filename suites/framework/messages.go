package framework

// Messages whose meaning the document gives ("message states the required
// total ... and the available amount", "names the reference and says the
// gift card order was not found") are checked for that meaning only as far
// as it can be done without guessing wording: non-empty, the amounts stated
// (in any decimal form), the values named. Keyword families (what "asks for
// the bearer token" or "not found" may be worded as) are checked only under
// the profile's strict.messageWording.

import (
	"fmt"
	"math/big"
	"regexp"
	"strings"

	"github.com/merchant-harness/mph/schemas"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// Meaning is what a message conveys per the document.
type Meaning struct {
	// Amounts the message states (scenario 1: the required total and the
	// available amount), in any decimal form or rounded to the cent.
	Amounts []Money
	// Names are values the message names, as they are (scenario 6: the
	// reference), compared case-insensitively.
	Names []string
	// Words are keyword families, each met by any one of its words (case
	// ignored): checked only under strict.messageWording, since the
	// document gives a meaning, not a sentence.
	Words [][]string
}

// ExpectMessageMeans asserts an error body's message (string or array)
// conveys m; what names the message in failures (e.g. "scenario 1").
func ExpectMessageMeans(body JSON, what string, m Meaning) {
	GinkgoHelper()
	msg := strings.TrimSpace(strings.Join(Messages(body), " "))
	Expect(msg).NotTo(BeEmpty(), "%s: the message is empty (%v)", what, body["message"])
	for _, a := range m.Amounts {
		Expect(ContainsAmount(msg, a)).To(BeTrue(), "%s: the message %q does not state the amount %s", what, msg, a)
	}
	for _, n := range m.Names {
		Expect(strings.Contains(strings.ToLower(msg), strings.ToLower(n))).To(BeTrue(), "%s: the message %q does not name %q", what, msg, n)
	}
	if Profile().Strict.MessageWording {
		for _, family := range m.Words {
			Expect(SaysAnyOf(msg, family...)).To(BeTrue(), "%s: the message %q says none of %q (profile strict.messageWording)", what, msg, family)
		}
	}
}

// SaysAnyOf reports whether text contains any of the words, case ignored.
func SaysAnyOf(text string, words ...string) bool {
	t := strings.ToLower(text)
	for _, w := range words {
		if strings.Contains(t, strings.ToLower(w)) {
			return true
		}
	}
	return false
}

// ContainsAmount reports whether the text states the amount: exactly, or
// rounded to the cent, in any decimal form ("10", "10.0", "1,010.00",
// "1.010,00", "1 010,00", "1'010.00"), or in cents when the text says so.
func ContainsAmount(text string, m Money) bool {
	cents := strings.Contains(strings.ToLower(text), "cent")
	for _, a := range amountsIn(text) {
		if sameAmount(a, m) {
			return true
		}
		if cents && a.r.IsInt() && sameAmount(Money{new(big.Rat).Quo(a.r, big.NewRat(100, 1))}, m) {
			return true
		}
	}
	return false
}

// sameAmount: a stated amount equals m exactly, or is m rounded to the cent
// (within half a cent, stated with at most two decimals).
func sameAmount(stated, m Money) bool {
	if stated.Eq(m) {
		return true
	}
	if !hasAtMostCents(stated.rat()) {
		return false
	}
	d := new(big.Rat).Sub(stated.rat(), m.rat())
	return d.Abs(d).Cmp(big.NewRat(1, 200)) <= 0
}

func hasAtMostCents(r *big.Rat) bool {
	return new(big.Rat).Mul(r, big.NewRat(100, 1)).IsInt()
}

// numberToken is a run of digits with the separators amounts are written
// with: '.', ',', an apostrophe, a space, a no-break or narrow no-break space.
var numberToken = regexp.MustCompile(`[0-9](?:[0-9.,' \x{00a0}\x{202f}]*[0-9])?`)

// amountsIn lists every amount a text may state: each number read with '.'
// and with ',' as the decimal sign, the other marks grouping thousands, and
// each part between spaces on its own.
func amountsIn(s string) []Money {
	var out []Money
	for _, tok := range numberToken.FindAllString(s, -1) {
		if schemas.NumberReadable(strings.Trim(tok, ".,' ")) != "" {
			continue // a million digits are no amount a message states
		}
		parts := append([]string{tok}, strings.FieldsFunc(tok, isSpace)...)
		for _, p := range parts {
			p = strings.Trim(p, ".,'")
			for _, dec := range []string{".", ","} {
				if r, ok := readAmount(p, dec); ok {
					out = append(out, Money{r})
				}
			}
		}
	}
	return out
}

func isSpace(r rune) bool { return r == ' ' || r == '\u00a0' || r == '\u202f' }

// readAmount reads a number whose decimal sign is dec; the other marks may
// only group thousands (groups of three digits after the first).
func readAmount(tok, dec string) (*big.Rat, bool) {
	intPart, frac := tok, ""
	if i := strings.LastIndex(tok, dec); i >= 0 {
		intPart, frac = tok[:i], tok[i+1:]
	}
	if frac != "" && strings.Trim(frac, "0123456789") != "" {
		return nil, false
	}
	groups := strings.FieldsFunc(intPart, func(r rune) bool {
		return r == '.' || r == ',' || r == '\'' || isSpace(r)
	})
	if len(groups) == 0 || strings.Contains(intPart, dec) {
		return nil, false
	}
	for i, g := range groups {
		if strings.Trim(g, "0123456789") != "" || (i > 0 && len(g) != 3) || (i == 0 && len(groups) > 1 && len(g) > 3) {
			return nil, false
		}
	}
	r, ok := new(big.Rat).SetString(fmt.Sprintf("%s.%s0", strings.Join(groups, ""), frac))
	return r, ok
}
