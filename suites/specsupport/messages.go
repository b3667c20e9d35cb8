package specsupport

// What the error scenarios' messages mean, for the error specs and the gift
// card specs.

import (
	. "github.com/onsi/ginkgo/v2"

	. "github.com/merchant-harness/mph/suites/expect"
)

// The scenarios give each message's meaning, not its sentence ("message
// says the virtual card was not found", "asks for the bearer token"): by
// default a message is judged by what can be checked without guessing
// words (non-empty, the amounts stated, the values named); the keyword
// families below are checked only under the profile's strict.messageWording.
var (
	notFoundWords = []string{"found", "not exist", "no such", "unknown", "could not find", "cannot find", "can't find",
		"doesn't exist", "could not be located", "cannot be located"}
	BearerWords      = []string{"bearer", "token"}
	CredentialWords  = []string{"credential", "secret", "key", "merchant"}
	InvalidWords     = []string{"invalid", "incorrect", "wrong", "bad", "not valid", "do not match", "does not match"}
	ipWords          = []string{"ip", "address"}
	notAllowedWords  = []string{"not allowed", "not permitted", "not whitelisted", "whitelist", "allowlist", "forbidden", "blocked", "denied"}
	virtualCardWords = []string{"card"}
	giftOrderWords   = []string{"gift", "order"}
)

// ExpectSaysCardNotFound: scenario 5, "message says the virtual card was
// not found".
func ExpectSaysCardNotFound(body JSON, what string) {
	GinkgoHelper()
	ExpectMessageMeans(body, what+": scenario 5 (the virtual card was not found)", Meaning{Words: [][]string{virtualCardWords, notFoundWords}})
}

// ExpectSaysGiftOrderNotFound: scenario 6, "message names the reference and
// says the gift card order was not found".
func ExpectSaysGiftOrderNotFound(body JSON, ref string) {
	GinkgoHelper()
	ExpectMessageMeans(body, "scenario 6 (names the reference, the gift card order was not found)", Meaning{Names: []string{ref}, Words: [][]string{giftOrderWords, notFoundWords}})
}

// ExpectSaysIPNotAllowed: scenario 4, "message says the IP address is not
// allowed for the merchant account".
func ExpectSaysIPNotAllowed(body JSON, what string) {
	GinkgoHelper()
	ExpectMessageMeans(body, what+": scenario 4 (the IP address is not allowed)", Meaning{Words: [][]string{ipWords, notAllowedWords}})
}
