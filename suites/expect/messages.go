package expect

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
	"github.com/merchant-harness/mph/suites/framework"
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
	if framework.Profile().Strict.MessageWording {
		for _, family := range m.Words {
			Expect(SaysAnyOf(msg, family...)).To(BeTrue(), "%s: the message %q says none of %q (profile strict.messageWording)", what, msg, family)
		}
	}
}

// NotFoundWords are ways a message says something was not found (judged
// only under strict.messageWording).
var NotFoundWords = []string{"not found", "not exist", "no such", "unknown", "could not find", "could not be found", "does not exist"}

// The meanings of the scenario messages (Errors, Scenarios): the document
// states what a message says, not its words, so their keyword families are
// judged only under strict.messageWording (ExpectMessageMeans). Add Names
// for the values a message must name (scenario 6: the reference).
var (
	// AsksForBearerToken: scenario 2, "message asks for the bearer token".
	AsksForBearerToken = Meaning{Words: [][]string{{"bearer", "token"}}}
	// ReportsInvalidCredentials: scenario 3, "message reports invalid credentials".
	ReportsInvalidCredentials = Meaning{Words: [][]string{{"credential", "secret", "key", "merchant"}, {"invalid", "incorrect", "wrong", "bad", "not valid"}}}
	// SaysIPNotAllowed: scenario 4, "message says the IP address is not
	// allowed for the merchant account".
	SaysIPNotAllowed = Meaning{Words: [][]string{{"ip", "address"}, {"not allowed", "not permitted", "not whitelisted", "whitelist", "allowlist"}}}
	// SaysCardNotFound: scenario 5, "message says the virtual card was not found".
	SaysCardNotFound = Meaning{Words: [][]string{{"card"}, NotFoundWords}}
	// SaysGiftOrderNotFound: scenario 6, "message names the reference and
	// says the gift card order was not found" (add the reference as a Name).
	SaysGiftOrderNotFound = Meaning{Words: [][]string{{"gift"}, NotFoundWords}}
)

// StatesStatus reports whether a status change's message ("message (string
// stating the new status)") may state the new status: a non-empty message
// that does not name the opposite status value (ACTIVE, FROZEN, as a word
// and in capitals, as the API writes them) without naming the new one.
// Under strict.messageWording it must also say it in one of the usual
// words (frozen, blocked, suspended, ... / active, unfrozen, activated, ...).
func StatesStatus(msg, status string) bool {
	return statesStatus(msg, status, framework.Profile().Strict.MessageWording)
}

func statesStatus(msg, status string, wording bool) bool {
	if strings.TrimSpace(msg) == "" {
		return false
	}
	opposite := map[string]string{"ACTIVE": "FROZEN", "FROZEN": "ACTIVE"}[status]
	if opposite != "" && namesWord(msg, opposite) && !namesWord(msg, status) {
		return false
	}
	if !wording {
		return true
	}
	m := strings.ToLower(msg)
	undo := SaysAnyOf(m, "unfroz", "unfreez", "unblock", "unlock", "reactivat", "re-activat")
	switch status {
	case "FROZEN":
		return !undo && SaysAnyOf(m, "frozen", "freez", "block", "lock", "suspend", "disabl", "deactivat", "inactive")
	case "ACTIVE":
		return undo || SaysAnyOf(strings.NewReplacer("inactive", "", "deactivat", "").Replace(m), "active", "activat", "enabl")
	}
	return strings.Contains(m, strings.ToLower(status))
}

// namesWord reports whether text holds word as a whole word (case kept).
func namesWord(text, word string) bool {
	for i := strings.Index(text, word); i >= 0; {
		end := i + len(word)
		if (i == 0 || !isWordByte(text[i-1])) && (end == len(text) || !isWordByte(text[end])) {
			return true
		}
		next := strings.Index(text[i+1:], word)
		if next < 0 {
			break
		}
		i += 1 + next
	}
	return false
}

func isWordByte(b byte) bool {
	return b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
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
