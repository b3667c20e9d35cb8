package fault

import (
	"fmt"
	"net/http"
)

// Faults of the area "Card configuration" (the registry: fault.go).

var (
	ConfigEnvAlwaysTest = declare("Card configuration", "config-environment-always-test", "GET /cards/config says environment TEST also to LIVE credentials.",
		"CONFIG-09", "CONFIG-02")
	ConfigVaultStale = declare("Card configuration", "config-vault-stale", "GET /cards/config reports the seed vault balance, never the live one.",
		"CONFIG-08")
)

// ConfigAmountMembers are the amounts of the card configuration
// (but minFunding) that config-amounts-as-strings gives as strings: each
// member's own rule fails.
var ConfigAmountMembers = []string{"creationFee", "fundFee", "withdrawalFee", "exchangeRate", "vaultBalance"}

var _ = declareMember("Card configuration", "config-amounts-as-strings",
	"GET /cards/config gives creationFee, fundFee, withdrawalFee, exchangeRate and vaultBalance as strings instead of numbers.",
	http.MethodGet, pathIs("/cards/config"),
	func(top map[string]any) {
		if d := dataMember(top); d != nil {
			for _, m := range ConfigAmountMembers {
				d[m] = fmt.Sprint(d[m])
			}
		}
	}, "CONFIG-03", "CONFIG-04", "CONFIG-05", "CONFIG-07", "CONFIG-08")
