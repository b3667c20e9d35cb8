package sandbox

import (
	"fmt"
	"net/http"
	"strings"
	"unicode"
)

// Faults of the area "Card configuration" (the registry: faults.go).

var (
	fConfigEnvAlwaysTest = declareFault("Card configuration", "config-environment-always-test", "GET /cards/config says environment TEST also to LIVE credentials.",
		"CONFIG-09", "CONFIG-02")
	fConfigVaultStale = declareFault("Card configuration", "config-vault-stale", "GET /cards/config reports the seed vault balance, never the live one.",
		"CONFIG-08")
)

// configNumberFaults each give one amount of the card configuration as a
// string, so that the suites' rule for that member alone fails.
var configNumberFaults = []struct{ member, req string }{
	{"creationFee", "CONFIG-03"},
	{"fundFee", "CONFIG-04"},
	{"withdrawalFee", "CONFIG-05"},
	{"exchangeRate", "CONFIG-07"},
	{"vaultBalance", "CONFIG-08"},
}

var _ = func() bool {
	for _, f := range configNumberFaults {
		member := f.member
		declareMemberFault("Card configuration", "config-"+kebab(member)+"-string",
			"GET /cards/config gives "+member+" as a string instead of a number.",
			http.MethodGet, pathIs("/cards/config"),
			func(top map[string]any) {
				if d := dataMember(top); d != nil {
					d[member] = fmt.Sprint(d[member])
				}
			}, f.req)
	}
	return true
}()

// kebab turns a camelCase member name into kebab-case (creationFee: creation-fee).
func kebab(s string) string {
	var b strings.Builder
	for _, r := range s {
		if unicode.IsUpper(r) {
			b.WriteByte('-')
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}
